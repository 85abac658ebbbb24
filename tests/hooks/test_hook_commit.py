"""The commit check, driven by real `git commit` through the installed plain hook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import GIT_ENV, git, make_repo, run_cli, run_git


def remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def install(repo: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    done = run_cli("hook", "install", *extra, cwd=repo)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def hooked(tmp_path: Path) -> Path:
    repo = make_repo(
        tmp_path / "repo",
        {
            "scripts/deploy.sh": "echo deploy\n",
            "docs/guide.md": "guide\n",
            "docs/more.md": "more\n",
            "src/app.py": "print()\n",
        },
    )
    install(repo)
    return repo


def test_commit_deleting_a_named_path_is_blocked(hooked: Path) -> None:
    memory = remember(hooked, "Deploys go out with scripts/deploy.sh on Fridays")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = run_git(hooked, "commit", "-m", "drop deploy")
    assert done.returncode != 0
    assert f"memory {memory}: Deploys go out with scripts/deploy.sh" in done.stdout
    assert "scripts/deploy.sh is deleted" in done.stdout
    assert f"synapse memory forget {memory}" in done.stdout
    assert git(hooked, "log", "--oneline").count("\n") == 1


def test_commit_renaming_a_named_path_names_the_new_path_and_command(hooked: Path) -> None:
    memory = remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "mv", "scripts/deploy.sh", "scripts/ship.sh")
    done = run_git(hooked, "commit", "-m", "rename")
    assert done.returncode != 0
    assert "scripts/deploy.sh is renamed to scripts/ship.sh" in done.stdout
    assert f"synapse memory edit {memory} -- 'Deploys go out with scripts/ship.sh'" in done.stdout
    assert f"synapse memory supersede {memory}" in done.stdout


def test_unrelated_commit_passes(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    (hooked / "src/app.py").write_text("print(1)\n", encoding="utf-8")
    git(hooked, "rm", "-q", "docs/more.md")
    git(hooked, "add", "-A")
    done = run_git(hooked, "commit", "-m", "edit")
    assert done.returncode == 0, done.stdout


def test_folder_is_gone_only_when_nothing_is_left_under_it(hooked: Path) -> None:
    memory = remember(hooked, "The guides are in `docs/`")
    git(hooked, "rm", "-q", "docs/guide.md")
    assert run_git(hooked, "commit", "-m", "one doc less").returncode == 0
    git(hooked, "mv", "docs", "manual")
    done = run_git(hooked, "commit", "-m", "docs moved")
    assert done.returncode != 0
    assert f"memory {memory}" in done.stdout
    assert "docs/ is renamed to manual/" in done.stdout


def test_the_staged_tree_counts_not_the_working_files(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    (hooked / "scripts/deploy.sh").unlink()  # deleted in the work tree, not staged
    (hooked / "src/app.py").write_text("print(2)\n", encoding="utf-8")
    git(hooked, "add", "src/app.py")
    assert run_git(hooked, "commit", "-m", "only app").returncode == 0
    # `commit -a` stages the deletion in a temporary index (GIT_INDEX_FILE): blocked.
    done = run_git(hooked, "commit", "-a", "-m", "all")
    assert done.returncode != 0
    assert "scripts/deploy.sh is deleted" in done.stdout


def test_warn_only_reports_but_never_blocks(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = run_cli("hook", "pre-commit", "--warn-only", cwd=hooked)
    assert done.returncode == 0
    assert "warning: this commit makes 1 project memory stale" in done.stdout


def test_other_projects_and_forgotten_memories_do_not_block(hooked: Path, tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", {"scripts/deploy.sh": "x\n"})
    remember(other, "Deploys go out with scripts/deploy.sh")
    forgotten = remember(hooked, "Old: scripts/deploy.sh ships it")
    assert run_cli("memory", "forget", str(forgotten), cwd=hooked).returncode == 0
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = run_git(hooked, "commit", "-m", "drop")
    assert done.returncode == 0, done.stdout


def test_no_store_yet_opens_nothing_and_passes(hooked: Path, isolated_store: Path) -> None:
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = run_git(hooked, "commit", "-m", "drop")
    assert done.returncode == 0, done.stdout
    assert not (isolated_store / "memory.db").exists()


def test_first_commit_without_head(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "fresh", {"a.txt": "a\n"}, commit=False)
    install(repo)
    remember(repo, "Notes live in a.txt")
    git(repo, "add", "-A")
    done = run_git(repo, "commit", "-m", "first")
    assert done.returncode == 0, done.stdout


def test_detached_head_and_rebase_in_progress(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "checkout", "-q", "--detach")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    assert run_git(hooked, "commit", "-m", "detached").returncode != 0
    git(hooked, "reset", "-q", "--hard")
    git(hooked, "checkout", "-q", "main")
    (hooked / "src/app.py").write_text("print(3)\n", encoding="utf-8")
    git(hooked, "commit", "-q", "-am", "second")
    # Stop a rebase at its first commit, then commit during it.
    env = {"GIT_SEQUENCE_EDITOR": "sed -i -e 's/^pick/edit/'"}
    done = subprocess.run(
        ["git", "rebase", "-i", "HEAD~1"],
        cwd=hooked,
        env={**os.environ, **GIT_ENV, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (hooked / ".git/rebase-merge").is_dir()
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    assert run_git(hooked, "commit", "-m", "during rebase").returncode != 0
    git(hooked, "reset", "-q", "--hard")
    (hooked / "src/app.py").write_text("print(4)\n", encoding="utf-8")
    git(hooked, "add", "src/app.py")
    assert run_git(hooked, "commit", "-m", "fine during rebase").returncode == 0
    git(hooked, "rebase", "--abort")


def test_paths_with_spaces_and_non_ascii(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "dossier de données é",
        {"Guía rápida/índice.md": "hola\n", "naïve/über.py": "x\n"},
    )
    install(repo)
    memory = remember(repo, "Read `Guía rápida/índice.md` first; naïve/über.py is the core")
    git(repo, "mv", "naïve/über.py", "naïve/unter.py")
    git(repo, "rm", "-q", "Guía rápida/índice.md")
    done = run_git(repo, "commit", "-m", "move")
    assert done.returncode != 0
    assert f"memory {memory}" in done.stdout
    assert "Guía rápida/índice.md is deleted" in done.stdout
    assert "naïve/über.py is renamed to naïve/unter.py" in done.stdout


def test_own_error_never_blocks(hooked: Path, isolated_store: Path) -> None:
    (isolated_store / "memory.db").write_bytes(b"this is not a database" * 100)
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = run_git(hooked, "commit", "-m", "drop")
    assert done.returncode == 0
    assert "failed" in done.stdout and "carrying on" in done.stdout


def test_hook_never_writes_into_the_repository(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    (hooked / "src/app.py").write_text("print(5)\n", encoding="utf-8")
    git(hooked, "commit", "-q", "-am", "edit")
    git(hooked, "checkout", "-q", "-b", "side")
    assert git(hooked, "status", "--porcelain", "--ignored") == ""


def _commit_check_printing(hooked: Path, report: str) -> subprocess.CompletedProcess[str]:
    """The commit check run in a new interpreter, which then prints `report`."""
    code = (
        "import sys; from synapse_git.hooks import commit;"
        f"code = commit.pre_commit_main([]); {report}; sys.exit(code)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=hooked, capture_output=True, text=True, check=False
    )


def test_commit_path_imports_neither_typer_nor_pygit2_nor_mcp(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    done = _commit_check_printing(
        hooked,
        "print('LOADED', [m for m in ('typer', 'pygit2', 'mcp', 'click', 'numpy', 'onnxruntime',"
        " 'pydantic', 'dataclasses', 'synapse_git.service.facade') if m in sys.modules])",
    )
    assert done.returncode == 1, done.stdout
    assert "LOADED []" in done.stdout


def test_a_commit_deleting_nothing_loads_only_the_review_git_and_the_snapshot_file(
    hooked: Path,
) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    run_cli("hook", "session", cwd=hooked)  # a snapshot, whose earlier drift is counted
    (hooked / "src/app.py").write_text("print(7)\n", encoding="utf-8")
    git(hooked, "add", "src/app.py")
    code = (
        "import sys; from synapse_git.hooks import commit; code = commit.pre_commit_main([]);"
        "import json; print(json.dumps([m for m in sys.modules if m.startswith('synapse_git')]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=hooked, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = {m.removeprefix("synapse_git.") for m in json.loads(done.stdout)}
    assert loaded == {
        "synapse_git",
        *("data_folder", "errors", "exit_codes"),
        *("hooks", "hooks.commit", "hooks.terminal"),
        *("service", "service.commit_review"),
        *("git", "git.git_command", "session", "session.snapshot_file"),
        *("git.repo_files", "file_reads"),  # the repository's files, checked before git
        "team",  # the package alone: where the team file lives
    }


def test_a_commit_deleting_very_many_paths_reads_the_bodies_once(
    tmp_path: Path, isolated_store: Path
) -> None:
    from synapse_git.drift import commit_check, paths
    from synapse_git.git import git_command
    from synapse_git.store import readonly

    repo = make_repo(tmp_path / "many", {f"d/f{i}.txt": "x\n" for i in range(250)})
    memory = remember(repo, "See d/f7.txt, and the whole `d/` folder")
    git(repo, "rm", "-q", "-r", "d")
    checkout = git_command.locate(repo)
    assert checkout is not None
    changes = git_command.staged_changes(checkout.toplevel)
    assert len(changes) > commit_check.MAX_NEEDLES
    conn = readonly.open_readonly(isolated_store / "memory.db")
    assert conn is not None
    with conn:
        broken = commit_check.broken_memories(
            conn,
            checkout.project,
            str(checkout.toplevel),
            changes,
            find_paths=paths.find_paths,
            still_tracked=lambda folders: git_command.tracked_under(checkout.toplevel, folders),
            staged_files=lambda: git_command.tracked_files(checkout.toplevel),
        )
    conn.close()
    assert [(b.memory_id, b.path) for b in broken] == [(memory, "d/"), (memory, "d/f7.txt")]


def test_the_warning_counts_only_what_is_still_stale_now(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    git(hooked, "commit", "-q", "--no-verify", "-m", "drop it")
    switched = run_git(hooked, "checkout", "-b", "later")  # the refresh finds it stale
    assert "stale (1)" in switched.stdout
    (hooked / "src/app.py").write_text("print(3)\n", encoding="utf-8")
    git(hooked, "add", "src/app.py")
    warned = run_git(hooked, "commit", "-m", "unrelated")
    assert warned.returncode == 0
    assert "warning: 1 project memory names a path missing now" in warned.stdout
    # Restored by a file checkout, which refreshes nothing: the warning is gone at once.
    git(hooked, "checkout", "HEAD~2", "--", "scripts/deploy.sh")
    restored = run_git(hooked, "commit", "-m", "bring it back")
    assert restored.returncode == 0
    assert "warning" not in restored.stdout, restored.stdout


def test_diff_relative_in_the_config_changes_nothing(hooked: Path) -> None:
    """The staged changes are read beside locating the checkout, from wherever the
    check runs: git's `diff.relative` must not make the paths relative to there."""
    memory = remember(hooked, "Deploys go out with scripts/deploy.sh")
    git(hooked, "config", "diff.relative", "true")
    git(hooked, "rm", "-q", "scripts/deploy.sh")
    from synapse_git.hooks import commit

    assert commit.check_commit(folder=hooked / "docs") == commit.BLOCK
    done = run_git(hooked / "docs", "commit", "-m", "drop deploy")
    assert done.returncode != 0
    assert f"memory {memory}: Deploys go out with scripts/deploy.sh" in done.stdout


