"""Which live project memories the commit being made turns stale (docs/hooks.md).

Only paths the commit deletes or renames can be made stale by it. Rather than
reading every body on every commit, the trigram index is asked which live
memories of the project hold one of those paths as a substring (an indexed
lookup, well under a millisecond for a usual commit), and only those few
bodies go through the path finder to confirm the memory really names the path.
A commit that touches very many paths reads the project's bodies once instead.
A memory naming a path by a shorter form (`app/db.py` for `src/app/db.py`) is
matched by the rule drift follows too (short_forms.py): it is broken when it
named a gone path and names nothing in the staged tree, or when what the memory
says picks only gone paths among the files of that name (meant.py: the root
`MANIFEST.in` deleted while test data keep their own).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from synapse_git.drift.meant import Said, narrow
from synapse_git.drift.short_forms import (
    Tree,
    from_root,
    glob_rooted,
    matching,
    named_among,
    tails,
)
from synapse_git.git.git_command import Change
from synapse_git.store import fts

# Past this many needles one pass over the project's bodies beats a long MATCH.
MAX_NEEDLES = 200


class Broken(NamedTuple):
    """A live project memory that names a path this commit deletes or renames."""

    memory_id: int
    body: str
    path: str
    new_path: str | None


def gone_paths(changes: Iterable[Change]) -> dict[str, str | None]:
    """Paths the staged tree no longer holds: deleted (None) or renamed (new path)."""
    gone: dict[str, str | None] = {}
    for change in changes:
        if change.status == "D":
            gone[change.path] = None
        elif change.status == "R" and change.new_path is not None:
            gone[change.path] = change.new_path
    return gone


def _folders(paths: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        for end in range(1, len(parts) + 1):
            found.add("/".join(parts[:end]))
    return found


def _emptied(parents: set[str], still_tracked: Callable[[Sequence[str]], set[str]]) -> set[str]:
    """The folders among `parents` with no file left in the staged tree. Deepest
    first: a folder that still holds a file vouches for all its ancestors, so a
    usual deletion costs one small listing, not one of the whole tree."""
    unresolved = set(parents)
    emptied: set[str] = set()
    while unresolved:
        depth = max(folder.count("/") for folder in unresolved)
        layer = sorted(folder for folder in unresolved if folder.count("/") == depth)
        held = still_tracked(layer)
        for folder in layer:
            unresolved.discard(folder)
            if folder in held:
                unresolved -= _folders([folder + "/"])
            else:
                emptied.add(folder)
    return emptied


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _candidates(
    conn: sqlite3.Connection, project: str, needles: Sequence[str]
) -> list[tuple[int, str]]:
    """Live memories of `project` whose body holds any needle (a superset)."""
    base = "SELECT id, body FROM memories WHERE project = ? AND state = 'live'"
    # A path whose name is not UTF-8 (lone surrogates here) is named by no body, which
    # cannot hold one, and SQLite cannot be asked about it: it would end the check.
    needles = [n for n in needles if _utf8(n)]
    if len(needles) > MAX_NEEDLES:
        return [(int(i), str(b)) for i, b in conn.execute(base, (project,))]
    long = [n for n in needles if len(n.encode("utf-8", "surrogateescape")) >= 3]
    short = [n for n in needles if n not in set(long)]
    rows: dict[int, str] = {}
    if long:
        # Every trigram of a needle, in body or source: a superset the finder confirms.
        query = fts.holding_any(long)
        sql = f"{base} AND id IN (SELECT rowid FROM memorygram WHERE memorygram MATCH ?)"
        rows.update(conn.execute(sql, (project, query)).fetchall())
    for needle in short:
        # The trigram index cannot look up fewer than three characters.
        rows.update(conn.execute(f"{base} AND instr(body, ?) > 0", (project, needle)).fetchall())
    return sorted(rows.items())


def _normal(path: str, toplevel: str) -> str:
    """A path as a memory names it, made comparable with git's paths."""
    if path.startswith(toplevel + "/"):
        path = path[len(toplevel) + 1 :]
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


def _renamed_folder(folder: str, gone: dict[str, str | None]) -> str | None:
    """Where a folder went, when every file that left it was renamed the same way."""
    targets: set[str] = set()
    for old, new in gone.items():
        if not old.startswith(folder + "/"):
            continue
        rest = old[len(folder) + 1 :]
        if new is None or not new.endswith("/" + rest):
            return None
        targets.add(new[: -len(rest) - 1])
    return targets.pop() if len(targets) == 1 else None


def broken_memories(
    conn: sqlite3.Connection,
    project: str,
    toplevel: str,
    changes: Sequence[Change],
    *,
    find_paths: Callable[[str], list[str]],
    still_tracked: Callable[[Sequence[str]], set[str]],
    staged_files: Callable[[], Iterable[str]],
) -> list[Broken]:
    """Live memories of `project` naming a path the staged `changes` delete or rename.

    A folder counts as gone only when no file is left under it in the staged
    tree; git is asked first, so a usual deletion (its folder still holds
    files) looks up only the deleted path itself. The staged tree is listed
    (`staged_files`) only when some memory names a gone path.
    """
    gone = gone_paths(changes)
    if not gone:
        return []
    folders = emptied_folders(gone, still_tracked)
    staged: list[Tree] = []

    def tree() -> Tree:
        if not staged:
            staged.append(Tree(staged_files()))
        return staged[0]

    found: list[Broken] = []
    for memory_id, body in _candidates(conn, project, sorted(needles(gone, folders))):
        for path, new in breaks(body, toplevel, gone, folders, find_paths=find_paths, tree=tree):
            found.append(Broken(memory_id, body, path, new))
    return sorted(found, key=lambda b: (b.memory_id, b.path))


