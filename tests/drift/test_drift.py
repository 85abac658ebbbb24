"""Drift on real repositories: stale and unverified paths, conflicts, duplicates."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pygit2
from support import git, make_repo

from synapse_git.drift.staleness import CheckoutPaths
from synapse_git.git.project_scope import open_repository
from synapse_git.service import Synapse


def findings(svc: Synapse, folder: Path, *kinds: str) -> list[dict[str, Any]]:
    report = svc.drift(svc.scope(folder), list(kinds) or None)
    return [finding.as_json() for finding in report.findings]


def kinds_of(found: list[dict[str, Any]]) -> list[tuple[str, list[int]]]:
    return [(f["kind"], f["ids"]) for f in found]


def remember(svc: Synapse, folder: Path, body: str, **kwargs: Any) -> int:
    return svc.remember(body, svc.scope(folder), **kwargs).id


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


# -- stale and unverified ------------------------------------------------------------------


def test_a_deleted_file_makes_its_memory_stale(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/billing/invoice.py": "x = 1\n", "README.md": "r\n"})
    svc = Synapse()
    mid = remember(svc, repo, "Invoices are built in src/billing/invoice.py")
    assert findings(svc, repo) == []
    git(repo, "rm", "-q", "src/billing/invoice.py")
    commit_all(repo, "drop invoices")
    [found] = findings(svc, repo)
    assert found["kind"] == "stale" and found["ids"] == [mid]
    assert found["paths"] == ["src/billing/invoice.py"]
    assert "renamed" not in found
    assert found["suggest"] == f"synapse memory forget {mid}"


def test_a_path_git_never_saw_is_unverified_not_stale(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    mid = remember(svc, repo, "The API spec will live in docs/specs/api.md")
    assert kinds_of(findings(svc, repo)) == [("unverified", [mid])]
    assert findings(svc, repo, "stale") == []


def test_an_uncommitted_deletion_is_stale(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"run.sh": "echo\n"})
    svc = Synapse()
    mid = remember(svc, repo, "Start everything with ./run.sh")
    (repo / "run.sh").unlink()
    assert kinds_of(findings(svc, repo)) == [("stale", [mid])]


def test_a_committed_rename_names_the_new_path(tmp_path: Path) -> None:
    body = "".join(f"line {n}\n" for n in range(40))
    repo = make_repo(tmp_path / "r", {"src/app/db.py": body})
    svc = Synapse()
    mid = remember(svc, repo, "The pool is set up in `src/app/db.py`.")
    git(repo, "mv", "src/app/db.py", "src/app/database.py")
    commit_all(repo, "rename")
    [found] = findings(svc, repo)
    assert found["ids"] == [mid]
    assert found["renamed"] == {"src/app/db.py": "src/app/database.py"}
    assert "src/app/database.py" in found["detail"]


def test_renames_are_followed_across_commits(tmp_path: Path) -> None:
    body = "".join(f"setting {n}\n" for n in range(40))
    repo = make_repo(tmp_path / "r", {"conf/a.toml": body})
    svc = Synapse()
    remember(svc, repo, "Limits are in conf/a.toml")
    git(repo, "mv", "conf/a.toml", "conf/b.toml")
    commit_all(repo, "one")
    (repo / "settings").mkdir()
    git(repo, "mv", "conf/b.toml", "settings/c.toml")
    commit_all(repo, "two")
    [found] = findings(svc, repo)
    assert found["renamed"] == {"conf/a.toml": "settings/c.toml"}


def test_a_staged_rename_names_the_new_path(tmp_path: Path) -> None:
    body = "".join(f"step {n}\n" for n in range(40))
    repo = make_repo(tmp_path / "r", {"scripts/dev.sh": body})
    svc = Synapse()
    remember(svc, repo, "Run scripts/dev.sh for a dev server")
    git(repo, "mv", "scripts/dev.sh", "scripts/serve.sh")
    [found] = findings(svc, repo)
    assert found["renamed"] == {"scripts/dev.sh": "scripts/serve.sh"}


def test_a_moved_folder_is_named(tmp_path: Path) -> None:
    files = {f"docs/{name}.md": f"# {name}\n" + "text\n" * 30 for name in ("guide", "api")}
    repo = make_repo(tmp_path / "r", files)
    svc = Synapse()
    remember(svc, repo, "Guides live in docs/ next to the API notes")
    git(repo, "mv", "docs", "manual")
    commit_all(repo, "move docs")
    [found] = findings(svc, repo)
    assert found["paths"] == ["docs/"] and found["renamed"] == {"docs/": "manual"}


def test_ignored_files_and_build_output_are_never_missing(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "r", {".gitignore": "*.log\n/generated/\n", "web/.gitignore": "cache/\n"}
    )
    svc = Synapse()
    remember(svc, repo, "Errors go to server.log; the schema is generated/schema.py")
    remember(svc, repo, "Bundles land in dist/app.js and node_modules/.bin/vite")
    remember(svc, repo, "Thumbnails are kept in web/cache/thumbs/ for a day")
    remember(svc, repo, "pytest writes .pytest_cache/ and src/__pycache__/x.pyc")
    assert findings(svc, repo) == []


def test_paths_in_a_partial_form_count_as_present(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/app/settings.py": "", "src/app/models/user.py": ""})
    svc = Synapse()
    remember(svc, repo, "Edit settings.py, and app/models/user.py for accounts")
    assert findings(svc, repo) == []


def test_global_relative_paths_are_never_checked(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    remember(svc, repo, "Every project keeps its tasks in src/gone/tasks.py", is_global=True)
    assert findings(svc, repo) == []


def test_absolute_and_home_paths_outside_the_checkout_are_never_findings(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    # Not the suite's own folder: a clone may well live under a temp folder.
    here = Path(shutil.which("env") or "/usr/bin/env").resolve().parent
    bodies = [
        f"Scripts start with {here}/env",
        f"Old notes were in {here}/no-such-notes.txt",
        "The gateway serves /no-such-root-xyz/v1/users",
        "Scratch files go to /tmp/synapse-scratch/x.txt",
        "Alice keeps hers in /home/alice-elsewhere/notes.md",
        "The site is enabled in /etc/nginx/sites-enabled/app",
        "The repro lives in ~/src/repro/app.py",
    ]
    for body in bodies:
        remember(svc, repo, body, is_global=True)
        remember(svc, repo, body)  # a project memory too: it describes another machine
    assert findings(svc, repo, "stale", "unverified") == []


def test_an_absolute_path_inside_the_checkout_is_checked_through_git(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"tool.py": "", ".gitignore": "*.tmp\n"})
    svc = Synapse()
    mid = remember(svc, repo, f"Use {repo}/tool.py; scratch in {repo}/a.tmp")
    assert findings(svc, repo) == []
    git(repo, "rm", "-q", "tool.py")
    commit_all(repo, "drop tool")
    assert kinds_of(findings(svc, repo)) == [("stale", [mid])]


def test_a_linked_worktree_on_another_branch(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main", {"main_only.py": "a\n", "README.md": "r\n"})
    other = tmp_path / "feature"
    git(main, "worktree", "add", "-q", "-b", "feature", str(other))
    git(other, "rm", "-q", "main_only.py")
    (other / "feature_only.py").write_text("b\n")
    commit_all(other, "feature work")
    svc = Synapse()
    on_feature = remember(svc, other, "The new flow is in feature_only.py")
    on_main = remember(svc, main, "The old flow is in main_only.py")
    # One project, two checkouts. The feature memory names a file its branch added:
    # from main it is that branch's, not stale (docs/branches.md). The main memory was
    # written on the feature's own history: stale there, where its path is gone.
    assert svc.scope(main).project == svc.scope(other).project
    from_main = findings(svc, main)
    assert kinds_of(from_main) == [("unmerged", [on_feature])]
    assert "from branch feature, not merged here" in from_main[0]["detail"]
    assert kinds_of(findings(svc, other)) == [("stale", [on_main])]


def test_a_staged_tree_can_stand_for_the_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"keep.py": "", "cut.py": ""})
    git(repo, "rm", "-q", "--cached", "cut.py")  # still on disk, gone from the next commit
    svc = Synapse()
    scope = svc.scope(repo)
    pyrepo = open_repository(scope)
    staged = pyrepo[pyrepo.index.write_tree()].peel(pygit2.Tree)
    checkout = CheckoutPaths(scope, tree=staged)
    assert checkout.check("cut.py").status == "stale"
    assert checkout.check("keep.py").status == "present"
    assert CheckoutPaths(scope).check("cut.py").status == "present"


# -- conflicts and duplicates ------------------------------------------------------------


def test_conflicts_name_newer_and_older(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    old = remember(svc, repo, "The API server listens on port 8080.")
    remember(svc, repo, "The metrics exporter listens on port 9090.")
    new = remember(svc, repo, "The API server listens on port 8081.")
    [found] = findings(svc, repo)
    assert found["kind"] == "conflict"
    assert (found["newer"], found["older"]) == (new, old)
    assert found["suggest"] == f"synapse memory supersede {old} --by {new}"
    svc.supersede(old, new, svc.scope(repo))
    assert findings(svc, repo) == []


def test_duplicates_are_equal_normalized_bodies_only(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    first = remember(svc, repo, "Deploys  go out from MAIN with make deploy")
    second = remember(svc, repo, "deploys go out from main with make deploy", is_global=True)
    remember(svc, repo, "Deploys go out from main using make deploy")  # a paraphrase
    assert kinds_of(findings(svc, repo, "duplicate")) == [("duplicate", [first, second])]
    svc.forget(second, svc.scope(repo))
    assert findings(svc, repo, "duplicate") == []


def test_another_projects_memory_is_never_involved(tmp_path: Path) -> None:
    one = make_repo(tmp_path / "one")
    two = make_repo(tmp_path / "two")
    svc = Synapse()
    remember(svc, one, "The request timeout is 30 s.")
    remember(svc, two, "The request timeout is 60 s.")
    remember(svc, two, "Gone file: src/nothing_here.py")
    assert findings(svc, one) == []


def test_remember_reports_what_the_new_memory_contradicts_or_repeats(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    old = svc.remember("Feature flag fast_search is enabled in staging.", scope).id
    glob = svc.remember("Staging data resets every night.", scope, is_global=True).id
    result = svc.remember("Feature flag fast_search is disabled in staging.", scope)
    assert [(f["kind"], f["newer"], f["older"]) for f in result.drift] == [
        ("conflict", result.id, old)
    ]
    again = svc.remember("staging data resets every night.", scope)
    assert [(f["kind"], f["ids"]) for f in again.drift] == [("duplicate", [glob, again.id])]
    quiet = svc.remember("Search results are cached for a minute.", scope)
    assert quiet.drift == []


def test_drift_about_quotes_a_newer_contradicting_memory(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    old = svc.remember("The request timeout is 30 s.", scope).id
    tail = " Measured under load in the staging cluster, with notes." * 20
    new = svc.remember("The request timeout is 60 s." + tail, scope).id
    [found] = svc.drift_about(scope, [old])
    assert (found["newer"], found["older"]) == (new, old)
    quote = found["quote"]
    assert quote["id"] == new and quote["abridged"]
    assert quote["body"].startswith("The request timeout is 60 s.")
    assert len(quote["body"].encode()) <= 330
    # Asked about both, nothing needs quoting.
    [both] = svc.drift_about(scope, [old, new])
    assert "quote" not in both
