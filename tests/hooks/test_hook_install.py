"""`synapse hook install / uninstall`: the real hooks folder, chaining, restoring."""

from __future__ import annotations

import os
from pathlib import Path

from support import git, make_repo, run_cli, run_git

from synapse_git.git import hook_scripts

ROOT = Path(__file__).resolve().parents[2]


def write_hook(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def test_the_published_scripts_are_what_install_writes() -> None:
    for name in hook_scripts.HOOKS:
        published = ROOT / "hooks" / name
        assert published.read_text(encoding="utf-8") == hook_scripts.script(name)
        assert os.access(published, os.X_OK)


def test_install_is_idempotent_and_uninstall_removes(repo: Path) -> None:
    first = run_cli("hook", "install", cwd=repo)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("installed") == len(hook_scripts.HOOKS)
    hooks = repo / ".git" / "hooks"
    before = {name: (hooks / name).read_text() for name in hook_scripts.HOOKS}
    second = run_cli("hook", "install", cwd=repo)
    assert second.stdout.count("unchanged") == len(hook_scripts.HOOKS)
    assert {name: (hooks / name).read_text() for name in hook_scripts.HOOKS} == before
    assert not list(hooks.glob("*.synapse-chained"))
    done = run_cli("hook", "uninstall", cwd=repo)
    assert done.returncode == 0
    assert not any((hooks / name).exists() for name in hook_scripts.HOOKS)


def test_a_foreign_hook_is_chained_runs_first_blocks_and_comes_back(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    mine = "#!/bin/sh\necho my-own-hook-ran\n[ -e block-me ] && exit 3\nexit 0\n"
    write_hook(hooks / "pre-commit", mine)
    done = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert "chained" in done.stdout
    assert (hooks / "pre-commit.synapse-chained").read_text() == mine
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    assert (hooks / "pre-commit.synapse-chained").read_text() == mine  # not chained twice

    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    ok = run_git(repo, "commit", "-m", "passes")
    assert ok.returncode == 0 and "my-own-hook-ran" in ok.stdout
    (repo / "block-me").write_text("x\n")
    git(repo, "add", "block-me")
    blocked = run_git(repo, "commit", "-m", "blocked by the chained hook")
    assert blocked.returncode != 0 and "my-own-hook-ran" in blocked.stdout

    assert run_cli("hook", "uninstall", cwd=repo).returncode == 0
    assert (hooks / "pre-commit").read_text() == mine
    assert not (hooks / "pre-commit.synapse-chained").exists()


def test_a_failing_chained_post_checkout_keeps_its_status(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    write_hook(hooks / "post-checkout", "#!/bin/sh\necho chained-post-checkout\nexit 4\n")
    run_cli("hook", "install", cwd=repo)
    done = run_git(repo, "checkout", "-b", "side")
    assert "chained-post-checkout" in done.stdout
    assert done.returncode != 0  # git reports a failed post-checkout as its own failure


def test_refuses_where_chaining_is_impossible(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    write_hook(hooks / "pre-commit", "#!/bin/sh\nexit 0\n")
    write_hook(hooks / "pre-commit.synapse-chained", "#!/bin/sh\nexit 0\n")
    (hooks / "post-merge").mkdir()
    done = run_cli("hook", "install", cwd=repo)
    assert done.returncode == 2
    assert "cannot be chained" in done.stderr or "cannot chain" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    # Nothing was written: the refusal came before any change.
    assert not (hooks / "post-checkout").exists()
    assert (hooks / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"
    done = run_cli("hook", "install", "--hooks", "post-merge", cwd=repo)
    assert done.returncode == 2 and "is a folder" in done.stderr
    bad = run_cli("hook", "install", "--hooks", "pre-push", cwd=repo)
    assert bad.returncode == 2 and "unknown hook pre-push" in bad.stderr


def test_core_hooks_path_is_honoured(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", "../shared-hooks")
    done = run_cli("hook", "install", "--hooks", "pre-commit,post-checkout", cwd=repo)
    assert done.returncode == 0, done.stderr
    shared = (repo.parent / "shared-hooks").resolve()
    assert (shared / "pre-commit").is_file() and (shared / "post-checkout").is_file()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    run_cli("hook", "uninstall", cwd=repo)
    assert not (shared / "pre-commit").exists()


def test_linked_worktree_installs_into_the_common_hooks_folder(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main", {"a.txt": "a\n"})
    linked = tmp_path / "linked"
    git(main, "worktree", "add", "-q", "-b", "work", str(linked))
    done = run_cli("hook", "install", cwd=linked)
    assert done.returncode == 0, done.stderr
    assert (main / ".git" / "hooks" / "pre-commit").is_file()
    assert not (main / ".git" / "worktrees" / "linked" / "hooks").exists()
    # The hook fires for commits made in the linked worktree too.
    assert run_cli("memory", "remember", "The notes are in a.txt", cwd=linked).returncode == 0
    git(linked, "rm", "-q", "a.txt")
    blocked = run_git(linked, "commit", "-m", "drop a")
    assert blocked.returncode != 0 and "a.txt is deleted" in blocked.stdout


def test_outside_git_is_refused_clearly(outside: Path) -> None:
    done = run_cli("hook", "install", cwd=outside)
    assert done.returncode == 2
    assert "not inside a git repository" in done.stderr


def test_every_published_hook_is_documented_and_its_entry_exists() -> None:
    import sys

    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    by_id = {hook["id"]: hook for hook in hooks}
    assert set(by_id) == {"synapse-drift", "synapse-refresh", "synapse-ci-check"}
    drift = by_id["synapse-drift"]
    assert drift["stages"] == ["pre-commit", "pre-merge-commit"]
    assert drift["pass_filenames"] is False and drift["always_run"] is True
    assert by_id["synapse-refresh"]["stages"] == ["post-checkout"]
    # Never at commit time: CI runs it between two refs (docs/ci.md).
    assert by_id["synapse-ci-check"]["stages"] == ["manual"]
    for hook_id, hook in by_id.items():
        assert f"`{hook_id}`" in readme
        program = hook["entry"].split()[0]
        assert (Path(sys.executable).parent / program).exists(), program


def test_an_edited_copy_of_synapses_hook_is_chained_and_given_back_intact(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    # The published script, copied and extended by hand: it carries the marker.
    edited = (
        (ROOT / "hooks" / "pre-commit")
        .read_bytes()
        .replace(b"status=0\n", b"status=0\necho my-line-ran\n", 1)
    )
    assert hook_scripts.MARK.encode() in edited
    (hooks / "pre-commit").write_bytes(edited)
    (hooks / "pre-commit").chmod(0o755)
    done = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert done.returncode == 0 and "chained" in done.stdout, done.stdout
    assert (hooks / "pre-commit.synapse-chained").read_bytes() == edited
    # The chained copy runs once (it does not find and run itself) and the commit passes.
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    ok = run_git(repo, "commit", "-m", "passes")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.count("my-line-ran") == 1
    gone = run_cli("hook", "uninstall", "--hooks", "pre-commit", cwd=repo)
    assert "restored" in gone.stdout
    assert (hooks / "pre-commit").read_bytes() == edited
    assert not (hooks / "pre-commit.synapse-chained").exists()


def test_uninstall_leaves_a_marked_hook_it_did_not_write(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    mine = hook_scripts.script("post-merge") + "echo the user's own step\n"
    write_hook(hooks / "post-merge", mine)
    done = run_cli("hook", "uninstall", "--hooks", "post-merge", cwd=repo)
    assert done.returncode == 0 and "left alone" in done.stdout
    assert (hooks / "post-merge").read_text(encoding="utf-8") == mine


def test_scripts_written_by_earlier_versions_are_still_synapses(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    earlier = [(bindir, edition) for edition in (1, 2, 3) for bindir in (None, "/opt/it's/bin")]
    for bindir, edition in earlier:
        old = hook_scripts.script("pre-commit", bindir, edition=edition)
        write_hook(hooks / "pre-commit", old)
        done = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
        assert "updated" in done.stdout, done.stdout
        assert not (hooks / "pre-commit.synapse-chained").exists()
        assert '[ "$chained" != "$0" ]' in (hooks / "pre-commit").read_text()
