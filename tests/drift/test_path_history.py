"""The path history index and the staleness it answers (docs/drift.md, "The path
history"): real repositories written by `git fast-import` — ten thousand commits,
renames inside merged branches, a module split into a package, empty files, a file
renamed twice — checked through the real index file, real git and the real CLI."""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support import GIT_ENV, git, run_cli

from synapse_git.drift import path_history
from synapse_git.drift.path_history import PathHistory
from synapse_git.drift.staleness import CheckoutPaths
from synapse_git.git import project_scope

FILLER = 10_000


@dataclass
class History:
    """A fast-import stream: commits on branches, with merges, at fixed times."""

    lines: list[str] = field(default_factory=list)
    marks: int = 0
    when: int = 1_600_000_000
    tips: dict[str, int] = field(default_factory=dict)

    def commit(
        self,
        branch: str,
        changes: list[str],
        *,
        start: str | None = None,
        merge: str | None = None,
    ) -> int:
        """One commit on `branch` (forked from branch `start` when new); a change is
        `M path text`, `M path` (empty file) or `D path`."""
        self.marks += 1
        self.when += 60
        message = f"commit {self.marks}"
        self.lines += [
            f"commit refs/heads/{branch}",
            f"mark :{self.marks}",
            f"committer Synapse Test <test@example.com> {self.when} +0000",
            f"data {len(message)}",
            message,
        ]
        parent = self.tips.get(branch) or (self.tips.get(start) if start else None)
        if parent is not None:
            self.lines.append(f"from :{parent}")
        if merge is not None:
            self.lines.append(f"merge :{self.tips[merge]}")
        for change in changes:
            kind, _, rest = change.partition(" ")
            if kind == "D":
                self.lines.append(f"D {rest}")
                continue
            path, _, text = rest.partition(" ")
            data = (text + "\n").encode() if text else b""
            self.lines += [f"M 100644 inline {path}", f"data {len(data)}"]
            if data:
                self.lines.append(text)
        self.lines.append("")
        self.tips[branch] = self.marks
        return self.marks

    def write(self, repo: Path) -> None:
        if not (repo / ".git").exists():
            repo.mkdir(parents=True, exist_ok=True)
            git(repo, "init", "-q", "-b", "main")
        subprocess.run(
            [
                "git",
                "fast-import",
                "--quiet",
                "--force",
                "--import-marks-if-exists=.git/test-marks",
                "--export-marks=.git/test-marks",
            ],
            cwd=repo,
            input="\n".join(self.lines) + "\n",
            text=True,
            check=True,
            env={**os.environ, **GIT_ENV},
        )
        self.lines = []
        git(repo, "checkout", "-q", "-f", "main")


BODY = {name: " ".join(f"{name}-word-{n}" for n in range(40)) for name in "abcdefgh"}
ERRORS = " ".join(f"errors-word-{n}" for n in range(40))
DOCS = " ".join(f"docs-word-{n}" for n in range(40))


def commit_of(repo: Path, mark: int) -> str:
    found = git(repo, "log", "--all", "--format=%H %s").splitlines()
    return next(line.split()[0] for line in found if line.endswith(f"commit {mark}"))


def checkout(repo: Path) -> CheckoutPaths:
    return CheckoutPaths(project_scope.resolve(repo))


# -- ten thousand commits, a path deleted long ago ------------------------------------


@pytest.fixture(scope="module")
def long_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """(repository, the first commit, the commit that deleted docs/ancient.md)."""
    repo = tmp_path_factory.mktemp("long") / "repo"
    history = History()
    first = history.commit(
        "main", [f"M docs/ancient.md {BODY['a']}", f"M src/app/db.py {BODY['b']}", "M README x"]
    )
    for n in range(50):
        history.commit("main", [f"M lib/early.txt {n}"])
    gone = history.commit("main", ["D docs/ancient.md"])
    for n in range(FILLER):
        history.commit("main", [f"M lib/filler.txt {n}"])
    history.write(repo)
    yield repo, commit_of(repo, first), commit_of(repo, gone)


