"""One rule, shared by drift and the commit hook, for a path a memory names by a
shorter form (docs/drift.md, paths).

A memory may name `src/app/db.py` as `app/db.py` or `db.py`. A named path with a
folder whose first folder is a top-level folder of the checkout names that place
from the root and nothing else; any other named path names every tracked file or
folder it is the trailing part of. A named path is present while it names
something; a commit breaks it when it named a path the commit deletes or renames
and names nothing in the tree the commit records.

Pure text: the commit hook imports this module, so no pygit2 and no store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable


def tails(path: str) -> list[str]:
    """The shorter forms of `path`: `app/db.py` and `db.py` for `src/app/db.py`."""
    parts = path.split("/")
    return ["/".join(parts[start:]) for start in range(1, len(parts))]


def parents(path: str) -> list[str]:
    """The folders above `path`, outermost first."""
    parts = path.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts))]


def from_root(named: str, is_top_folder: Callable[[str], bool]) -> bool:
    """`src/x.py` whose first folder is at the checkout's root names a place from
    the root; `app/x.py` (no top-level `app`) may be the end of `src/app/x.py`."""
    return "/" in named and is_top_folder(named.split("/", 1)[0])


def names(named: str, path: str, *, rooted: bool) -> bool:
    """Whether a memory's `named` path (no trailing slash) names the tracked `path`."""
    return named == path or (not rooted and path.endswith("/" + named))


class Tree:
    """The files and folders of one tree (the index, a commit's tree), with every
    shorter form of them, built once for many questions."""

    def __init__(self, files: Iterable[str]) -> None:
        self.files = set(files)
        self.folders = {folder for path in self.files for folder in parents(path)}
        self._tails: dict[str, list[str]] | None = None

    def holds(self, path: str) -> bool:
        return path in self.files or path in self.folders

    def _longer(self) -> dict[str, list[str]]:
        """Each shorter form -> the files and folders it is the end of, built once:
        one look-up per named path rather than a pass over the whole tree."""
        if self._tails is None:
            found: dict[str, list[str]] = {}
            for path in (*self.files, *self.folders):
                for tail in tails(path):
                    found.setdefault(tail, []).append(path)
            self._tails = found
        return self._tails

    def ends_with(self, named: str) -> bool:
        """Whether some file or folder ends with `named` (is `named` or longer)."""
        return named in self._longer()

    def resolves(self, named: str, *, rooted: bool) -> bool:
        """Whether `named` names something in this tree, by the rule above."""
        return self.holds(named) or (not rooted and self.ends_with(named))

    def named(self, named: str, *, rooted: bool) -> list[str]:
        """`named_among(named, files and folders)`, from the index of shorter forms."""
        exact = [named] if self.holds(named) else []
        if rooted:
            return exact
        return exact + sorted(path for path in self._longer().get(named, ()) if path != named)


def named_among(named: str, paths: Collection[str], *, rooted: bool) -> list[str]:
    """The paths among `paths` that `named` names, the exact one first."""
    exact = [named] if named in paths else []
    if rooted:
        return exact
    longer = (path for path in paths if path != named and names(named, path, rooted=False))
    return exact + sorted(longer)


# -- patterns ------------------------------------------------------------------------
# A memory may name files by a pattern (`requirements/*.in`, `src/**/*.py`). It is
# there while something matches it; rooted and unrooted as a path is: `docs/*.md`
# under a top-level `docs` matches there only, `*_test.go` or `app/*.py` at any depth.


def pattern(named: str, *, rooted: bool) -> re.Pattern[str]:
    """The regular expression a glob stands for, over paths without a trailing slash:
    `*` and `?` stay within one folder, `**` crosses folders, `[abc]` is a class.

    Runs of stars are folded first (`***` is `**`, `**/**/` is `**/`): nested
    repeats would make a failing match take exponential time."""
    glob = re.sub(r"\*{3,}", "**", named.rstrip("/"))
    glob = re.sub(r"(?:\*\*/)+", "**/", glob)
    glob = re.sub(r"(?:/\*\*)+$", "/**", glob)
    out: list[str] = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if glob.startswith("**/", index):
            out.append("(?:[^/]+/)*")
            index += 3
            continue
        if glob.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in glob[index + 2 :]:
            end = glob.index("]", index + 2)
            body = glob[index + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append(("[^" if negate else "[") + body.replace("\\", "\\\\") + "]")
            index = end + 1
            continue
        else:
            out.append(re.escape(char))
        index += 1
    lead = "" if rooted or glob.startswith("**") else "(?:[^/]+/)*"
    return re.compile(lead + "".join(out))


def glob_rooted(named: str, is_top_folder: Callable[[str], bool]) -> bool:
    """A pattern whose first folder is written out and sits at the checkout's root
    matches from the root; any other matches at any depth, as a shorter form does."""
    first = named.split("/", 1)[0]
    return "/" in named.rstrip("/") and "*" not in first and is_top_folder(first)


def matching(named: str, paths: Iterable[str], *, rooted: bool) -> list[str]:
    """The paths among `paths` that the pattern `named` matches, sorted."""
    regex = pattern(named, rooted=rooted)
    return sorted(path for path in paths if regex.fullmatch(path))
