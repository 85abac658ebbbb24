"""Stale and unverified findings: the paths a memory names that a checkout no longer
has, or that git has never seen (docs/drift.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from synapse_git.drift import settle
from synapse_git.drift.finding_record import Finding
from synapse_git.drift.meant import Said
from synapse_git.drift.paths import find_paths
from synapse_git.git.project_scope import Scope
from synapse_git.store.memories import Memory


def stale(
    rows: Sequence[Memory],
    scope: Scope,
    kinds: set[str],
    *,
    checkout: Any = None,
    search_older: bool = True,
    named: Callable[[str], list[str]] = find_paths,
) -> list[Finding]:
    """Stale and unverified paths, one finding per memory and kind. The checkout
    (index, rules, history) is loaded once, and only when a memory names a path.
    Without `search_older` (recall), a path history index not built yet is not
    waited for (staleness.CheckoutPaths, `wait`). `named` finds a body's paths."""
    found = [(memory, named(memory.body)) for memory in rows]
    found = [(memory, paths) for memory, paths in found if paths]
    if not found:
        return []
    if checkout is None:
        from synapse_git.drift.staleness import CheckoutPaths  # pygit2 only when paths need it

        checkout = CheckoutPaths(scope, wait=search_older)
    findings: list[Finding] = []
    for memory, paths in found:
        gone: list[str] = []
        renamed: list[tuple[str, str]] = []
        unknown: list[str] = []
        unsearched: list[str] = []  # not in the history indexed so far
        absent: list[tuple[str, str]] = []  # not there when the memory was written, and why
        deleted: list[tuple[str, str]] = []  # renamed, then deleted
        removed: list[tuple[str, str]] = []  # deleted, and by which commit
        replaced: list[tuple[str, str, str]] = []  # deleted, another file in its place
        said = Said(memory.body, tuple(paths))
        for path in paths:
            state = checkout.check(
                path, memory.head_commit, relative=memory.project == scope.project, said=said
            )
            if state.status == "stale":
                gone.append(path)
                if state.renamed_to:
                    renamed.append((path, state.renamed_to))
                elif state.deleted_as:
                    deleted.append((path, state.deleted_as))
                if not state.renamed_to and state.deleted:
                    removed.append((state.deleted_as or path, state.deleted))
                if state.replaced_by and state.replaced_in:
                    replaced.append((path, state.replaced_by, state.replaced_in))
            elif state.status == "unverified":
                if state.note:
                    absent.append((path, state.note))
                else:
                    (unsearched if state.searched == "recent" else unknown).append(path)
        if gone and "stale" in kinds:
            findings.append(_stale_finding(memory, gone, renamed, deleted, removed, replaced))
        if (unknown or unsearched or absent) and "unverified" in kinds:
            findings.append(_unverified_finding(memory, unknown, unsearched, absent))
    return findings


def _unverified_finding(
    memory: Memory,
    unknown: list[str],
    unsearched: list[str],
    absent: Sequence[tuple[str, str]] = (),
) -> Finding:
    parts = []
    if unknown:
        parts.append(
            f"{_list(unknown)}, which git has never seen here (perhaps still to be written)"
        )
    if unsearched:
        # The history index is still being built: "never seen" would be a guess.
        parts.append(
            f"{_list(unsearched)}, not found in the history indexed so far"
            " (the index is still being built)"
        )
    parts += [f"{path}, {note}" for path, note in absent]
    return Finding(
        "unverified",
        (memory.id,),
        f"memory {memory.id} names " + "; and ".join(parts),
        f"synapse memory edit {memory.id}",
        paths=tuple([*unknown, *unsearched, *(path for path, _ in absent)]),
    )


def _stale_finding(
    memory: Memory,
    gone: list[str],
    renamed: list[tuple[str, str]],
    deleted: Sequence[tuple[str, str]] = (),
    removed: Sequence[tuple[str, str]] = (),
    replaced: Sequence[tuple[str, str, str]] = (),
) -> Finding:
    by = {old: (new, added) for old, new, added in replaced}
    moves = "; ".join(
        [f"{old} is now {new}" for old, new in renamed]
        + [f"{old} was renamed to {last}, since deleted" for old, last in deleted]
        + [f"{name} was deleted in {commit}" for name, commit in removed]
        + [f"{old} replaced by {new} (added in {added})" for old, (new, added) in by.items()]
    )
    where = f" (written on {memory.branch})" if memory.branch else ""
    place = "this machine" if all(p.startswith(("/", "~/")) for p in gone) else "this checkout"
    detail = f"memory {memory.id}{where} names {_list(gone)}, gone from {place}"
    return Finding(
        "stale",
        (memory.id,),
        detail + (f"; {moves}" if moves else ""),
        settle.stale(memory.id, memory.body, gone, renamed),
        paths=tuple(gone),
        renamed=tuple(renamed),
        replaced=tuple(replaced),
    )


def _list(paths: Sequence[str]) -> str:
    return ", ".join(paths)