def test_a_commit_deleting_nothing_imports_only_the_commit_path(hooked: Path) -> None:
    remember(hooked, "Deploys go out with scripts/deploy.sh")
    (hooked / "src/app.py").write_text("print(6)\n", encoding="utf-8")
    git(hooked, "add", "src/app.py")
    done = _commit_check_printing(
        hooked,
        "print('OURS', sorted(m for m in sys.modules if m.startswith('synapse_git.')));"
        "print('HEAVY', [m for m in ('typing', 'dataclasses', 'hashlib', 'sqlite3', 'argparse',"
        " 'pathspec', 'pygit2', 'typer', 'mcp') if m in sys.modules])",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ours = [
        "synapse_git.data_folder",
        "synapse_git.errors",
        "synapse_git.exit_codes",
        "synapse_git.file_reads",
        "synapse_git.git",
        "synapse_git.git.git_command",
        "synapse_git.git.repo_files",
        "synapse_git.hooks",
        "synapse_git.hooks.commit",
        "synapse_git.hooks.terminal",
        "synapse_git.service",
        "synapse_git.service.commit_review",
        "synapse_git.session",
        "synapse_git.session.snapshot_file",
        "synapse_git.team",
    ]
    assert f"OURS {ours}" in done.stdout
    assert "HEAVY []" in done.stdout


def test_a_deleted_file_whose_name_is_not_utf8_leaves_the_check_whole(hooked: Path) -> None:
    # A file named in Latin-1 deleted in the same commit once ended the whole check
    # (an error, "carrying on"), so a named path deleted beside it went unchecked.
    odd = hooked / "scripts" / "caf\udce9.sh"  # the byte 0xe9, as os.fsdecode reads it
    odd.write_text("echo\n", encoding="utf-8")
    git(hooked, "add", "-A")
    git(hooked, "commit", "-q", "--no-verify", "-m", "latin-1 name")
    memory = remember(hooked, "Deploys go out with scripts/deploy.sh on Fridays")
    git(hooked, "rm", "-q", "scripts/deploy.sh", os.fsdecode(odd))
    done = run_git(hooked, "commit", "-m", "drop both")
    assert done.returncode != 0, done.stdout
    assert f"memory {memory}: Deploys go out with scripts/deploy.sh" in done.stdout
    assert "carrying on" not in done.stdout