def test_a_path_deleted_ten_thousand_commits_ago_is_stale_and_dated(
    long_repo: tuple[Path, str, str],
) -> None:
    repo, first, gone = long_repo
    paths = checkout(repo)
    state = paths.check("docs/ancient.md", first)
    assert state.status == "stale" and state.seen == "memory commit"
    stamp = f"{gone[:10]} ({git(repo, 'show', '-s', '--format=%cs', gone).strip()})"
    assert state.deleted == stamp and state.renamed_to is None
    history = paths.history()
    assert history is not None and history.status() == (FILLER + 52, True)
    # Never in history: not stale, and said to be never seen.
    never = paths.check("docs/plan.md", first)
    assert (never.status, never.note) == ("unverified", None)


def test_drift_json_is_the_same_on_every_run(long_repo: tuple[Path, str, str]) -> None:
    repo, first, _ = long_repo
    line = json.dumps(
        {"body": "Release notes: docs/ancient.md", "project": str(repo), "head_commit": first}
    )
    imported = run_cli("memory", "import", "-", cwd=repo, stdin=line + "\n")
    assert imported.returncode == 0, imported.stderr
    runs = [run_cli("memory", "drift", "--json", cwd=repo) for _ in range(3)]
    assert all(done.returncode == 1 for done in runs), runs[0].stderr
    assert len({done.stdout for done in runs}) == 1
    [finding] = json.loads(runs[0].stdout)["findings"]
    assert finding["kind"] == "stale" and "docs/ancient.md was deleted in" in finding["detail"]


# -- renames, merges, packages, empty files ---------------------------------------------


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    repo = tmp_path_factory.mktemp("shapes") / "repo"
    h = History()
    marks: dict[str, int] = {}
    marks["start"] = h.commit(
        "main",
        [
            f"M lib/old.py {BODY['a']}",
            f"M src/pkg/exceptions.py {BODY['b']} {BODY['c']}",
            f"M src/pkg/errors.py {ERRORS}",
            f"M docs/api.rst {DOCS}",
            f"M docs/guide.rst {DOCS} guide",
            "M data/empty_one.txt",
            f"M one.py {BODY['d']}",
            f"M other.py {BODY['e']}",
            f"M pkg/MANIFEST.in {BODY['f']}",
            f"M keep/MANIFEST.in {BODY['g']}",
            f"M conf/setup.cfg {BODY['h']}",
        ],
    )
    # A rename on a branch, merged back: the merge's first-parent diff is a deletion.
    h.commit("side", [f"M lib/side.txt {BODY['h']}"], start="main")
    h.commit("side", ["D lib/old.py", f"M lib/new.py {BODY['a']} renamed"])
    h.commit("main", ["M README x"])
    # fast-import writes the merge's tree as given: the side branch's changes, as a merge has.
    side = ["M README y", f"M lib/side.txt {BODY['h']}", "D lib/old.py"]
    h.commit("main", [*side, f"M lib/new.py {BODY['a']} renamed"], merge="side")
    # A module split into a package: most of its text goes to another module.
    h.commit(
        "main",
        [
            "D src/pkg/exceptions.py",
            "M src/pkg/exceptions/__init__.py from .base import *",
            f"M src/pkg/exceptions/base.py {BODY['b']} {BODY['c']}",
        ],
    )
    # Documents rewritten in another format: api.rst as api.md; guide.rst has two.
    h.commit(
        "main",
        [
            "D docs/api.rst",
            "M docs/api.md # API, written anew",
            "D docs/guide.rst",
            "M docs/guide.md # Guide",
            "M docs/guide.txt Guide",
        ],
    )
    # A module rewritten as a package: none of its text is found anywhere.
    h.commit(
        "main",
        ["D src/pkg/errors.py", "M src/pkg/errors/__init__.py from ._impl import *"],
    )
    # Two empty files: one deleted, one added; never a rename.
    h.commit("main", ["D data/empty_one.txt", "M data/empty_two.txt"])
    # Renamed twice; then another file is given the first new name.
    h.commit("main", ["D one.py", f"M two.py {BODY['d']}"])
    h.commit("main", ["D two.py", f"M three.py {BODY['d']}"])
    h.commit("main", ["D other.py", f"M two.py {BODY['e']}"])
    # The MANIFEST.in a short name meant is deleted; another one stays.
    h.commit("main", ["D pkg/MANIFEST.in"])
    h.commit("main", ["D conf/setup.cfg", "M tools/setup.cfg [tool]"])
    marks["later"] = h.commit("main", ["M notes/later.md a passing note"])
    h.commit("main", ["D notes/later.md"])
    h.write(repo)
    return repo, marks


