"""Session start and the post-checkout refresh, through the installed command and real git."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git

from synapse_git.service import Synapse
from synapse_git.session import rendering, snapshots
from synapse_git.settings import BUDGETS

LIMIT = 8 * 1024


def import_memories(repo: Path, bodies: list[str], *, project: bool = True) -> None:
    # Seeding only, in-process through the service: the hook run after it is the real process.
    lines = [
        json.dumps({"body": body, "source": "", "project": str(repo) if project else None})
        for body in bodies
    ]
    assert Synapse().import_lines(lines).imported == len(bodies)


def test_session_never_exceeds_8_kib_in_either_format(repo: Path) -> None:
    big = [f'Fact {i}: « tabs\tand "quotes" » ' + "détail " * 500 for i in range(40)]
    import_memories(repo, big)
    import_memories(repo, ["Prefer ripgrep over grep"], project=False)
    for budget in ("lean", "balanced", "full"):
        text = run_cli("hook", "session", "--budget", budget, cwd=repo)
        assert text.returncode == 0, text.stderr
        assert len(text.stdout.encode("utf-8")) <= min(LIMIT, BUDGETS[budget].response_chars)
        assert "readmemory" in text.stdout
        # lean and balanced show 480 and 1,200 bytes of a body; full shows these whole.
        assert ("abridged" in text.stdout) == (budget != "full")
        assert "Not shown for space" in text.stdout
        claude = run_cli("hook", "session", "--budget", budget, "--format", "claude", cwd=repo)
        assert len(claude.stdout.encode("utf-8")) <= LIMIT
        data = json.loads(claude.stdout)
        assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
        assert "readmemory" in data["hookSpecificOutput"]["additionalContext"]


def test_project_memories_come_before_global_ones(repo: Path) -> None:
    import_memories(repo, ["Prefer ripgrep over grep"], project=False)
    import_memories(repo, ["Deploys go out from main"])
    out = run_cli("hook", "session", cwd=repo).stdout
    assert out.index("Deploys go out from main") < out.index("Prefer ripgrep over grep")
    assert out.index("Project memories:") < out.index("Global memories:")


def test_snapshot_is_read_when_current_and_recomputed_when_not(
    repo: Path, isolated_store: Path
) -> None:
    import_memories(repo, ["Deploys go out from main"])
    assert "Deploys go out from main" in run_cli("hook", "session", cwd=repo).stdout
    path = snapshots.snapshot_path(isolated_store, str(repo.resolve()))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entries"][0]["text"] = "READ FROM THE SNAPSHOT"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "READ FROM THE SNAPSHOT" in run_cli("hook", "session", cwd=repo).stdout
    # A new memory changes the store version: the snapshot is recomputed.
    import_memories(repo, ["Tests run with pytest -q"])
    out = run_cli("hook", "session", cwd=repo).stdout
    assert "READ FROM THE SNAPSHOT" not in out and "Tests run with pytest -q" in out
    # A new commit changes HEAD: recomputed again.
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entries"][0]["text"] = "STALE SNAPSHOT"
    path.write_text(json.dumps(data), encoding="utf-8")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-q", "-m", "b")
    assert "STALE SNAPSHOT" not in run_cli("hook", "session", cwd=repo).stdout


def test_current_snapshot_path_loads_neither_typer_nor_pygit2(repo: Path) -> None:
    import_memories(repo, ["Deploys go out from main"])
    run_cli("hook", "session", cwd=repo)
    code = (
        "import sys; from synapse_git.cli.entry import main; code = main(['hook', 'session']);"
        "print('LOADED', [m for m in ('typer', 'click', 'pygit2', 'mcp', 'pydantic',"
        " 'synapse_git.service.facade') if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    assert "Deploys go out from main" in done.stdout
    assert "LOADED []" in done.stdout


def test_session_without_a_store_creates_nothing(repo: Path, isolated_store: Path) -> None:
    done = run_cli("hook", "session", "--format", "claude", cwd=repo)
    assert done.returncode == 0
    assert "No memories" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert list(isolated_store.iterdir()) == []


def test_session_outside_git_shows_global_memory(outside: Path) -> None:
    svc = Synapse()
    svc.remember("Prefer ripgrep over grep", svc.scope(outside), is_global=True)
    done = run_cli("hook", "session", cwd=outside)
    assert "no project (global only)" in done.stdout
    assert "Prefer ripgrep over grep" in done.stdout


def test_bad_budget_is_bad_input(repo: Path) -> None:
    done = run_cli("hook", "session", "--budget", "huge", cwd=repo)
    assert done.returncode == 2 and "unknown budget" in done.stderr


def test_the_typer_command_checks_budget_and_format_as_the_fast_path(
    repo: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """One check of both, in one order, with the formats session start serves."""
    from synapse_git.cli.app import main as full_cli
    from synapse_git.service import session_start

    for args in (["--budget", "huge", "--format", "nope"], ["--format", "nope"]):
        fast = run_cli("hook", "session", *args, "-C", str(repo))
        capfd.readouterr()
        code = full_cli(["hook", "session", *args, "-C", str(repo)])
        assert (code, capfd.readouterr().err) == (fast.returncode, fast.stderr), args
    assert fast.returncode == 2 and all(name in fast.stderr for name in session_start.FORMATS)


def test_left_out_memories_are_named_with_the_reason() -> None:
    rows = [snapshots.Row(i, f"memory {i}", "/p", f"2024-01-0{i}", 0) for i in range(1, 7)]
    findings = [
        {"kind": "stale", "ids": [1], "paths": ["src/gone.py"]},
        {"kind": "conflict", "ids": [2, 3], "newer": 3, "older": 2},
        {"kind": "duplicate", "ids": [4, 5], "newer": 5, "older": 4},
        {"kind": "unverified", "ids": [6], "paths": ["src/todo.py"]},
    ]
    snap = snapshots.build(
        checkout="/p",
        project="/p",
        head="abc",
        store_version="1:6:0",
        rows=rows,
        findings=findings,
    )
    # The older half of a conflict is told right after the newer one, marked.
    assert [e.id for e in snap.entries] == [6, 5, 3, 2]
    text = rendering.render_text(snap, BUDGETS["balanced"])
    assert "1 stale (a path they name is gone: 1)" in text and "4 (same as 5)" in text
    assert "- [3] memory 3\n- [2] (older; [3] contradicts it) memory 2" in text
    assert "Contradicted: 1 older memory is told with the newer one" in text
    assert "Left out: 1 stale" in text and "2 (contradicted" not in text


def test_post_checkout_refreshes_on_a_branch_switch_only(repo: Path, isolated_store: Path) -> None:
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    import_memories(repo, ["The readme is README.md"])
    switched = run_git(repo, "checkout", "-b", "side")
    assert switched.returncode == 0
    assert "synapse: checked 1 memory for this checkout" in switched.stdout
    path = snapshots.snapshot_path(isolated_store, str(repo.resolve()))
    assert path.is_file()
    path.unlink()
    (repo / "README.md").write_text("changed\n")
    files = run_git(repo, "checkout", "--", "README.md")
    assert files.returncode == 0 and "synapse" not in files.stdout
    assert not path.exists()


def test_post_checkout_from_a_linked_worktree(tmp_path: Path, isolated_store: Path) -> None:
    main = make_repo(tmp_path / "main", {"a.txt": "a\n"})
    assert run_cli("hook", "install", cwd=main).returncode == 0
    import_memories(main, ["The notes are in a.txt"])
    linked = tmp_path / "linked"
    done = run_git(main, "worktree", "add", "-b", "work", str(linked))
    assert done.returncode == 0, done.stdout
    assert "synapse: checked 1 memory" in done.stdout
    assert snapshots.snapshot_path(isolated_store, str(linked.resolve())).is_file()
    out = run_cli("hook", "session", cwd=linked).stdout
    assert "The notes are in a.txt" in out and f"project {main.resolve()}" in out


def test_branch_switch_reports_what_became_stale_and_what_is_fine_again(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "drifting", {"scripts/deploy.sh": "x\n", "app.py": "a\n"})
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    import_memories(repo, ["Deploys go out with scripts/deploy.sh"])
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "rm", "-q", "scripts/deploy.sh")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop deploy")
    git(repo, "checkout", "-q", "main")
    to_side = run_git(repo, "checkout", "side")
    assert "became stale (1):" in to_side.stdout
    assert "Deploys go out with scripts/deploy.sh — gone: scripts/deploy.sh" in to_side.stdout
    out = run_cli("hook", "session", cwd=repo).stdout
    assert "Left out: 1 stale" in out and "- [1]" not in out
    back = run_git(repo, "checkout", "main")
    assert "fine again (1):" in back.stdout
    assert "- [1] Deploys go out" in run_cli("hook", "session", cwd=repo).stdout


def test_session_tells_both_halves_of_a_conflict_the_older_marked(repo: Path) -> None:
    # A conflict is a reading of two texts and may be wrong: nothing is hidden by it.
    import_memories(repo, ["The API timeout is 30 s"])
    import_memories(repo, ["The API timeout is 60 s"])
    out = run_cli("hook", "session", cwd=repo).stdout
    assert "- [2] The API timeout is 60 s\n- [1] (older; [2] contradicts it) The API" in out
    assert "Left out" not in out and "Contradicted: 1 older memory" in out


def test_session_leaves_out_the_older_copy_of_a_duplicate(repo: Path) -> None:
    # The same text kept globally and in the project: telling it once loses nothing.
    import_memories(repo, ["Deploys go out from main"], project=False)
    import_memories(repo, ["deploys go out  from main"])
    out = run_cli("hook", "session", cwd=repo).stdout
    assert out.count("go out") == 1 and "- [2] deploys go out" in out
    assert "Left out: 1 duplicate: 1 (same as 2)" in out


def test_a_conflict_chain_and_a_cycle_keep_every_memory() -> None:
    rows = [snapshots.Row(i, f"memory {i}", "/p", f"2024-01-0{i}", 0) for i in range(1, 5)]
    findings = [
        {"kind": "conflict", "ids": [3, 2], "newer": 3, "older": 2},
        {"kind": "conflict", "ids": [2, 1], "newer": 2, "older": 1},
        {"kind": "conflict", "ids": [4, 1], "newer": 4, "older": 1},
    ]
    snap = snapshots.build(
        checkout="/p", project="/p", head="h", store_version="v", rows=rows, findings=findings
    )
    assert sorted(e.id for e in snap.entries) == [1, 2, 3, 4]
    ids = [e.id for e in snap.entries]
    assert ids.index(3) < ids.index(2) < ids.index(1) or ids.index(4) < ids.index(1)
    # Findings naming each other both ways (never made by drift) still lose nothing.
    both = [
        {"kind": "conflict", "ids": [1, 2], "newer": 1, "older": 2},
        {"kind": "conflict", "ids": [2, 1], "newer": 2, "older": 1},
    ]
    loop = snapshots.build(
        checkout="/p", project="/p", head="h", store_version="v", rows=rows[:2], findings=both
    )
    assert sorted(e.id for e in loop.entries) == [1, 2]


def test_hook_and_scope_agree_on_the_project(tmp_path: Path) -> None:
    from synapse_git.git import git_command, project_scope

    main = make_repo(tmp_path / "dépôt avec espaces", {"a.txt": "a\n"})
    linked = tmp_path / "linked tree"
    git(main, "worktree", "add", "-q", "-b", "w", str(linked))
    (main / "sub").mkdir()
    for folder in (main, main / "sub", linked):
        found = git_command.locate(folder)
        assert found is not None
        resolved = project_scope.resolve(folder)
        assert found.project == resolved.project
        assert str(found.toplevel) == str(resolved.checkout)
        assert found.head == project_scope.head(resolved).commit


def test_the_agent_session_script_exits_0_on_a_bad_budget(repo: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "hooks" / "agents" / "session-start.sh"
    bindir = str(Path(sys.executable).parent)
    done = subprocess.run(
        ["sh", str(script), str(repo)],
        capture_output=True,
        text=True,
        env={
            "PATH": f"{bindir}:/usr/bin:/bin",
            "SYNAPSE_DATA": os.environ["SYNAPSE_DATA"],
            "SYNAPSE_SESSION_BUDGET": "huge",
        },
        check=False,
    )
    assert done.returncode == 0
    assert "unknown budget 'huge'" in done.stderr


def test_reading_a_memory_moves_it_up_the_session_list(repo: Path) -> None:
    svc = Synapse()
    scope = svc.scope(repo)
    first, second, third = (svc.remember(body, scope).id for body in ("alpha", "beta", "gamma"))
    assert [e.id for e in svc.session_snapshot(scope).entries] == [third, second, first]
    done = run_cli("memory", "read", str(first), cwd=repo)
    assert done.returncode == 0 and done.stdout.startswith("alpha")
    # A later page of the same read is not another read.
    assert run_cli("memory", "read", str(first), "--offset", "2", cwd=repo).returncode == 0
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        counts = dict(conn.execute("SELECT id, recalled FROM memories"))
    assert counts == {first: 1, second: 0, third: 0}
    assert [e.id for e in svc.session_snapshot(scope).entries] == [third, first, second]


def test_many_conflicts_leave_room_for_the_memories() -> None:
    rows = [snapshots.Row(i, f"memory {i}", "/p", f"2024-01-01 {i:05d}", 0) for i in range(1, 401)]
    findings = [
        {"kind": "conflict", "ids": [i + 1, i], "newer": i + 1, "older": i}
        for i in range(1, 400, 2)
    ]
    snap = snapshots.build(
        checkout="/p", project="/p", head="h", store_version="v", rows=rows, findings=findings
    )
    text = rendering.render_text(snap, BUDGETS["balanced"])
    assert "Contradicted: 200 older memories" in text and "and 188 more" in text
    assert text.count("(older; [") >= 100 and len(text.encode("utf-8")) <= LIMIT
