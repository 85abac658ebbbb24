"""Where a memory's commit (its anchor) stands from HEAD: on this line of work, on
another branch, on no branch any more, or gone from the repository
(docs/branches.md).

Asked of git a few times for every distinct anchor at once, never once per
memory: the commits outside HEAD's history that the branches reach (with the
paths each changed and the blobs it left), the anchors no branch reaches, and
the blobs HEAD holds, and its recent line held, for the paths those lines
changed. The
answer is kept per checkout in the data folder (git/branch_cache.py), so it is
computed again only when HEAD or a branch moves.

Standard library and the git command only: the checkout hooks use it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from synapse_git.git import git_command

HERE = "here"  # in HEAD's history, or its changes are all here (squash merge, rebase)
BRANCH = "branch"  # reached by a branch (or its changes are all on one), not by HEAD
GONE = "gone"  # in the repository, reached by no branch, its changes found nowhere
MISSING = "missing"  # not in the repository at all (rewritten history, collected)

COMMIT_ID = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")
_NO_BLOB = "0" * 40  # a path absent at a commit, as `--raw` writes a deletion
# Committer clocks differ between machines: a squash or rebase made elsewhere may
# be stamped a little before the commit it copies.
_CLOCK_SLACK = 86_400
_REFS = ("refs/heads", "refs/remotes")
# Remote-tracking branches, but not a remote's HEAD, which only names one of them.
_REMOTES = ("--exclude=*/HEAD", "--remotes")


class Standing(NamedTuple):
    """Where one anchor stands. `branch`: the branch that reaches it (BRANCH);
    `changed`: the paths its own line changed since it left HEAD's history, in a
    version HEAD's line has not had since."""

    state: str
    branch: str | None = None
    changed: tuple[str, ...] = ()


ORDINARY = Standing(HERE)


class _Commit(NamedTuple):
    time: int
    parents: tuple[str, ...]
    source: str
    blobs: dict[str, str]  # path -> the blob this commit left there (_NO_BLOB: deleted)
    # Author time, email and subject: what an amend, a rebase or a cherry-pick keeps
    # when it makes a new commit of the same change.
    author: str = ""