def test_a_rename_inside_a_merged_branch_is_followed(shapes: tuple[Path, dict[str, int]]) -> None:
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    state = checkout(repo).check("lib/old.py", start)
    assert (state.status, state.renamed_to) == ("stale", "lib/new.py")


def test_a_module_split_into_a_package_follows_its_text(
    shapes: tuple[Path, dict[str, int]],
) -> None:
    """Where the module's text went is its lineage (as `git log --follow` says)."""
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    state = checkout(repo).check("src/pkg/exceptions.py", start)
    assert state.renamed_to == "src/pkg/exceptions/base.py"
    # The short form a memory used follows the same file.
    assert checkout(repo).check("exceptions.py", start).renamed_to == "src/pkg/exceptions/base.py"


def test_a_module_rewritten_as_a_package_is_renamed_to_the_package(
    shapes: tuple[Path, dict[str, int]],
) -> None:
    """Where none of its text is found, the package that took its name is where it went."""
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    state = checkout(repo).check("src/pkg/errors.py", start)
    assert state.renamed_to == "src/pkg/errors/__init__.py"


def test_a_document_rewritten_in_another_format_keeps_its_lineage(
    shapes: tuple[Path, dict[str, int]],
) -> None:
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    assert checkout(repo).check("docs/api.rst", start).renamed_to == "docs/api.md"
    # Two candidates: no guess.
    guide = checkout(repo).check("docs/guide.rst", start)
    assert guide.status == "stale" and guide.renamed_to is None


def test_empty_files_are_never_paired_by_content(shapes: tuple[Path, dict[str, int]]) -> None:
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    state = checkout(repo).check("data/empty_one.txt", start)
    assert state.status == "stale" and state.renamed_to is None and state.deleted is not None
    history = checkout(repo).history()
    assert history is not None
    assert [e.kind for e in history.events("data/empty_two.txt")] == ["A"]


def test_a_file_renamed_twice_follows_its_own_lineage(shapes: tuple[Path, dict[str, int]]) -> None:
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    paths = checkout(repo)
    # two.py exists again, but it is other.py under the old name: one.py is three.py.
    assert paths.check("one.py", start).renamed_to == "three.py"
    assert paths.check("other.py", start).renamed_to == "two.py"


def test_a_short_name_is_the_file_it_meant_at_the_memory_commit(
    shapes: tuple[Path, dict[str, int]],
) -> None:
    repo, marks = shapes
    start = commit_of(repo, marks["start"])
    head = git(repo, "rev-parse", "HEAD").strip()
    paths = checkout(repo)
    # The setup.cfg it meant is gone; another file of that name is no excuse.
    meant = paths.check("setup.cfg", start)
    assert meant.status == "stale" and meant.deleted is not None
    assert paths.check("setup.cfg", head).status == "present"
    # MANIFEST.in named two files then, and one of them is still there: which one
    # the memory meant is not known, and that is said rather than guessed.
    unsure = paths.check("MANIFEST.in", start)
    assert unsure.status == "unverified" and unsure.note is not None
    assert "pkg/MANIFEST.in of them is gone" in unsure.note
    assert paths.check("pkg/MANIFEST.in", start).status == "stale"