def emptied_folders(
    gone: dict[str, str | None], still_tracked: Callable[[Sequence[str]], set[str]]
) -> set[str]:
    """The folders of the gone paths that no file is left in."""
    return _emptied(_folders(gone) - set(gone), still_tracked)


def needles(gone: dict[str, str | None], folders: set[str]) -> set[str]:
    """Text a body must hold to name a gone path or folder, or a pattern matching one:
    every body without any of them is left alone."""
    found = {*gone, *folders}
    found.update(tail for path in list(found) for tail in tails(path))
    found.update(_pattern_needles(gone))
    return found


def breaks(
    body: str,
    toplevel: str,
    gone: dict[str, str | None],
    folders: set[str],
    *,
    find_paths: Callable[[str], list[str]],
    tree: Callable[[], Tree],
) -> list[tuple[str, str | None]]:
    """(the path as `body` names it, where it went) for each named path the removal of
    `gone` and `folders` breaks, judged against the tree `tree` lists; the one rule of
    the commit hook and of `synapse ci check`."""
    found = []
    named_paths = sorted({_normal(p, toplevel) for p in find_paths(body)})
    # What the memory says picks which of several files a short name meant (meant.py).
    said = Said(body, tuple(named_paths))
    for named in named_paths:
        broken = _broken_by(named, gone, folders, tree, said)
        if broken is not None:
            found.append(broken)
    return found


def _pattern_needles(gone: Iterable[str]) -> set[str]:
    """Text a pattern matching a gone path must hold: `*.in` (`requirements/*.in`,
    `test_*.py`) or a folder followed by `*` (`src/**`, `docs/*`)."""
    needles: set[str] = set()
    for path in gone:
        name = path.rsplit("/", 1)[-1]
        if "." in name.lstrip("."):
            needles.add("*." + name.rsplit(".", 1)[-1])
        for folder in _folders([path]):
            needles.update(f"{tail}/*" for tail in (folder, *tails(folder)))
    return needles


def _broken_pattern(
    named: str, gone: dict[str, str | None], tree: Callable[[], Tree]
) -> tuple[str, str | None] | None:
    """A pattern is broken when it matched a path the commit removes and matches
    nothing in the staged tree, as drift would say afterwards."""
    if not matching(named, gone.keys(), rooted=False):
        return None  # matches nothing the commit removes, even unrooted
    staged = tree()
    rooted = glob_rooted(named, staged.folders.__contains__)
    if not matching(named, gone.keys(), rooted=rooted):
        return None
    if matching(named, (*staged.files, *staged.folders), rooted=rooted):
        return None
    return named, None


def _broken_by(
    named: str,
    gone: dict[str, str | None],
    folders: set[str],
    tree: Callable[[], Tree],
    said: Said | None = None,
) -> tuple[str, str | None] | None:
    """(the path as named, where it went) when the commit breaks `named`, else None."""
    if named.startswith(("/", "~/")):
        return None  # outside the checkout: never made stale by a commit
    if "*" in named:
        return _broken_pattern(named, gone, tree)
    if not any(named == path or path.endswith("/" + named) for path in (*gone, *folders)):
        return None  # names nothing the commit removes: no need to list the staged tree
    staged = tree()
    rooted = from_root(named, staged.folders.__contains__) and _held_at_root(
        named, gone, folders, staged
    )
    files = named_among(named, gone.keys(), rooted=rooted)
    emptied = named_among(named, folders, rooted=rooted)
    if not (files or emptied):
        return None
    if staged.resolves(named, rooted=rooted) and not _meant_gone(named, files, staged, said):
        return None
    if files:
        return named, gone[files[0]]
    new = _renamed_folder(emptied[0], gone)
    return named + "/", None if new is None else new + "/"


def _held_at_root(named: str, gone: dict[str, str | None], folders: set[str], staged: Tree) -> bool:
    """Whether the tree before the commit held `named` from the root (the staged tree,
    or a path the commit removes). One it did not hold there is a shorter form like
    any other, though its first folder is a top-level one (`web/application.rb` for
    `lib/gem/web/application.rb` beside a top-level `web/`): drift reads the path's
    history for this (short_forms.py, "held from the root"); the commit check, which
    reads none, asks the tree the commit starts from."""
    return staged.holds(named) or named in gone or named in folders


def _meant_gone(named: str, files: list[str], staged: Tree, said: Said | None) -> bool:
    """A short name the staged tree still resolves, through another file of that name:
    broken when what the memory says picks only files this commit removes (the rule
    drift follows, meant.py; file contents are not read here, so a line number or a
    quoted identifier does not count)."""
    if said is None or not files:
        return False
    kept = staged.named(named, rooted=False)
    meant = narrow(named, [*files, *kept], said.text, said.others, lambda _: None)
    return all(path in files for path in meant)
