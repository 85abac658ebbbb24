"""Hooks that cost what changed: real hooks fired by real git checkout, merge,
rebase and commit; what a refresh looked at is read from its own output and
from the session snapshot it wrote."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git

from synapse_git.session import snapshots

FILES = {
    "src/app.py": "print('app')\n",
    "src/db.py": "DB = 1\n",
    "docs/guide.md": "# guide\n",
}


def remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)


def snapshot(repo: Path, store: Path) -> snapshots.Snapshot:
    found = snapshots.read_snapshot(store, str(repo.resolve()))
    assert found is not None
    return found


def rechecked(output: str) -> list[int]:
    """The ids a refresh says it re-checked; fails when it checked everything."""
    line = re.search(r"re-checked (\d+) of \d+ memor(?:y|ies)[^\n]*", output)
    assert line is not None, output
    ids = re.search(r"\(([\d, ]+)\)$", line.group(0))
    found = [int(i) for i in ids.group(1).split(", ")] if ids else []
    assert len(found) == int(line.group(1))
    return found


@pytest.fixture
def shop(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """Three memories, each naming one file; the hooks installed; one full refresh done."""
    repo = make_repo(tmp_path / "shop", FILES)
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    ids = {
        "app": remember(repo, "The entry point is src/app.py"),
        "db": remember(repo, "Connections are opened in src/db.py"),
        "guide": remember(repo, "How to deploy is in docs/guide.md"),
    }
    first = run_cli("hook", "post-checkout", "x", "y", "1", cwd=repo)
    assert "checked 3 memories" in first.stdout, first.stdout + first.stderr
    return repo, ids


def test_a_branch_switch_rechecks_only_memories_naming_changed_paths(
    shop: tuple[Path, dict[str, int]], isolated_store: Path
) -> None:
    repo, ids = shop
    git(repo, "checkout", "-q", "-b", "edit-app")
    (repo / "src" / "app.py").write_text("print('changed')\n", encoding="utf-8")
    commit_all(repo, "change the app")
    git(repo, "checkout", "-q", "main")  # hooks fired: back at the snapshot's commit
    switched = run_git(repo, "checkout", "edit-app")
    assert switched.returncode == 0, switched.stdout
    assert rechecked(switched.stdout) == [ids["app"]]
    assert "1 path changed since" in switched.stdout
    assert snapshot(repo, isolated_store).head == git(repo, "rev-parse", "HEAD").strip()


def drop_db_branch(repo: Path) -> None:
    """Branch `drop-db`, deleting src/db.py; back on main, hooks fired."""
    git(repo, "checkout", "-q", "-b", "drop-db")
    git(repo, "rm", "-q", "src/db.py")
    commit_all(repo, "drop the db module")
    git(repo, "checkout", "-q", "main")


def test_a_switch_deleting_a_named_file_finds_it_stale_and_back_fine_again(
    shop: tuple[Path, dict[str, int]], isolated_store: Path
) -> None:
    repo, ids = shop
    drop_db_branch(repo)
    gone = run_git(repo, "checkout", "drop-db")
    assert rechecked(gone.stdout) == [ids["db"]]
    assert "became stale (1)" in gone.stdout and "gone: src/db.py" in gone.stdout
    assert list(snapshot(repo, isolated_store).stale) == [str(ids["db"])]
    back = run_git(repo, "checkout", "main")
    assert rechecked(back.stdout) == [ids["db"]]
    assert "fine again (1)" in back.stdout
    assert snapshot(repo, isolated_store).stale == {}
    # The carried-over snapshot tells the same as a whole check of the same checkout.
    session = run_cli("hook", "session", cwd=repo).stdout
    assert all(f"[{memory_id}]" in session for memory_id in ids.values())


def test_a_switch_changing_nothing_named_rechecks_no_memory(
    shop: tuple[Path, dict[str, int]],
) -> None:
    repo, _ = shop
    git(repo, "checkout", "-q", "-b", "readme")
    (repo / "README.md").write_text("read me\n", encoding="utf-8")
    commit_all(repo, "a readme")
    git(repo, "checkout", "-q", "main")
    out = run_git(repo, "checkout", "readme").stdout
    assert rechecked(out) == []
    assert "re-checked 0 of 3 memories" in out
    # Back again, in a process that says what it loaded: no git library, no Synapse.
    git(repo, "checkout", "-q", "main")
    code = (
        "import sys; from synapse_git.cli.entry import main;"
        "code = main(['hook', 'post-checkout', 'x', 'y', '1']);"
        "print('LOADED', [m for m in ('typer', 'click', 'pygit2', 'mcp', 'pydantic',"
        " 'synapse_git.service.facade') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    assert "re-checked 0 of 3 memories" in done.stdout, done.stdout + done.stderr
    assert "LOADED []" in done.stdout


def test_a_fast_forward_merge_rechecks_what_it_brought(
    shop: tuple[Path, dict[str, int]],
) -> None:
    repo, ids = shop
    git(repo, "checkout", "-q", "-b", "guide")
    (repo / "docs" / "guide.md").write_text("# guide, rewritten\n", encoding="utf-8")
    commit_all(repo, "rewrite the guide")
    git(repo, "checkout", "-q", "main")
    merged = run_git(repo, "merge", "--ff-only", "guide")
    assert merged.returncode == 0, merged.stdout
    assert rechecked(merged.stdout) == [ids["guide"]]


def test_a_rebase_refreshes_once_for_the_rewritten_range(
    shop: tuple[Path, dict[str, int]], isolated_store: Path
) -> None:
    repo, ids = shop
    git(repo, "checkout", "-q", "-b", "feature")
    for n in range(3):
        (repo / "docs" / f"note{n}.md").write_text(f"note {n}\n", encoding="utf-8")
        commit_all(repo, f"note {n}")
    git(repo, "checkout", "-q", "main")
    (repo / "src" / "db.py").write_text("DB = 2\n", encoding="utf-8")
    commit_all(repo, "main changes the db module")
    git(repo, "checkout", "-q", "feature")
    rebased = run_git(repo, "rebase", "main")
    assert rebased.returncode == 0, rebased.stdout
    # The rebase's own checkout of its base is left to post-rewrite: one refresh.
    refreshes = rebased.stdout.count("synapse: re-checked") + rebased.stdout.count(
        "synapse: checked"
    )
    assert refreshes == 1, rebased.stdout
    assert rechecked(rebased.stdout) == [ids["db"]]
    assert snapshot(repo, isolated_store).head == git(repo, "rev-parse", "HEAD").strip()


def test_an_amend_refreshes_silently_unless_something_became_stale(
    shop: tuple[Path, dict[str, int]], isolated_store: Path
) -> None:
    repo, ids = shop
    (repo / "README.md").write_text("more\n", encoding="utf-8")
    git(repo, "add", "README.md")
    amended = run_git(repo, "commit", "-q", "--amend", "--no-edit")
    assert amended.returncode == 0, amended.stdout
    assert "synapse" not in amended.stdout
    assert snapshot(repo, isolated_store).head == git(repo, "rev-parse", "HEAD").strip()
    git(repo, "rm", "-q", "docs/guide.md")
    dropped = run_git(repo, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    assert rechecked(dropped.stdout) == [ids["guide"]]
    assert "stale" in dropped.stdout


def test_a_changed_store_means_a_whole_check(shop: tuple[Path, dict[str, int]]) -> None:
    repo, _ = shop
    remember(repo, "Tests live in tests/")
    out = run_git(repo, "checkout", "-b", "other").stdout
    assert "checked 4 memories for this checkout" in out
    assert "re-checked" not in out
    # The next switch, the store unchanged, is incremental again.
    assert rechecked(run_git(repo, "checkout", "main").stdout) == []


def test_a_snapshot_commit_gone_from_git_means_a_whole_check(
    shop: tuple[Path, dict[str, int]], isolated_store: Path
) -> None:
    repo, _ = shop
    path = snapshots.snapshot_path(isolated_store, str(repo.resolve()))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["head"] = "0" * 40  # a commit this repository never had
    path.write_text(json.dumps(data), encoding="utf-8")
    out = run_git(repo, "checkout", "-b", "other").stdout
    assert "checked 3 memories for this checkout" in out


# -- the commit warning says what is true now --------------------------------------------


def test_the_commit_warning_forgets_settled_conflicts(
    shop: tuple[Path, dict[str, int]],
) -> None:
    repo, _ = shop
    older = remember(repo, "The request timeout is 30 s.")
    remember(repo, "The request timeout is 60 s.")
    run_cli("hook", "post-checkout", "x", "y", "1", cwd=repo)  # the refresh finds the pair
    (repo / "README.md").write_text("one\n", encoding="utf-8")
    git(repo, "add", "README.md")
    warned = run_git(repo, "commit", "-m", "one")
    assert warned.returncode == 0, warned.stdout
    assert "1 conflicting or duplicate memory" in warned.stdout
    assert run_cli("memory", "forget", str(older), cwd=repo).returncode == 0
    (repo / "README.md").write_text("two\n", encoding="utf-8")
    git(repo, "add", "README.md")
    settled = run_git(repo, "commit", "-m", "two")
    assert settled.returncode == 0, settled.stdout
    assert "conflicting" not in settled.stdout, settled.stdout


def test_the_commit_warning_forgets_a_stale_memory_once_forgotten(
    shop: tuple[Path, dict[str, int]],
) -> None:
    repo, ids = shop
    git(repo, "rm", "-q", "src/db.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop db")
    run_cli("hook", "post-checkout", "x", "y", "1", cwd=repo)
    (repo / "README.md").write_text("one\n", encoding="utf-8")
    git(repo, "add", "README.md")
    warned = run_git(repo, "commit", "-m", "one")
    assert "1 project memory names a path missing now" in warned.stdout, warned.stdout
    assert run_cli("memory", "forget", str(ids["db"]), cwd=repo).returncode == 0
    (repo / "README.md").write_text("two\n", encoding="utf-8")
    git(repo, "add", "README.md")
    quiet = run_git(repo, "commit", "-m", "two")
    assert "missing now" not in quiet.stdout, quiet.stdout


def test_a_refresh_finding_a_named_file_gone_loads_neither_pygit2_nor_the_conflict_rules(
    shop: tuple[Path, dict[str, int]],
) -> None:
    import subprocess
    import sys

    repo, ids = shop
    drop_db_branch(repo)
    git(repo, "-c", "core.hooksPath=/dev/null", "checkout", "-q", "drop-db")
    heavy = (
        "pygit2",
        "typer",
        "click",
        "mcp",
        "synapse_git.service.facade",
        "synapse_git.drift.conflicts",
        "synapse_git.drift.conflict_candidates",
    )
    code = (
        "import sys; from synapse_git.hooks import dispatch;"
        "dispatch.fast_main(['post-checkout', 'x', 'y', '1']);"
        f"print('LOADED', [m for m in {heavy!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    assert rechecked(done.stdout) == [ids["db"]], done.stdout + done.stderr
    assert "became stale (1)" in done.stdout and "gone: src/db.py" in done.stdout
    assert "LOADED []" in done.stdout
