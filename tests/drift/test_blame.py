"""`synapse memory blame PATH[:LINE]` and `synapse memory show ID` on real repositories."""

from __future__ import annotations

import json
from pathlib import Path

from support import git, make_repo, run_cli


def remember(repo: Path, text: str) -> int:
    done = run_cli("memory", "remember", text, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def blame(repo: Path, *args: str) -> dict[str, object]:
    done = run_cli("memory", "blame", *args, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def ids(found: dict[str, object]) -> list[int]:
    return [m["id"] for m in found["memories"]]  # type: ignore[attr-defined, index]


def test_blame_follows_the_path_through_its_renames(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/util.py": "a\nb\nc\n", "README.md": "r\n"})
    old = remember(repo, "Helpers live in src/util.py.")
    short = remember(repo, "util.py stays small.")
    other = remember(repo, "The readme is README.md.")
    git(repo, "mv", "src/util.py", "src/helpers.py")
    commit(repo, "rename")
    new = remember(repo, "Use src/helpers.py for helpers.")
    gone = remember(repo, "helpers.py has no tests yet.")
    assert run_cli("memory", "forget", str(gone), cwd=repo).returncode == 0
    found = blame(repo, "src/helpers.py")
    assert ids(found) == [gone, new, short, old] and other not in ids(found)
    assert found["former_names"][0]["name"] == "src/util.py"  # type: ignore[index]
    by_id = {m["id"]: m for m in found["memories"]}  # type: ignore[attr-defined]
    assert by_id[old]["named_as"] == ["src/util.py"] and by_id[old]["former_name_renamed_in"]
    assert by_id[new]["former_name_renamed_in"] is None
    assert by_id[gone]["state"] == "forgotten"
    head = git(repo, "rev-parse", "HEAD").strip()
    assert by_id[new]["commit"] == head and by_id[new]["branch"] == "main"
    text = run_cli("memory", "blame", "src/helpers.py", cwd=repo).stdout
    assert "formerly src/util.py, renamed in" in text
    assert f"memory {old} [live] written at" in text and "by a former name" in text


def test_an_old_name_given_to_another_file_means_it_only_before_the_rename(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "r", {"src/a.py": "one\n"})
    before = remember(repo, "Parsing is in src/a.py.")
    git(repo, "mv", "src/a.py", "src/b.py")
    commit(repo, "rename")
    (repo / "src" / "a.py").write_text("another file\n", encoding="utf-8")
    commit(repo, "a new a.py")
    after = remember(repo, "src/a.py holds the new entry point.")
    assert ids(blame(repo, "src/b.py")) == [before]
    assert ids(blame(repo, "src/a.py")) == [after]


def test_blame_a_line_says_who_names_it_and_whether_it_changed_since(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"app/config.py": "port = 8080\nhost = 'x'\ndebug = 0\n"})
    line_two = remember(repo, "The host is set at app/config.py:2.")
    whole = remember(repo, "Settings are in app/config.py.")
    found = blame(repo, "app/config.py:2")
    assert ids(found) == [line_two, whole]  # the one naming the line first
    assert [m["line_changed_since"] for m in found["memories"]] == [False, False]  # type: ignore[attr-defined]
    (repo / "app" / "config.py").write_text("port = 8080\nhost = 'y'\ndebug = 0\n")
    commit(repo, "new host")
    found = blame(repo, "app/config.py:2")
    assert [m["line_changed_since"] for m in found["memories"]] == [True, True]  # type: ignore[attr-defined]
    assert found["line_commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert [m["mentions_line"] for m in blame(repo, "app/config.py:3")["memories"]] == [  # type: ignore[attr-defined]
        False,
        False,
    ]
    # From a subfolder, PATH is relative to it, as git blame takes it.
    sub = run_cli("memory", "blame", "config.py:2", "--json", cwd=repo / "app")
    assert json.loads(sub.stdout)["path"] == "app/config.py"


def test_bad_targets_are_one_line_errors(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a.py": "x\n"})
    remember(repo, "a.py is the app.")
    for target, words in (
        ("../elsewhere.py", "outside the repository"),
        ("a.py:0", "lines count from 1"),
        ("a.py:40", "has only 1 line"),
        ("nothere.py:3", "nothere.py"),
        ("a.py\x1b[2J", "PATH must be a path"),
    ):
        done = run_cli("memory", "blame", target, cwd=repo)
        assert done.returncode == 2, target
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert "\x1b" not in done.stderr
    outside = tmp_path / "plain"
    outside.mkdir()
    done = run_cli("memory", "blame", "a.py", cwd=outside)
    assert done.returncode == 2 and "needs a repository" in done.stderr


def test_show_gives_paths_now_changes_since_the_anchor_chain_and_team(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "r", {"src/billing.py": "a\n", "src/old.py": "o\n", "docs/x.md": "x\n"}
    )
    first = remember(repo, "Billing is in src/billing.py; helpers in src/old.py.")
    git(repo, "mv", "src/old.py", "src/new.py")
    commit(repo, "rename")
    for number in range(3):
        (repo / "src" / "billing.py").write_text(f"a\n{number}\n" * 10, encoding="utf-8")
        commit(repo, f"change {number}")
    newer = run_cli(
        "memory", "supersede", str(first), "Billing lives in src/billing.py.", "--json", cwd=repo
    )
    assert newer.returncode == 0, newer.stderr
    second = int(json.loads(newer.stdout)["id"])
    assert run_cli("memory", "share", str(second), cwd=repo).returncode == 0
    page = json.loads(run_cli("memory", "show", str(first), "--json", cwd=repo).stdout)
    paths = {p["path"]: p for p in page["paths"]}
    assert paths["src/billing.py"]["state"] == "present"
    assert paths["src/billing.py"]["commits"] == 3 and paths["src/billing.py"]["lines"] > 0
    assert paths["src/old.py"]["state"] == "stale"
    assert paths["src/old.py"]["renamed_to"] == "src/new.py"
    assert page["chain"] == [first, second] and page["anchor_inferred"] is False
    assert page["team"] is None and page["commit"] and page["branch"] == "main"
    shared = json.loads(run_cli("memory", "show", str(second), "--json", cwd=repo).stdout)
    assert shared["team"]["origin"] == "here" and shared["team"]["in_file"] is True
    assert shared["team"]["file_state"] == "live" and "Synapse Test" in shared["team"]["author"]
    text = run_cli("memory", "show", str(first), cwd=repo).stdout
    assert "src/billing.py: present, 3 commits and" in text
    assert "src/old.py: gone from this checkout; now src/new.py" in text
    assert f"  chain         {first} -> {second}" in text
    assert "  team          not shared" in text