def _git(checkout: Path, args: Sequence[str], data: str | None = None) -> str | None:
    """git's output, or None when it failed (a ref moved under it, a commit gone)."""
    # Here, not at the top: recall loads this module for its drift rules, and runs
    # git only when a hit is a memory of this project naming a path.
    import subprocess

    try:
        done = subprocess.run(
            ["git", *git_command.NO_PROGRAMS, *args],
            cwd=checkout,
            input=(data or "").encode("utf-8", "surrogateescape"),
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape")


def tips(checkout: Path) -> str:
    """Every branch tip, local and remote, as one text: part of the cache key."""
    return _git(checkout, ["for-each-ref", "--format=%(objectname) %(refname)", *_REFS]) or ""


def _log(checkout: Path, args: Sequence[str], data: str = "") -> dict[str, _Commit]:
    """The commits `git log ARGS` lists, with parents, the tip that reached each
    (`--source`) and the blobs each left (`--raw`, renames as a deletion and an
    addition, so both names count as changed)."""
    out = _git(
        checkout,
        [
            "log",
            "-z",
            "--source",
            "--format=%x01%H %ct %P%x02%S%x02%at %ae %s",
            "--raw",
            "--no-abbrev",
            "--no-renames",
            *args,
        ],
        data,
    )
    found: dict[str, _Commit] = {}
    for record in (out or "").split("\x01")[1:]:
        head, _, rest = record.partition("\0")
        fields, _, tail = head.partition("\x02")
        source, _, author = tail.partition("\x02")
        commit, _, more = fields.partition(" ")
        seconds, _, parents = more.partition(" ")
        blobs: dict[str, str] = {}
        parts = rest.lstrip("\n").split("\0")
        for at in range(0, len(parts) - 1, 2):
            status = parts[at].split(" ")
            if len(status) >= 5 and status[0].startswith(":"):
                blobs[parts[at + 1]] = status[3]
        found[commit] = _Commit(int(seconds or 0), tuple(parents.split()), source, blobs, author)
    return found


def existing(checkout: Path, anchors: Collection[str]) -> set[str]:
    """The anchors that are commits in the repository."""
    anchors = sorted(anchors)
    if not anchors:
        return set()
    out = _git(
        checkout, ["cat-file", "--batch-check=%(objecttype)"], "".join(a + "\n" for a in anchors)
    )
    lines = (out or "").splitlines()
    return {a for a, kind in zip(anchors, lines, strict=False) if kind == "commit"}


def _line_of(anchor: str, graph: dict[str, _Commit]) -> list[str]:
    """The commits of `anchor`'s own line: it and its ancestors outside HEAD's history."""
    seen = {anchor}
    todo = [anchor]
    while todo:
        commit = graph.get(todo.pop())
        for parent in commit.parents if commit else ():
            if parent in graph and parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return sorted(seen)


def _blobs_at(anchor: str, graph: dict[str, _Commit]) -> dict[str, str]:
    """The blob each path its line changed has at `anchor`: the one the newest commit
    of the anchor's own line that changed it left."""
    found: dict[str, str] = {}
    line = sorted(_line_of(anchor, graph), key=lambda commit: graph[commit].time)
    for commit in line:  # oldest first: a newer change overwrites an older one
        found.update(graph[commit].blobs)
    return found


def _blobs(checkout: Path, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The blob each (commit, path) holds, _NO_BLOB where the path is absent."""
    asked = [pair for pair in dict.fromkeys(wanted) if "\n" not in pair[1]]
    if not asked:
        return {}
    out = _git(
        checkout,
        ["cat-file", "--batch-check=%(objectname)"],
        "".join(f"{commit}:{path}\n" for commit, path in asked),
    )
    lines = (out or "").splitlines()
    found: dict[tuple[str, str], str] = {}
    for pair, line in zip(asked, lines, strict=False):
        found[pair] = line if COMMIT_ID.match(line) else _NO_BLOB
    return found


def compute(checkout: Path, head: str, anchors: Collection[str]) -> dict[str, Standing]:
    """The standing of each anchor from `head` (anchors that are no commit id stand HERE)."""
    wanted = sorted({a for a in anchors if COMMIT_ID.match(a) and a != head})
    if not wanted:
        return {}
    present = existing(checkout, wanted)
    standings = {a: Standing(MISSING) for a in wanted if a not in present}
    graph = _log(checkout, ["--branches", *_REMOTES, "--not", head])
    rest = [a for a in wanted if a in present and a not in graph]
    if rest:
        graph.update(
            _log(
                checkout,
                ["--stdin", "--not", head, "--branches", *_REMOTES],
                "".join(a + "\n" for a in rest),
            )
        )
    for anchor in wanted:
        if anchor not in present:
            continue
        if anchor not in graph:
            standings[anchor] = ORDINARY
            continue
        line = _line_of(anchor, graph)
        changed = tuple(sorted({path for commit in line for path in graph[commit].blobs}))
        source = graph[anchor].source
        if COMMIT_ID.match(source):  # reached from the anchor itself: no branch reaches it
            standings[anchor] = Standing(GONE, None, changed)
        else:
            standings[anchor] = Standing(BRANCH, _short(source), changed)
    return _landed(checkout, head, graph, standings)


def _short(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/"):
        if ref.startswith(prefix):
            return ref.removeprefix(prefix)
    return ref


def _authors_since(checkout: Path, head: str, since: int) -> set[str]:
    """Author time, email and subject of each commit on HEAD's line made since `since`."""
    out = _git(checkout, ["log", "-z", f"--since={since}", "--format=%at %ae %s", head])
    return set((out or "").split("\0")) - {""}


def _landed(
    checkout: Path,
    head: str,
    graph: dict[str, _Commit],
    standings: dict[str, Standing],
) -> dict[str, Standing]:
    """Anchors whose commit or changes came here, or onto a branch, by other commits.

    An amend, a rebase or a cherry-pick makes a new commit of the anchor's change
    with the same author time, email and subject: an anchor copied so into HEAD's
    line is ordinary (its paths are then checked as any memory's); copied onto a
    branch, it stands on that branch. A squash merge makes a commit of its own:
    the paths whose version at the anchor HEAD holds, or held since the anchor was
    made (a later edit here does not undo the landing), are no longer the
    branch's; an anchor with none left is ordinary."""
    open_ = {a: s for a, s in standings.items() if s.state in (BRANCH, GONE) and s.changed}
    if not open_:
        return standings
    since = min(graph[a].time for a in open_) - _CLOCK_SLACK
    out = dict(standings)
    gone = [a for a, s in open_.items() if s.state == GONE]
    if gone:
        copied_here = _authors_since(checkout, head, since)
        on_branch: dict[str, str] = {}
        for commit in graph.values():
            if not COMMIT_ID.match(commit.source):
                on_branch.setdefault(commit.author, _short(commit.source))
        for anchor in gone:
            key = graph[anchor].author
            if key in copied_here:
                out[anchor] = ORDINARY
                del open_[anchor]
            elif key in on_branch:
                out[anchor] = open_[anchor] = Standing(
                    BRANCH, on_branch[key], open_[anchor].changed
                )
    if not open_:
        return out
    wanted = {p for s in open_.values() for p in s.changed}
    now = {path: blob for (_, path), blob in _blobs(checkout, [(head, p) for p in wanted]).items()}
    # Every change HEAD's line made since, read whole and filtered here: a log limited
    # by a thousand paths costs git far more than the few extra lines it prints.
    seen_here: dict[str, set[str]] = {}
    for commit in _log(checkout, [f"--since={since}", head]).values():
        for path, blob in commit.blobs.items():
            if path in wanted:
                seen_here.setdefault(path, set()).add(blob)

    def landed(then: str | None, path: str) -> bool:
        return then is not None and (then == now.get(path) or then in seen_here.get(path, ()))

    for anchor, standing in open_.items():
        at = _blobs_at(anchor, graph)
        left = tuple(p for p in standing.changed if not landed(at.get(p), p))
        out[anchor] = standing._replace(changed=left) if left else ORDINARY
    return out


# -- the cache --------------------------------------------------------------------


# -- as of a revision (recall --at) ---------------------------------------------------


class Revision(NamedTuple):
    """A commit asked for by name: its id and its committer time (seconds)."""

    commit: str
    time: int


def resolve(checkout: Path, rev: str) -> Revision | None:
    """The commit `rev` names in `checkout` (a branch, tag, id, `HEAD~3`…), or None."""
    found = _git(
        checkout, ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]
    )
    commit = (found or "").strip()
    if not COMMIT_ID.match(commit):
        return None
    seconds = (_git(checkout, ["show", "-s", "--format=%ct", commit]) or "").strip()
    return Revision(commit, int(seconds)) if seconds.isdigit() else None


def ancestors_among(
    checkout: Path, commit: str, anchors: Collection[str]
) -> tuple[set[str], set[str]]:
    """Of `anchors`: those the repository has, and those that are `commit` or in its
    history (one walk for all of them)."""
    wanted = sorted({a for a in anchors if COMMIT_ID.match(a)})
    present = existing(checkout, wanted)
    if not present:
        return present, set()
    outside = _git(
        checkout,
        ["rev-list", "--stdin", "--not", commit],
        "".join(a + "\n" for a in sorted(present)),
    )
    if outside is None:
        return present, set()
    return present, present - set(outside.split())
