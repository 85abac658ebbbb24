"""Branch-aware visibility with real git: a memory written on a feature branch is
labelled on main and left out of its session start, ordinary once merged (by a
merge, a squash merge or a rebase), and reported by drift once no branch
reaches it (docs/branches.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import GIT_ENV, git, make_repo, run_cli

from synapse_git.git import branch_cache, branches


def remember(repo: Path, body: str, *extra: str) -> int:
    done = run_cli("memory", "remember", body, "--json", *extra, cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)


def drift(repo: Path) -> tuple[int, list[dict[str, object]]]:
    done = run_cli("memory", "drift", "--json", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def kinds_of(findings: list[dict[str, object]], memory_id: int) -> list[object]:
    return [f["kind"] for f in findings if memory_id in f["ids"]]  # type: ignore[operator]


def session(repo: Path) -> str:
    done = run_cli("hook", "session", cwd=repo)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def feature(tmp_path: Path) -> tuple[Path, int, int]:
    """main with src/app.py; branch `feature` adds src/search.py and a memory about it,
    and a memory naming only a file it did not change; back on main."""
    repo = make_repo(tmp_path / "shop", {"src/app.py": "print('app')\n"})
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "search.py").write_text("def search(): ...\n", encoding="utf-8")
    commit_all(repo, "search")
    labelled = remember(repo, "Search lives in src/search.py and caches by query")
    plain = remember(repo, "The entry point is src/app.py")
    git(repo, "checkout", "-q", "main")
    return repo, labelled, plain


def test_a_feature_branch_memory_is_labelled_on_main_and_left_out_of_its_session(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, plain = feature
    code, found = drift(repo)
    assert kinds_of(found, labelled) == ["unmerged"]
    unmerged = next(f for f in found if f["kind"] == "unmerged")
    assert unmerged["branch"] == "feature"
    assert unmerged["paths"] == ["src/search.py"]
    assert code == 0  # a label, not something to settle: never blocking
    # A memory from the branch naming only what the branch left alone is ordinary.
    assert kinds_of(found, plain) == []

    text = run_cli("memory", "recall", "search caches", cwd=repo).stdout
    assert f"{labelled:>6}" in text
    assert "(from branch feature, not merged here)" in text
    listed = run_cli("memory", "list", cwd=repo).stdout
    assert "(from branch feature, not merged here)" in listed
    as_json = json.loads(run_cli("memory", "list", "--json", cwd=repo).stdout)
    marked = {m["id"]: m.get("elsewhere") for m in as_json["memories"]}
    assert marked[labelled] == {"branch": "feature"}
    assert marked[plain] is None

    told = session(repo)
    assert "caches by query" not in told
    assert "The entry point is src/app.py" in told
    assert f"{labelled} (feature)" in told  # the footer says why it was left out

    # On the branch itself it is an ordinary memory.
    git(repo, "checkout", "-q", "feature")
    assert kinds_of(drift(repo)[1], labelled) == []
    assert "caches by query" in session(repo)


def test_after_git_merge_it_is_ordinary(feature: tuple[Path, int, int]) -> None:
    repo, labelled, _ = feature
    assert kinds_of(drift(repo)[1], labelled) == ["unmerged"]
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    assert kinds_of(drift(repo)[1], labelled) == []
    assert "caches by query" in session(repo)
    recalled = run_cli("memory", "recall", "search caches", cwd=repo).stdout
    assert "not merged here" not in recalled


def test_a_branch_deleted_unmerged_leaves_it_orphaned_with_a_settle_command(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, _ = feature
    git(repo, "branch", "-q", "-D", "feature")
    code, found = drift(repo)
    assert kinds_of(found, labelled) == ["orphaned"]
    orphaned = next(f for f in found if f["kind"] == "orphaned")
    assert orphaned["suggest"] == f"synapse memory forget {labelled}"
    assert orphaned["branch"] is None
    assert code == 1  # it asks for a decision
    # Not stale as well: the label explains the missing file.
    assert "stale" not in kinds_of(found, labelled)
    assert "caches by query" not in session(repo)
    # Settled as the suggestion says.
    assert run_cli("memory", "forget", str(labelled), cwd=repo).returncode == 0
    assert drift(repo)[0] == 0


def test_squash_merge_makes_it_ordinary_even_after_the_branch_is_deleted(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, _ = feature
    git(repo, "merge", "-q", "--squash", "feature")
    git(repo, "commit", "-q", "--no-verify", "-m", "search (squashed)")
    assert kinds_of(drift(repo)[1], labelled) == []
    git(repo, "branch", "-q", "-D", "feature")
    assert kinds_of(drift(repo)[1], labelled) == []
    # A later edit on main does not undo the landing.
    (repo / "src" / "search.py").write_text("def search(q): ...\n", encoding="utf-8")
    commit_all(repo, "search takes a query")
    assert kinds_of(drift(repo)[1], labelled) == []
    assert "caches by query" in session(repo)


def test_a_rebased_branch_keeps_it_on_that_branch_and_a_fast_forward_makes_it_ordinary(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, _ = feature
    (repo / "README.md").write_text("main moved on\n", encoding="utf-8")
    commit_all(repo, "main moves")
    git(repo, "checkout", "-q", "feature")
    git(repo, "rebase", "-q", "main")
    git(repo, "checkout", "-q", "main")
    # The anchor is now reached by no branch, but its change lives on the rebased one.
    _, found = drift(repo)
    assert kinds_of(found, labelled) == ["unmerged"]
    assert next(f for f in found if f["kind"] == "unmerged")["branch"] == "feature"
    git(repo, "merge", "-q", "--ff-only", "feature")
    assert kinds_of(drift(repo)[1], labelled) == []


def test_everywhere_memories_are_never_labelled_or_hidden(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop", {"src/app.py": "print('app')\n"})
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "app.py").write_text("print('app, logged')\n", encoding="utf-8")
    commit_all(repo, "log the app")
    kept = remember(repo, "Logging must stay out of src/app.py's hot path", "--everywhere")
    other = remember(repo, "src/app.py logs at start")
    git(repo, "checkout", "-q", "main")
    found = drift(repo)[1]
    assert kinds_of(found, kept) == []
    assert kinds_of(found, other) == ["unmerged"]
    told = session(repo)
    assert "Logging must stay out" in told
    assert "logs at start" not in told
    refused = run_cli("memory", "remember", "x", "--global", "--everywhere", cwd=repo)
    assert refused.returncode == 2
    assert "everywhere" in refused.stderr


def test_reachability_is_kept_per_head_in_the_data_folder(
    feature: tuple[Path, int, int], isolated_store: Path
) -> None:
    repo, labelled, _ = feature
    drift(repo)
    kept = list((isolated_store / "branches").glob("*.json"))
    assert len(kept) == 1
    assert not list(repo.rglob("*.json"))  # nothing written in the repository
    data = json.loads(kept[0].read_text(encoding="utf-8"))
    assert [s for s, *_ in data["keys"][0]["anchors"].values()] == ["branch"]
    # A moved branch tip (not HEAD) changes the key: deleting the branch is seen.
    head = git(repo, "rev-parse", "HEAD").strip()
    anchor = next(iter(data["keys"][0]["anchors"]))
    assert branch_cache.standings(isolated_store, repo.resolve(), head, {anchor})[anchor].state == (
        "branch"
    )
    git(repo, "branch", "-q", "-D", "feature")
    assert branch_cache.standings(isolated_store, repo.resolve(), head, {anchor})[anchor].state == (
        "gone"
    )
    del labelled


def test_an_anchor_gone_from_the_repository_is_checked_as_a_memory_without_one(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "shop", {"src/app.py": "print('app')\n"})
    head = git(repo, "rev-parse", "HEAD").strip()
    missing = "0123456789abcdef" * 2 + "01234567"
    found = branches.compute(repo, head, {missing})
    assert found[missing].state == branches.MISSING


def _commit_at(repo: Path, message: str, date: str) -> str:
    git(repo, "add", "-A")
    done = run_cli_env(repo, date, message)
    assert done.returncode == 0, done.stderr
    return git(repo, "rev-parse", "HEAD").strip()


def run_cli_env(repo: Path, date: str, message: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", message],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date},
        capture_output=True,
        text=True,
        check=False,
    )


def recalled_ids(repo: Path, *args: str) -> set[int]:
    done = run_cli("memory", "recall", "cache", "--json", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    return {int(hit["id"]) for hit in json.loads(done.stdout)["hits"]}


def test_recall_at_a_revision_answers_with_the_memories_visible_there(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop", {"src/app.py": "print('app')\n"}, commit=False)
    first = _commit_at(repo, "first", "2020-01-01T00:00:00Z")
    old = remember(repo, "The cache is warmed in src/app.py")
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "cache.py").write_text("CACHE = {}\n", encoding="utf-8")
    _commit_at(repo, "cache", "2020-02-01T00:00:00Z")
    branch = remember(repo, "The cache lives in src/cache.py")
    everywhere = remember(repo, "The cache is never shared between tests", "--everywhere")
    git(repo, "checkout", "-q", "main")
    (repo / "README.md").write_text("later\n", encoding="utf-8")
    # Committed after the memories were stored (they are stamped now).
    later = _commit_at(repo, "later", "2099-01-01T00:00:00Z")
    on_main = remember(repo, "The cache size is set in README.md")
    shared = remember(repo, "Every cache key is a string", "--global")

    assert recalled_ids(repo) == {old, branch, everywhere, on_main, shared}
    # At the first commit: only what was written there; the global one as always.
    assert recalled_ids(repo, "--at", first) == {old, shared}
    # At the feature branch: its own memories and those of its history, not main's
    # later one; `everywhere` counts by time, and was stored after that commit.
    assert recalled_ids(repo, "--at", "feature") == {old, branch, shared}
    # At main's later commit: the feature memory is not on this line; `everywhere`
    # counts by time (stored before that commit was made).
    assert recalled_ids(repo, "--at", later) == {old, everywhere, on_main, shared}
    assert recalled_ids(repo, "--at", "main~1") == {old, shared}
    # At the revision, no drift about today's checkout.
    done = run_cli("memory", "recall", "cache", "--json", "--at", first, cwd=repo)
    assert json.loads(done.stdout)["drift"] == []


@pytest.mark.parametrize("rev", ["nosuch", "--output=x", "main\nx", "", "a" * 300])
def test_recall_at_refuses_what_names_no_commit_in_one_line(tmp_path: Path, rev: str) -> None:
    repo = make_repo(tmp_path / "shop")
    remember(repo, "The cache is warmed at start")
    done = run_cli("memory", "recall", "cache", f"--at={rev}", cwd=repo)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--at" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (repo / "x").exists()


def test_an_amended_anchor_is_ordinary_and_its_paths_are_checked_as_usual(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop", {"src/app.py": "print('app')\n", "src/db.py": "DB = 1\n"})
    kept = remember(repo, "Connections are opened in src/db.py")
    gone = remember(repo, "The entry point is src/app.py")
    git(repo, "rm", "-q", "src/app.py")
    git(repo, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    found = drift(repo)[1]
    assert kinds_of(found, kept) == []
    # Amending away a file the memory named makes it stale, not another line's memory.
    assert kinds_of(found, gone) == ["stale"]


def test_the_refresh_after_a_switch_labels_without_pygit2(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, _ = feature
    git(repo, "checkout", "-q", "feature")
    assert "caches by query" in session(repo)  # the whole snapshot, made on the branch
    git(repo, "checkout", "-q", "main")
    # The snapshot is brought to main's HEAD incrementally: only memories naming a
    # path that differs are checked again, and the branch labels are recomputed.
    code = (
        "import sys; from synapse_git.cli.entry import main; code = main(['hook', 'session']);"
        "print('LOADED', [m for m in ('typer', 'click', 'pygit2', 'mcp') if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    assert "caches by query" not in done.stdout
    assert f"{labelled} (feature)" in done.stdout
    assert "LOADED []" in done.stdout, done.stdout


def test_the_prompt_hook_leaves_out_what_session_start_left_out(
    feature: tuple[Path, int, int],
) -> None:
    repo, labelled, _ = feature
    session(repo)  # the checkout's snapshot, as session start or a checkout hook writes it

    def prompt(text: str, session_id: str) -> str:
        event = {
            "session_id": session_id,
            "transcript_path": "/nonexistent/t.jsonl",
            "cwd": str(repo),
            "hook_event_name": "UserPromptSubmit",
            "prompt": text,
        }
        done = run_cli("hook", "prompt", stdin=json.dumps(event))
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "caches by query" not in prompt("how does search cache by query?", "s-1")
    git(repo, "checkout", "-q", "feature")
    session(repo)
    assert "caches by query" in prompt("how does search cache by query?", "s-2")
    del labelled


def test_a_teammates_branch_known_only_as_a_remote_branch_labels_its_memory(
    tmp_path: Path,
) -> None:
    upstream = make_repo(tmp_path / "upstream", {"src/app.py": "print('app')\n"})
    git(upstream, "checkout", "-q", "-b", "feature")
    (upstream / "src" / "search.py").write_text("def search(): ...\n", encoding="utf-8")
    commit_all(upstream, "search")
    anchor = git(upstream, "rev-parse", "HEAD").strip()
    git(upstream, "checkout", "-q", "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))
    line = {"body": "Search lives in src/search.py", "project": str(clone), "head_commit": anchor}
    imported = run_cli("memory", "import", "-", cwd=clone, stdin=json.dumps(line) + "\n")
    assert imported.returncode == 0, imported.stderr
    found = [f for f in drift(clone)[1] if f["kind"] == "unmerged"]
    assert [f["branch"] for f in found] == ["origin/feature"]
    # The remote's HEAD names main, and is never given as the branch.
    git(clone, "merge", "-q", "origin/feature")
    assert drift(clone)[1] == []
