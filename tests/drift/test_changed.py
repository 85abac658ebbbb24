"""`changed`: a named file that changed a lot since the memory was written, through
the real CLI, real git commits and the real hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git


def remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def config(store: Path, text: str) -> None:
    (store / "config.toml").write_text(text, encoding="utf-8")


def work_on(repo: Path, path: str, commits: int, lines: int) -> None:
    """`commits` commits, each rewriting `lines` lines of `path`."""
    target = repo / path
    for n in range(commits):
        target.write_text("".join(f"line {i} v{n}\n" for i in range(lines)), encoding="utf-8")
        git(repo, "add", path)
        git(repo, "commit", "-q", "--no-verify", "-m", f"work {n}")


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return make_repo(
        tmp_path / "app",
        {"src/app.py": "".join(f"line {i}\n" for i in range(10)), "src/db.py": "DB = 1\n"},
    )


def drift_json(repo: Path, *extra: str) -> tuple[int, list[dict[str, object]]]:
    done = run_cli("memory", "drift", "--json", *extra, cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_a_file_changed_past_the_commit_threshold_is_changed_and_exit_stays_0(
    app: Path, isolated_store: Path
) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 3\nchanged_lines = 0\n")
    memory = remember(app, "The app starts in src/app.py")
    quiet = remember(app, "The database handle is in src/db.py")
    anchor = git(app, "rev-parse", "HEAD").strip()
    work_on(app, "src/app.py", 3, 10)
    code, found = drift_json(app)
    assert code == 0
    assert found == [
        {
            "kind": "changed",
            "ids": [memory],
            "paths": ["src/app.py"],
            "changes": {"src/app.py": {"commits": 3, "lines": 60}},
            "anchor": anchor,
            "detail": f"memory {memory} names src/app.py (3 commits, 60 lines), changed since "
            f"it was written at {anchor[:12]}; check that it still holds",
            "suggest": f"synapse memory read {memory}",
        }
    ]
    assert all(quiet not in finding["ids"] for finding in found)  # type: ignore[operator]
    table = run_cli("memory", "drift", cwd=app)
    assert table.returncode == 0 and "changed" in table.stdout


def test_a_folder_is_never_changed_only_the_files_named(app: Path, isolated_store: Path) -> None:
    """A folder always changes a lot: a memory naming `src/` is not flagged for it."""
    config(isolated_store, "[drift]\nchanged_commits = 3\nchanged_lines = 0\n")
    remember(app, "Application code lives under src/")
    work_on(app, "src/app.py", 3, 10)
    assert drift_json(app) == (0, [])


def test_below_every_threshold_nothing_is_changed(app: Path, isolated_store: Path) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 4\nchanged_lines = 61\n")
    remember(app, "The app starts in src/app.py")
    work_on(app, "src/app.py", 3, 10)  # 3 commits, 60 lines
    assert drift_json(app) == (0, [])
    config(isolated_store, "[drift]\nchanged_commits = 0\nchanged_lines = 60\n")
    assert [f["kind"] for f in drift_json(app)[1]] == ["changed"]


def test_the_default_thresholds_and_a_short_form(app: Path) -> None:
    memory = remember(app, "Edit app.py to change the start-up")  # app.py: src/app.py
    work_on(app, "src/app.py", 2, 200)  # 2 commits, 10 + 200 + 200 + 200 = 610 lines
    code, found = drift_json(app, "--kind", "changed")
    assert code == 0
    assert [(f["ids"], f["paths"]) for f in found] == [([memory], ["app.py"])]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[drift]\nchanged_commits = -1\n", "drift.changed_commits = -1: use a whole number"),
        ('[drift]\nchanged_lines = "many"\n', "drift.changed_lines = 'many': use a whole number"),
        ("[drift]\nchanged_commits = true\n", "drift.changed_commits = True: use a whole number"),
        ("[drift]\nchanged = 3\n", "drift.changed is not a drift key"),
        ("drift = 3\n", "drift must be a [drift] table"),
    ],
)
def test_bad_thresholds_are_one_line_errors(
    app: Path, isolated_store: Path, text: str, message: str
) -> None:
    remember(app, "The app starts in src/app.py")
    config(isolated_store, text)
    done = run_cli("memory", "drift", cwd=app)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_changed_shows_in_recall_explain_and_is_counted_at_session_start_never_hidden(
    app: Path, isolated_store: Path
) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 2\n")
    memory = remember(app, "The app starts in src/app.py")
    work_on(app, "src/app.py", 2, 10)
    plain = run_cli("memory", "recall", "app starts", cwd=app)
    assert "drift: changed" not in plain.stdout
    explained = run_cli("memory", "recall", "app starts", "--explain", cwd=app)
    assert f"drift: changed: memory {memory} names src/app.py" in explained.stdout
    session = run_cli("hook", "session", cwd=app).stdout
    assert f"- [{memory}] The app starts in src/app.py" in session
    assert "Changed since written: 1 memory names a file changed a lot since" in session
    assert "Left out" not in session


def test_changed_never_blocks_a_commit(app: Path, isolated_store: Path) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 1\n")
    assert run_cli("hook", "install", cwd=app).returncode == 0
    remember(app, "The app starts in src/app.py")
    work_on(app, "src/app.py", 2, 10)
    run_cli("hook", "post-checkout", "x", "y", "1", cwd=app)
    (app / "src" / "app.py").write_text("again\n", encoding="utf-8")
    git(app, "add", "src/app.py")
    done = run_git(app, "commit", "-m", "more work on the app")
    assert done.returncode == 0, done.stdout
    assert "changed" not in done.stdout.replace("1 file changed", "")


def test_a_branch_switch_updates_changed_for_the_memories_it_rechecks(
    app: Path, isolated_store: Path
) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 2\n")
    assert run_cli("hook", "install", cwd=app).returncode == 0
    memory = remember(app, "The app starts in src/app.py")
    git(app, "checkout", "-q", "-b", "busy")
    work_on(app, "src/app.py", 2, 10)
    git(app, "checkout", "-q", "main")
    switched = run_git(app, "checkout", "busy")
    assert "(1 naming a file changed a lot since)" in switched.stdout, switched.stdout
    back = run_git(app, "checkout", "main")
    assert "naming a file changed a lot" not in back.stdout
    assert f"[{memory}]" in run_cli("hook", "session", cwd=app).stdout


def test_an_anchor_git_does_not_know_gives_no_finding(app: Path, isolated_store: Path) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 1\n")
    memory = remember(app, "The app starts in src/app.py")
    work_on(app, "src/app.py", 2, 10)
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn, conn:
        conn.execute("UPDATE memories SET head_commit = ? WHERE id = ?", ("f" * 40, memory))
    assert drift_json(app) == (0, [])


def test_what_git_said_is_kept_for_this_head_and_read_again_after_a_commit(
    app: Path, isolated_store: Path
) -> None:
    config(isolated_store, "[drift]\nchanged_commits = 3\nchanged_lines = 0\n")
    memory = remember(app, "The app starts in src/app.py")
    work_on(app, "src/app.py", 2, 10)
    assert drift_json(app)[1] == []
    [kept] = (isolated_store / "churn").glob("*.json")
    head = git(app, "rev-parse", "HEAD").strip()
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert data["head"] == head
    assert list(data["ranges"].values()) == [{"src/app.py": [2, 40]}]
    # The same HEAD reads the kept answer: a kept count the check then shows proves it.
    data["ranges"] = {anchor: {"src/app.py": [9, 90]} for anchor in data["ranges"]}
    kept.write_text(json.dumps(data), encoding="utf-8")
    assert [f["ids"] for f in drift_json(app)[1]] == [[memory]]
    # A new HEAD asks git again.
    work_on(app, "src/app.py", 1, 10)
    [found] = drift_json(app)[1]
    assert found["changes"] == {"src/app.py": {"commits": 3, "lines": 60}}
    # A file that is not what it should be is ignored, and written again.
    for junk in ("not json", "[1, 2]", '{"head": "' + head + '", "ranges": {"x": 5}}'):
        kept.write_text(junk, encoding="utf-8")
        assert drift_json(app)[1][0]["changes"] == found["changes"]
