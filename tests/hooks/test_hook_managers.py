"""A hook manager's scripts chained by `synapse hook install` still find their work.

Hook managers write stub scripts that find what to run by the name and folder
they are run under (`basename "$0"`, `dirname "$0"`): one in `core.hooksPath`
sourcing a helper beside it that runs the project's script of the same name
one folder up, or one in `.git/hooks` that hands its own name to the manager.
Chained as NAME.synapse-chained and run under that name, such a stub finds
nothing to run and lets every commit through. These are real hooks fired by
real `git commit` and `git checkout`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import GIT_ENV, git, run_cli, run_git

# A manager's helper: the project's script is the one named as this hook, one folder up.
HELPER = """#!/usr/bin/env sh
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n
[ ! -f "$s" ] && exit 0
sh -e "$s" "$@"
c=$?
[ $c != 0 ] && echo "manager - $n script failed (code $c)"
exit $c
"""
STUB = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n'


def write_hook(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def commit_file(repo: Path, name: str, message: str) -> subprocess.CompletedProcess[str]:
    (repo / name).write_text(name + "\n", encoding="utf-8")
    git(repo, "add", name)
    return run_git(repo, "commit", "-m", message)


def commit_within(repo: Path, message: str, seconds: int) -> subprocess.CompletedProcess[str]:
    """A commit of a.txt that fails the test, not hangs it, if the hooks never end."""
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    return subprocess.run(
        ["git", "commit", "-m", message],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )


def test_a_managers_stubs_in_core_hooks_path_still_run_the_projects_scripts(repo: Path) -> None:
    managed = repo / ".manager"
    write_hook(managed / "_" / "h", HELPER)
    for name in ("pre-commit", "post-checkout"):
        write_hook(managed / "_" / name, STUB)
    # The stubs are made on the machine, not committed: the manager keeps them out.
    (managed / "_" / ".gitignore").write_text("*\n", encoding="utf-8")
    write_hook(managed / "pre-commit", 'echo "team check ran"\n[ -e block-me ] && exit 3\nexit 0\n')
    write_hook(managed / "post-checkout", 'echo "team checkout ran with flag $3"\n')
    git(repo, "config", "core.hooksPath", ".manager/_")
    done = run_cli("hook", "install", "--hooks", "pre-commit,post-checkout", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[:2]] == ["chained"] * 2
    git(repo, "add", ".manager")
    git(repo, "commit", "-q", "--no-verify", "-m", "the manager's scripts")

    passed = commit_file(repo, "a.txt", "passes")
    assert passed.returncode == 0, passed.stdout
    assert "team check ran" in passed.stdout
    blocked = commit_file(repo, "block-me", "blocked by the team's check")
    assert blocked.returncode != 0
    assert "team check ran" in blocked.stdout
    assert "pre-commit script failed (code 3)" in blocked.stdout
    switched = run_git(repo, "checkout", "-b", "side")
    assert "team checkout ran with flag 1" in switched.stdout

    # Synapse's own check still runs after the team's.
    git(repo, "reset", "-q", "--hard")
    assert run_cli("memory", "remember", "The notes are in a.txt", cwd=repo).returncode == 0
    git(repo, "rm", "-q", "a.txt")
    deleted = run_git(repo, "commit", "-m", "drop a")
    assert deleted.returncode != 0
    assert "team check ran" in deleted.stdout and "a.txt is deleted" in deleted.stdout


def test_stubs_the_manager_writes_again_are_chained_again(repo: Path) -> None:
    # A manager writes every stub again each time its package is installed: over
    # Synapse's scripts, the very hooks Synapse keeps chained.
    managed = repo / ".manager"
    write_hook(managed / "_" / "h", HELPER)
    write_hook(managed / "_" / "pre-commit", STUB)
    (managed / "_" / ".gitignore").write_text("*\n", encoding="utf-8")
    write_hook(managed / "pre-commit", 'echo "team check ran"\n')
    git(repo, "config", "core.hooksPath", ".manager/_")
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    write_hook(managed / "_" / "pre-commit", STUB)
    told = run_cli("status", cwd=repo).stdout
    assert "pre-commit overwritten" in told
    assert "run `synapse hook install` again" in told
    again = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split()[0] == "rechained"
    told = run_cli("status", cwd=repo).stdout
    assert "pre-commit synapse" in told and "again" not in told
    assert (managed / "_" / "pre-commit.synapse-chained").read_text(encoding="utf-8") == STUB
    assert "team check ran" in commit_file(repo, "a.txt", "add a").stdout
    assert run_cli("memory", "remember", "The notes are in a.txt", cwd=repo).returncode == 0
    git(repo, "rm", "-q", "a.txt")
    deleted = run_git(repo, "commit", "-m", "drop a")
    assert deleted.returncode != 0
    assert "team check ran" in deleted.stdout and "a.txt is deleted" in deleted.stdout
    # A different hook there still is not chained over the one kept.
    write_hook(managed / "_" / "pre-commit", "#!/bin/sh\necho another\n")
    refused = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert refused.returncode == 2 and "already exists" in refused.stderr
    assert (managed / "_" / "pre-commit.synapse-chained").read_text(encoding="utf-8") == STUB


def test_a_stub_in_the_hooks_folder_is_run_under_its_own_name(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    seen = repo.parent / "names-seen"
    write_hook(
        hooks / "pre-commit",
        f'#!/bin/sh\nhookName=`basename "$0"`\necho "$hookName" >> "{seen}"\n'
        '[ "$hookName" = pre-commit ] || exit 0\n[ -e block-me ] && exit 5\nexit 0\n',
    )
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    assert commit_file(repo, "a.txt", "passes").returncode == 0
    blocked = commit_file(repo, "block-me", "blocked by the manager")
    assert blocked.returncode != 0
    assert seen.read_text(encoding="utf-8").split() == ["pre-commit", "pre-commit"]


def test_a_script_that_runs_itself_again_ends(repo: Path) -> None:
    # A hook that runs itself again under another shell, by "$0": under the hook's
    # path that is Synapse's script, which must not read it the same way again.
    hooks = repo / ".git" / "hooks"
    seen = repo.parent / "runs"
    write_hook(
        hooks / "pre-commit",
        f'#!/bin/sh\n[ -n "${{BASH_VERSION-}}" ] || exec bash "$0" "$@"\necho ran >> "{seen}"\n',
    )
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    done = commit_within(repo, "once", 60)
    assert done.returncode == 0, done.stderr
    assert seen.read_text(encoding="utf-8").split() == ["ran"]


def test_a_hook_of_another_language_still_runs_directly(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    write_hook(
        hooks / "pre-commit",
        "#!/usr/bin/env python3\nimport os, sys\n"
        "print('python hook as', os.path.basename(sys.argv[0]))\n"
        "sys.exit(7 if os.path.exists('block-me') else 0)\n",
    )
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    passed = commit_file(repo, "a.txt", "passes")
    assert passed.returncode == 0 and "python hook as pre-commit.synapse-chained" in passed.stdout
    assert commit_file(repo, "block-me", "blocked").returncode != 0


def test_a_hook_script_the_repository_holds_is_never_chained(repo: Path) -> None:
    # A team's hooks folder committed in the repository (core.hooksPath inside the
    # work tree): chaining its pre-commit would rename a file every clone shares.
    team = repo / "team-hooks"
    mine = '#!/bin/sh\necho "team check ran"\n'
    write_hook(team / "pre-commit", mine)
    git(repo, "add", "team-hooks")
    git(repo, "commit", "-q", "-m", "the team's hooks")
    git(repo, "config", "core.hooksPath", "team-hooks")
    refused = run_cli("hook", "install", cwd=repo)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1
    assert "team-hooks/pre-commit is a file of this repository" in refused.stderr
    assert "add `synapse-drift-hook` to it instead" in refused.stderr
    assert "--hooks pre-merge-commit,post-checkout,post-merge,post-rewrite" in refused.stderr
    assert sorted(path.name for path in team.iterdir()) == ["pre-commit"]
    assert (team / "pre-commit").read_text(encoding="utf-8") == mine
    assert git(repo, "status", "--porcelain") == ""

    # An untracked hook there is the machine's own: chained as anywhere else.
    write_hook(team / "post-merge", "#!/bin/sh\nexit 0\n")
    others = "pre-merge-commit,post-checkout,post-merge,post-rewrite"
    done = run_cli("hook", "install", "--hooks", others, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "chained" in done.stdout and (team / "post-merge.synapse-chained").is_file()
    assert (team / "pre-commit").read_text(encoding="utf-8") == mine


def test_a_linked_hook_still_finds_its_own_files(repo: Path) -> None:
    # A hook kept in the repository and linked into the hooks folder, finding the
    # file beside it by where its link leads: it runs as itself, as before.
    scripts = repo / "scripts"
    write_hook(scripts / "common.sh", 'echo "helper beside the linked hook"\n')
    write_hook(
        scripts / "pre-commit",
        '#!/bin/sh\n. "$(dirname "$(readlink -f "$0")")/common.sh"\n'
        "[ -e block-me ] && exit 6\nexit 0\n",
    )
    (repo / ".git" / "hooks" / "pre-commit").symlink_to(scripts / "pre-commit")
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    assert (repo / ".git" / "hooks" / "pre-commit.synapse-chained").is_symlink()
    passed = commit_file(repo, "a.txt", "passes")
    assert passed.returncode == 0 and "helper beside the linked hook" in passed.stdout
    assert commit_file(repo, "block-me", "blocked").returncode != 0


def test_synapses_script_the_pre_commit_framework_moved_aside_still_counts(repo: Path) -> None:
    # The framework's `install` moves the hook it finds to NAME.legacy and runs it
    # first: Synapse's script there still checks every commit.
    hooks = repo / ".git" / "hooks"
    write_hook(hooks / "pre-commit", "#!/bin/sh\necho mine\n")
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: nothing\n    name: nothing\n"
        '    entry: "true"\n    language: system\n',
        encoding="utf-8",
    )
    framework = str(Path(sys.executable).with_name("pre-commit"))
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home")}
    moved = subprocess.run(
        [framework, "install"], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert moved.returncode == 0, moved.stderr
    assert (hooks / "pre-commit.legacy").is_file()
    committed = commit_file(repo, "a.txt", "through the framework")
    assert committed.returncode == 0 and "mine" in committed.stdout
    told = run_cli("status", cwd=repo).stdout
    assert "pre-commit synapse" in told and "install` again" not in told
    # Written over by another hook altogether: someone else's, and no advice that
    # would be refused.
    (hooks / "pre-commit.legacy").unlink()
    told = run_cli("status", cwd=repo).stdout
    assert "pre-commit other" in told and "install` again" not in told


def test_a_hook_script_a_submodule_holds_is_never_chained(repo: Path, tmp_path: Path) -> None:
    # A team's shared hooks repository added as a submodule, named by core.hooksPath:
    # its hook is a file every clone shares too, only one repository down.
    shared = tmp_path / "shared"
    shared.mkdir()
    git(shared, "init", "-q", "-b", "main")
    mine = '#!/bin/sh\necho "shared check ran"\n'
    write_hook(shared / "hooks" / "pre-commit", mine)
    git(shared, "add", "hooks")
    git(shared, "commit", "-q", "-m", "the shared hooks")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(shared), "tools")
    git(repo, "commit", "-q", "-m", "the shared hooks as a submodule")
    git(repo, "config", "core.hooksPath", "tools/hooks")
    refused = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert refused.returncode == 2
    assert "tools/hooks/pre-commit is a file of this repository" in refused.stderr
    assert sorted(path.name for path in (repo / "tools" / "hooks").iterdir()) == ["pre-commit"]
    assert (repo / "tools" / "hooks" / "pre-commit").read_text(encoding="utf-8") == mine
    assert git(repo, "status", "--porcelain") == ""


def test_a_script_that_runs_itself_again_leaves_synapses_part_to_run_once(repo: Path) -> None:
    # Run again by "$0" under bash, the chained script reaches Synapse's script, which
    # must run the chained script and nothing more: its own part runs in the first.
    write_hook(
        repo / ".git" / "hooks" / "post-checkout",
        '#!/bin/sh\n[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"\necho "chained ran"\n',
    )
    assert run_cli("hook", "install", "--hooks", "post-checkout", cwd=repo).returncode == 0
    assert run_cli("memory", "remember", "The notes are in README.md", cwd=repo).returncode == 0
    switched = run_git(repo, "checkout", "-b", "side")
    assert switched.returncode == 0, switched.stdout
    assert switched.stdout.count("chained ran") == 1
    assert switched.stdout.count("for this checkout at") == 1, switched.stdout


def test_a_chained_hook_that_is_a_fifo_is_never_read(repo: Path) -> None:
    # Executable but no file: reading its first line would wait for a writer for
    # ever, and git with it; run as itself, it fails at once, as before.
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    chained = repo / ".git" / "hooks" / "pre-commit.synapse-chained"
    os.mkfifo(chained)
    chained.chmod(0o755)
    done = commit_within(repo, "not held", 30)
    assert done.returncode != 0


def test_pre_commit_installed_again_over_synapses_script_still_lets_commits_through(
    repo: Path, tmp_path: Path
) -> None:
    # The pre-commit framework installed again sets Synapse's script aside as
    # pre-commit.legacy and runs it from its own hook: the hook Synapse chained is that
    # very hook, which ran it. Run again, the framework stopped every commit.
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: say\n    name: say\n"
        "    entry: echo framework-check-ran\n    language: system\n"
        "    pass_filenames: false\n    always_run: true\n    verbose: true\n",
        encoding="utf-8",
    )
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "the framework's config")
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    pre_commit = str(Path(sys.executable).with_name("pre-commit"))
    installed = subprocess.run(
        [pre_commit, "install"], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stderr
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    installed = subprocess.run(
        [pre_commit, "install"], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stderr
    assert (repo / ".git" / "hooks" / "pre-commit.legacy").is_file()
    for name in ("a.txt", "b.txt"):
        done = commit_file(repo, name, "passes")
        assert done.returncode == 0, done.stdout
        assert done.stdout.count("framework-check-ran") == 1, done.stdout
    # As `synapse status` says to: Synapse's script chained again over the framework's.
    again = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert again.returncode == 0 and again.stdout.split()[0] == "rechained", again.stdout
    done = commit_file(repo, "c.txt", "passes")
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("framework-check-ran") == 1, done.stdout
    assert run_cli("memory", "remember", "The notes are in a.txt", cwd=repo).returncode == 0
    git(repo, "rm", "-q", "a.txt")
    blocked = run_git(repo, "commit", "-m", "drop a")
    assert blocked.returncode != 0 and "a.txt is deleted" in blocked.stdout
    assert "framework-check-ran" in blocked.stdout


def test_a_hook_script_another_worktree_holds_is_never_chained(repo: Path, tmp_path: Path) -> None:
    # core.hooksPath set to the absolute path of the team's committed folder in the main
    # worktree, install run in a linked worktree: the hook is still a file of the
    # repository, the main worktree's.
    team = repo / "team-hooks"
    mine = '#!/bin/sh\necho "team check ran"\n'
    write_hook(team / "pre-commit", mine)
    git(repo, "add", "team-hooks")
    git(repo, "commit", "-q", "-m", "the team's hooks")
    git(repo, "config", "core.hooksPath", str(team))
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    refused = run_cli("hook", "install", "--hooks", "pre-commit", cwd=linked)
    assert refused.returncode == 2
    assert "team-hooks/pre-commit is a file of this repository" in refused.stderr
    assert sorted(path.name for path in team.iterdir()) == ["pre-commit"]
    assert git(repo, "status", "--porcelain") == ""


def test_a_hook_the_repository_holds_as_a_link_is_never_chained(repo: Path) -> None:
    # The team's hooks folder holds its pre-commit as a committed link to a script
    # elsewhere in the repository: the link is the file every clone shares.
    write_hook(repo / "scripts" / "check.sh", '#!/bin/sh\necho "team check ran"\n')
    team = repo / "team-hooks"
    team.mkdir()
    (team / "pre-commit").symlink_to(Path("..") / "scripts" / "check.sh")
    git(repo, "add", "scripts", "team-hooks")
    git(repo, "commit", "-q", "-m", "the team's hooks")
    git(repo, "config", "core.hooksPath", "team-hooks")
    refused = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert refused.returncode == 2
    assert "team-hooks/pre-commit is a file of this repository" in refused.stderr
    assert (team / "pre-commit").is_symlink()
    assert git(repo, "status", "--porcelain") == ""


def test_a_link_made_again_over_synapses_script_is_chained_again(repo: Path) -> None:
    # A set-up script that links the team's hook into the hooks folder (`ln -sf`),
    # run again, puts back the very link Synapse keeps chained.
    write_hook(repo / "scripts" / "pre-commit", '#!/bin/sh\necho "linked check ran"\n')
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.symlink_to(repo / "scripts" / "pre-commit")
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    hook.unlink()
    hook.symlink_to(repo / "scripts" / "pre-commit")
    again = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split()[0] == "rechained"
    assert hook.parent.joinpath("pre-commit.synapse-chained").is_symlink()
    assert "linked check ran" in commit_file(repo, "a.txt", "add a").stdout
    # A link leading elsewhere is another hook: refused, as before.
    hook.unlink()
    hook.symlink_to(repo / "README.md")
    refused = run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo)
    assert refused.returncode == 2 and "already exists" in refused.stderr