def test_a_path_gone_before_the_memory_was_written_is_said_once(
    shapes: tuple[Path, dict[str, int]],
) -> None:
    repo, marks = shapes
    head = git(repo, "rev-parse", "HEAD").strip()
    state = checkout(repo).check("lib/old.py", head)
    merge = git(repo, "log", "-1", "--format=%H %cs", "side").split()
    assert state.status == "unverified"
    assert state.note == (
        f"not in the checkout when the memory was written (deleted in {merge[0][:10]} ({merge[1]}))"
    )
    # Added after the memory's commit, and deleted since.
    start = commit_of(repo, marks["start"])
    later = checkout(repo).check("notes/later.md", start)
    added = commit_of(repo, marks["later"])
    day = git(repo, "show", "-s", "--format=%cs", added).strip()
    assert (later.status, later.note) == (
        "unverified",
        f"not in the checkout when the memory was written (added later, in {added[:10]} ({day}))",
    )


# -- building, updating, rebuilding -----------------------------------------------------


def _dump(history: PathHistory) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(history.path)
    try:
        return conn.execute(
            "SELECT c.id, p.path, e.kind, o.path FROM events e JOIN commits c ON c.seq = e.seq"
            " JOIN paths p ON p.id = e.path LEFT JOIN paths o ON o.id = e.other"
            " ORDER BY e.seq, p.path, e.kind"
        ).fetchall()
    finally:
        conn.close()


def _small(repo: Path, commits: int) -> History:
    h = History()
    h.commit("main", [f"M a.py {BODY['a']}", f"M b.py {BODY['b']}"])
    for n in range(commits):
        h.commit("main", [f"M f{n % 7}.txt {n}"])
    h.commit("main", ["D a.py", f"M c.py {BODY['a']}"])
    h.write(repo)
    return h


