"""`synapse ci check`: what a change does to the team's shared memories (docs/ci.md).

The change is git's `BASE...HEAD`: from the best common ancestor of the two to
HEAD. The team file is read at both ends from git's objects, and nothing else:
no store is opened or made, nothing is written, the data folder and HOME are
never looked at. Reported, each on the line of the team file at HEAD that holds
the memory:

- `stale` (blocking): a live shared memory names a path the change deletes or
  renames, and names nothing in HEAD's tree; a rename says the new name. The
  rule is the commit hook's (drift/commit_check.py).
- `invalid` (blocking): a line the change wrote that a sync would skip (the one
  validator of team/records.py) or whose live memory looks like a secret, as
  the commit check refuses them; a team file that is a symlink or too large.
- `conflict` (blocking): a memory the change adds or edits contradicts another
  live shared memory (drift's conflict rules, drift/conflicts.py).
- `missing` (warning): a memory the change adds or edits names a path HEAD's
  tree does not hold (not build output or an ignored path).
- `duplicate` (warning): one it adds repeats another word for word.
- `removed` (warning): a memory live at the base whose line the change takes out
  (or the whole file): each teammate's next sync forgets it (team/sync.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from synapse_git.ci import revisions
from synapse_git.ci.revisions import TeamFile
from synapse_git.drift import commit_check
from synapse_git.drift.paths import find_paths, is_glob, weak
from synapse_git.drift.short_forms import Tree, from_root, glob_rooted, matching
from synapse_git.store.memories import Memory
from synapse_git.team import records, secrets
from synapse_git.textrules import first_line, normalize

BLOCKING = ("stale", "invalid", "conflict")
WARNING = ("missing", "duplicate", "removed")
KINDS = (*BLOCKING, *WARNING)


@dataclass(frozen=True)
class Finding:
    kind: str
    line: int | None  # of the team file at HEAD; None: the file as a whole
    memory: str | None  # the stable id
    detail: str
    paths: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    other: str | None = None  # the memory a conflict or duplicate is with
    other_line: int | None = None

    @property
    def blocking(self) -> bool:
        return self.kind in BLOCKING

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "level": "error" if self.blocking else "warning",
            "memory": self.memory,
            "file": records.FILE,
            "line": self.line,
            "detail": self.detail,
            "paths": list(self.paths),
            "renamed": [{"from": old, "to": new} for old, new in self.renamed],
            "other": self.other,
            "other_line": self.other_line,
        }


@dataclass(frozen=True)
class Report:
    base: str  # as given
    merge_base: str
    head: str
    checked: int  # live shared memories at HEAD
    findings: list[Finding] = field(default_factory=list)

    @property
    def blocking(self) -> int:
        return sum(1 for finding in self.findings if finding.blocking)

    def as_json(self) -> dict[str, object]:
        return {
            "base": self.base,
            "merge_base": self.merge_base,
            "head": self.head,
            "file": records.FILE,
            "checked": self.checked,
            "blocking": self.blocking,
            "findings": [finding.as_json() for finding in self.findings],
        }


def run(folder: Path | None, base: str) -> Report:
    """Check the change `base`...HEAD of the repository `folder` stands in."""
    root = revisions.toplevel(folder)
    base_commit = revisions.commit(root, base, "base")
    head = revisions.commit(root, "HEAD", "HEAD")
    start = revisions.merge_base(root, base_commit, head)
    before = revisions.team_file(root, start)
    after = revisions.team_file(root, head)
    live = {uid: r for uid, r in after.records.items() if r.state == "live"}
    report = Report(base, start, head, len(live))
    if after.problem is not None:
        report.findings.append(Finding("invalid", None, None, after.problem))
        return report
    written = {
        uid for uid, r in live.items() if (old := before.records.get(uid)) is None or old != r
    }
    tree: list[Tree] = []

    def head_tree() -> Tree:
        if not tree:
            tree.append(Tree(revisions.files(root, head)))
        return tree[0]

    findings = [
        *_invalid(before, after, live, written),
        *(stale := _stale(root, start, head, after, live, head_tree)),
        *_conflicts(after, live, written),
        *_missing(root, after, live, written, head_tree, stale),
        *_removed(before, after),
    ]
    findings.sort(key=lambda f: (f.line or 0, KINDS.index(f.kind), f.detail))
    report.findings.extend(findings)
    return report


def _removed(before: TeamFile, after: TeamFile) -> list[Finding]:
    """Memories live at the base that have no line at HEAD. A sync forgets a memory
    whose line is gone, so the change forgets them for every teammate: a reviewer
    should see that, whether it is meant (forgetting) or not (a file deleted)."""
    gone = sorted(
        uid
        for uid, record in before.records.items()
        if record.state == "live" and uid not in after.records
    )
    if gone and not after.records and not after.lines and not after.errors:
        many = "memory" if len(gone) == 1 else "memories"
        # Only a file git no longer has is deleted; one left empty had its lines taken out.
        done = (
            "deletes the team file"
            if after is revisions.NO_FILE
            else "takes every line out of the team file"
        )
        return [
            Finding(
                "removed",
                None,
                None,
                f"this change {done}: each teammate's next sync forgets its"
                f" {len(gone)} live shared {many}",
            )
        ]
    return [
        Finding(
            "removed",
            None,
            uid,
            f"shared memory {uid} ({_quote(before.records[uid])!r}) was live at the base and"
            " this change removes its line: each teammate's next sync forgets it",
        )
        for uid in gone
    ]


def _quote(record: records.Record) -> str:
    line = first_line(record.body)
    return line if len(line) <= 80 else line[:79] + "…"


def _invalid(
    before: TeamFile, after: TeamFile, live: dict[str, records.Record], written: set[str]
) -> list[Finding]:
    """Lines the change wrote that a sync would skip, or whose live memory looks like
    it holds a secret."""
    found = [
        Finding("invalid", error.number, None, f"line {error.number}: {error.reason}")
        for error in after.errors
        # A bad line the base already had is not this change's doing.
        if error.raw is None or error.raw not in before.raw
    ]
    for uid in sorted(written):
        record = live[uid]
        kinds = secrets.secrets_in(record.body + "\n" + record.source)
        if kinds:
            found.append(
                Finding(
                    "invalid",
                    after.lines[uid],
                    uid,
                    f"shared memory {uid} seems to hold {', '.join(kinds)}",
                )
            )
    return found


def _stale(
    root: Path,
    start: str,
    head: str,
    after: TeamFile,
    live: dict[str, records.Record],
    tree: Callable[[], Tree],
) -> list[Finding]:
    gone = commit_check.gone_paths(revisions.changes(root, start, head))
    if not gone or not live:
        return []
    held = tree()
    folders = commit_check.emptied_folders(
        gone, lambda asked: {folder for folder in asked if folder in held.folders}
    )
    names = {
        needle.rstrip("/").rsplit("/", 1)[-1] for needle in commit_check.needles(gone, folders)
    }
    plain = {name for name in names if _WORD.fullmatch(name)}
    found = []
    for uid, record in sorted(live.items()):
        if not _may_name(record.body, plain, names - plain):
            continue
        broken = commit_check.breaks(
            record.body, str(root), gone, folders, find_paths=find_paths, tree=tree
        )
        if not broken:
            continue
        paths = tuple(path for path, _ in broken)
        renamed = tuple((path, new) for path, new in broken if new is not None)
        said = "; ".join(
            f"{path} is now {new}" if new is not None else f"{path} is deleted"
            for path, new in broken
        )
        found.append(
            Finding(
                "stale",
                after.lines[uid],
                uid,
                f"shared memory {uid} ({_quote(record)!r}) names {', '.join(paths)}, which"
                f" this change removes: {said}",
                paths=paths,
                renamed=renamed,
            )
        )
    return found


_WORD = re.compile(r"[\w.-]+")


def _may_name(body: str, plain: set[str], odd: set[str]) -> bool:
    """Whether `body` may name one of the gone paths: it holds one's last part as a
    word (`plain`, or `odd` ones with other characters as text), or a pattern. A
    superset the path finder confirms; one pass over the body whatever the number of
    paths the change removes."""
    if "*" in body:
        return True
    words = set(_WORD.findall(body))
    words.update(word.rstrip(".") for word in list(words))
    return bool(words & plain) or any(name in body for name in odd)


def _conflicts(
    after: TeamFile, live: dict[str, records.Record], written: set[str]
) -> list[Finding]:
    """Pairs of live memories, one of them added or edited by the change, that
    contradict each other (drift's rules) or repeat each other word for word."""
    if not written:
        return []
    uids = sorted(live)
    rows = [_as_memory(number, live[uid]) for number, uid in enumerate(uids)]
    involved = {number for number, uid in enumerate(uids) if uid in written}
    from synapse_git.drift import conflicts
    from synapse_git.drift.pair_findings import conflicts_among

    found = []
    for pair in conflicts_among(rows, involved):
        mine, theirs = sorted(pair.ids, key=lambda n: (n not in involved, n))
        uid, other = uids[mine], uids[theirs]
        said = conflicts.compare(conflicts.parse(live[uid].body), conflicts.parse(live[other].body))
        if said is None or said.reason == "negation":
            what = "one negates the other"
        else:
            what = f"it says {said.first!r} where {other} says {said.second!r}"
        found.append(
            Finding(
                "conflict",
                after.lines[uid],
                uid,
                f"shared memory {uid} contradicts {other} (line {after.lines[other]}): {what}",
                other=other,
                other_line=after.lines[other],
            )
        )
    norms: dict[str, list[str]] = {}
    for uid in sorted(live):
        norms.setdefault(normalize(live[uid].body), []).append(uid)
    for same in norms.values():
        for uid in (u for u in same if u in written):
            # The one it repeats: one the change left alone, else the first of them.
            kept = [o for o in same if o != uid and o not in written]
            earlier = kept[:1] or [o for o in same if o < uid][:1]
            for repeated in earlier:
                found.append(
                    Finding(
                        "duplicate",
                        after.lines[uid],
                        uid,
                        f"shared memory {uid} repeats {repeated} (line {after.lines[repeated]})"
                        " word for word",
                        other=repeated,
                        other_line=after.lines[repeated],
                    )
                )
    return found


def _as_memory(number: int, record: records.Record) -> Memory:
    return Memory(number, record.body, record.source, "", record.created_at, record.updated_at)


def _missing(
    root: Path,
    after: TeamFile,
    live: dict[str, records.Record],
    written: set[str],
    tree: Callable[[], Tree],
    stale: list[Finding],
) -> list[Finding]:
    """Paths that memories the change adds or edits name and HEAD's tree lacks (those
    the change removed are stale already)."""
    if not written:
        return []
    said = {(finding.memory, path) for finding in stale for path in finding.paths}
    from synapse_git.drift.never_missing import NeverMissing

    rules = NeverMissing.for_checkout(root)
    found = []
    for uid in sorted(written):
        absent = [
            path
            for path in find_paths(live[uid].body)
            if (uid, path) not in said and _absent(path, tree) and not rules.skips(path)
        ]
        if absent:
            found.append(
                Finding(
                    "missing",
                    after.lines[uid],
                    uid,
                    f"shared memory {uid} ({_quote(live[uid])!r}) names"
                    f" {', '.join(absent)}, which HEAD does not have",
                    paths=tuple(absent),
                )
            )
    return found


def _absent(named: str, tree: Callable[[], Tree]) -> bool:
    """Whether a relative path or pattern names nothing in HEAD's tree. Absolute and
    home paths describe a machine, and a path with no file shape a word: neither is
    called missing, as drift does not call them unverified."""
    if named.startswith(("/", "~/", "../")):
        return False
    held = tree()
    bare = named.rstrip("/")
    if is_glob(bare):
        rooted = glob_rooted(bare, held.folders.__contains__)
        return not matching(bare, (*held.files, *held.folders), rooted=rooted)
    if weak(bare):
        return False
    rooted = from_root(bare, held.folders.__contains__)
    return not held.resolves(bare, rooted=rooted)