def test_new_commits_are_added_without_a_rebuild(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    h = _small(repo, 20)
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update()
    old_seq = history.seq_of(git(repo, "rev-parse", "HEAD").strip())
    h.commit("main", ["D c.py", f"M d.py {BODY['a']}"])
    h.commit("topic", [f"M e.py {BODY['c']}"], start="main")
    h.write(repo)
    history.update()
    assert history.status() == (24, True)
    assert history.seq_of(git(repo, "rev-parse", "HEAD~1").strip()) == old_seq
    assert [(e.kind, e.other) for e in history.events("c.py")] == [("N", "a.py"), ("R", "d.py")]
    assert [e.kind for e in history.events("e.py")] == ["A"]  # on another branch: indexed too


def test_rewritten_history_is_indexed_again(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _small(repo, 5)
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update()
    old_tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "commit", "-q", "--amend", "-m", "reworded")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    history.update()
    new_tip = git(repo, "rev-parse", "HEAD").strip()
    assert history.seq_of(old_tip) is None and history.seq_of(new_tip) is not None
    assert history.status() == (7, True)


def test_an_interrupted_build_resumes_where_it_stopped(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    h = _small(repo, 30)
    h.commit("side", [f"M s.py {BODY['d']}"], start="main")
    h.commit("main", ["M f0.txt again"], merge="side")
    h.write(repo)
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update(limit=10)
    assert history.status() == (10, False)
    history.update()
    assert history.status() == (34, True)
    fresh = PathHistory(repo, history.common_dir, tmp_path / "fresh")
    fresh.update()
    assert _dump(history) == _dump(fresh)


def test_a_check_that_may_not_wait_says_the_index_is_being_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Any history left to index counts as long here: it is built in the background.
    monkeypatch.setattr(path_history, "SMALL_HISTORY", 0)
    repo = tmp_path / "repo"
    _small(repo, 10)
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update(limit=3)
    with open(history.path.with_suffix(".lock"), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a build under way elsewhere
        paths = CheckoutPaths(project_scope.resolve(repo), wait=False)
        state = paths.check("docs/never.md")
        assert paths.history_building
        assert (state.status, state.searched) == ("unverified", "recent")
    # A short history left to index is indexed by the check itself.
    monkeypatch.setattr(path_history, "SMALL_HISTORY", 5_000)
    paths = CheckoutPaths(project_scope.resolve(repo), wait=False)
    assert paths.check("docs/never.md").searched == "all" and not paths.history_building


def test_linked_worktrees_share_one_index(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _small(repo, 3)
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"), "-b", "linked")
    main = path_history.for_checkout(repo)
    linked = path_history.for_checkout(tmp_path / "linked")
    assert main is not None and linked is not None and main.path == linked.path
    assert not main.path.is_relative_to(repo)


def _meta(history: PathHistory) -> dict[str, str]:
    conn = sqlite3.connect(history.path)
    try:
        return {key: value for key, value in conn.execute("SELECT key, value FROM meta")}
    finally:
        conn.close()


def _git_commands(trace: Path) -> list[str]:
    lines = trace.read_text(encoding="utf-8").splitlines() if trace.exists() else []
    return [line.split("built-in: ", 1)[1] for line in lines if "built-in: git " in line]


def test_a_checkout_of_an_indexed_commit_asks_git_once_and_records_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    h = _small(repo, 6)
    h.commit("side", [f"M s.py {BODY['d']}"], start="main")
    h.write(repo)
    git(repo, "tag", "-a", "-m", "old", "v1", "main~3")
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update()
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    for target in ("v1", "side", "main"):
        git(repo, "checkout", "-q", target)
        trace.unlink(missing_ok=True)
        history.update()
        assert [c.split()[1] for c in _git_commands(trace)] == ["show-ref"], target
        head = git(repo, "rev-parse", "HEAD").strip()
        assert json.loads(_meta(history)["refmap"])["HEAD"] == head
    monkeypatch.delenv("GIT_TRACE")
    # What a whole update from nothing records at the same HEAD.
    fresh = PathHistory(repo, history.common_dir, tmp_path / "fresh")
    fresh.update()
    assert _dump(history) == _dump(fresh)
    assert _meta(history) == _meta(fresh)


def test_leaving_a_commit_only_head_held_asks_git_whether_history_was_rewritten(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    _small(repo, 4)
    git(repo, "checkout", "-q", "--detach")
    git(repo, "commit", "-q", "--allow-empty", "-m", "detached")
    detached = git(repo, "rev-parse", "HEAD").strip()
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update()
    assert history.seq_of(detached) is not None
    git(repo, "checkout", "-q", "main")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    history.update()
    # No ref reaches it any more: indexed again from nothing, as after a rewrite.
    assert history.seq_of(detached) is None
    assert history.status() == (6, True)


def test_a_short_name_is_looked_up_in_the_index_as_a_pass_over_every_name_finds_it(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    h = History()
    h.commit("main", ["M src/app/db.py x", "M lib/db.py y", "M docs/app/guide.md z"])
    h.commit("main", ["D lib/db.py", "M src/émoji/app/ü.py w"])
    h.write(repo)
    history = path_history.for_checkout(repo)
    assert history is not None
    history.update()
    names = history.names()
    for suffix in ("/db.py", "/app/db.py", "/guide.md", "/ü.py", "/nothing.py", "/"):
        expected = next((n for n in names if n.endswith(suffix)), None)
        assert history.first_ending(suffix) == expected, suffix
    for part in ("/app/", "/src/", "/émoji/", "/lib/", "/gone/"):
        expected = next((n for n in names if part in "/" + n), None)
        assert history.first_holding(part) == expected, part
    assert history.first_ending("/db.py") == "lib/db.py"
    assert history.first_holding("/app/") == "docs/app/guide.md"
