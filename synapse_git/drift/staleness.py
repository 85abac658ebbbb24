"""Is a path a memory names still there? Asked of git, the git-aware way (docs/drift.md, stale).

`CheckoutPaths` loads what it needs once — the index, the never-missing rules —
and reads history only when some path is actually missing. A missing path is
stale when it was there at the commit the memory was written at (its anchor),
or, for a memory with no anchor known here, when git's history ever held it.
Where it went comes from the path history index (path_history.py): its own
renames from the anchor to HEAD (lineage.py), or the commit that deleted it.
A missing path that was not there at the anchor is unverified, said once with
what it is (never seen, or gone before the memory was written).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Literal

from synapse_git.drift import path_history
from synapse_git.drift.checkout_repo import CheckoutRepository
from synapse_git.drift.lineage import Lineage, when
from synapse_git.drift.meant import Said, narrow
from synapse_git.drift.never_missing import NeverMissing
from synapse_git.drift.paths import is_glob, weak
from synapse_git.drift.short_forms import Tree, from_root
from synapse_git.git.project_scope import Scope

Status = Literal["present", "skipped", "stale", "unverified"]

# A short name the memory does not resolve is said to be ambiguous when it named at
# most this many files at the memory's commit; more, and it names a kind of file.
AMBIGUOUS_UP_TO = 4


@dataclass(frozen=True)
class PathState:
    path: str
    status: Status
    renamed_to: str | None = None
    seen: str | None = None  # where git saw it: index, memory commit, HEAD, history
    deleted_as: str | None = None  # renamed, then deleted under this name
    # "recent": the path history index is still being built, so "never seen" is a guess.
    searched: Literal["all", "recent"] = "all"
    deleted: str | None = None  # the commit that deleted it: `0123456789 (2024-05-01)`
    note: str | None = None  # what an unverified path is, when git knows more than "never seen"
    # Deleted, and a file of its name in another format added near then (lineage.py).
    replaced_by: str | None = None
    replaced_in: str | None = None  # the commit that added it: `0123456789 (2024-05-01)`


class CheckoutPaths(CheckoutRepository):
    """What the checkout `scope` stands in holds and what its git history has seen.

    With `tree` (e.g. the staged tree a commit would record), presence is judged
    against that tree instead of the working files. With `wait` False, a path
    history index not built yet is built in the background and not waited for:
    answers use what is indexed, and `history_building` says so."""

    def __init__(
        self,
        scope: Scope,
        *,
        tree: Any | None = None,
        rules: NeverMissing | None = None,
        wait: bool = True,
    ) -> None:
        self.scope = scope
        self.root = scope.checkout
        self._root = str(scope.checkout) if scope.checkout is not None else ""
        self._trees = {}
        self.repo = None
        self.wait = wait
        self._tree = tree
        if scope.checkout is not None and scope.git_dir is not None:
            self.repo = self._open(scope)
        self._rules = rules
        # Loaded on first need: most checks end at one stat of a path that exists.
        self._tracked = None
        self._skip_worktree = None
        self._history: path_history.PathHistory | None = None
        self._history_read = False
        self.history_building = False
        self._lineage: Lineage | None = None
        self._anchor_trees = {}
        self._in_commit = {}
        self._staged = None
        self._file_names = None

    @property
    def rules(self) -> NeverMissing:
        if self._rules is None:
            self._rules = NeverMissing.for_checkout(self.root)
        return self._rules

    # -- presence -----------------------------------------------------------------

    def _exact(self, path: str) -> bool:
        if self._tree is not None:
            return path in self.tracked or path in self.tracked_dirs
        assert self.root is not None
        return os.path.lexists(os.path.join(self._root, path))

    def _here(self, path: str) -> bool:
        """Whether the full path `path` is here: in the working files, or tracked and
        kept out of them by a sparse checkout."""
        if self._exact(path):
            return True
        return (
            self._tree is None and self._load_tracked().holds(path) and self._sparse().holds(path)
        )

    def present(self, path: str) -> bool:
        """Whether `path` names something here, by the rule the commit hook also
        follows (short_forms.py): `app/db.py` is present while `src/app/db.py` is."""
        if self._exact(path):
            return True
        tree = self._load_tracked()
        if tree.holds(path):
            # Tracked at exactly this place, yet not in the working files: gone, unless
            # git keeps it out of them on purpose (sparse checkout).
            return self._tree is None and self._sparse().holds(path)
        return tree.resolves(path, rooted=self._from_root(path, tree))

    def _from_root(self, path: str, tree: Tree) -> bool:
        """Whether `path` names a place from the root only (short_forms.from_root):
        its first folder is a top-level folder, and something is there or git once
        held something there. A path git never held from the root is a shorter form
        like any other (`web/application.rb` for `lib/app/web/application.rb`,
        beside a top-level `web/` of templates)."""
        if not from_root(path, tree.folders.__contains__):
            return False
        if tree.holds(path):
            return True
        history = self.history()
        return history is None or history.has(path) or bool(history.events_under(path))

    # -- what git has seen --------------------------------------------------------

    def history(self) -> path_history.PathHistory | None:
        """The path history index, brought up to date with the commits made since
        it was last read (or built in the background, without `wait`)."""
        if not self._history_read:
            self._history_read = True
            if self.repo is not None and self.root is not None and self._head() is not None:
                found = path_history.for_checkout(self.root)
                if found is not None:
                    self.history_building = not found.ensure(wait=self.wait)
                    self._history = found
        return self._history

    def lineage(self) -> Lineage | None:
        if self._lineage is None:
            history = self.history()
            head = self._head()
            if history is not None and head is not None and self.root is not None:
                self._lineage = Lineage(history, self.root, head)
        return self._lineage

    def _history_has(self, path: str) -> str | None:
        """The path in history `path` names (itself, the one longer path it is the end
        of, or a folder that held files), or None when history never held it."""
        history = self.history()
        if history is None:
            return None
        if history.has(path):
            return path
        if history.events_under(path):
            return path
        if self._from_root(path, self._load_tracked()):
            return None
        longer = history.first_ending("/" + path)
        if longer is not None:
            return longer
        folder = "/" + path + "/"
        name = history.first_holding(folder)
        return None if name is None else name[: name.index(folder) + len(folder) - 1]

    def _meant(self, path: str, commit_id: str | None) -> list[str] | None:
        """What `path` named in the memory's commit: the files or folders it is, or is
        the end of, by the rule of short_forms.py; None when that commit is unknown."""
        if commit_id is None or self._tree_of(commit_id) is None:
            return None
        if self._at_commit(commit_id, path):
            return [path]
        tree = self._anchor_tree(commit_id)
        assert tree is not None
        rooted = self._from_root(path, tree)
        if not tree.resolves(path, rooted=rooted):
            return []
        return tree.named(path, rooted=rooted)

    def _which(self, path: str, commit_id: str | None, said: Said) -> list[str] | None:
        """What `path` meant at the memory's commit, narrowed by what the memory says
        when it named several files (meant.py); None when that commit is unknown."""
        found = self._meant(path, commit_id)
        if found is None or commit_id is None:
            return found
        then = self._anchor_tree(commit_id)
        if found == [path] and then is not None and then.ends_with(path):
            # A root file of that name, and longer paths ending with it: all candidates.
            found = then.named(path, rooted=False)
        if len(found) < 2:
            return found
        # All still here, the choice changes nothing. Some gone, it decides whether the
        # memory is stale; all gone, whose new name to give (`the java16
        # RecordJsonAdapter.kt`, where the one in `java` moved too).
        if all(self._exact(name) for name in found):
            return found
        return narrow(path, found, said.text, said.others, lambda name: self._blob(commit_id, name))

    def _gone_since(self, path: str, commit_id: str | None, said: Said) -> str | None:
        """A short form present now only because another file has that name: "gone"
        when the one it meant at the memory's commit is gone (`MANIFEST.in`), the
        files it may have meant when the memory does not say which and some of them
        are gone, None when it is there."""
        if commit_id is None or self._tree_of(commit_id) is None:
            return None
        if self._exact(path):
            then = self._anchor_tree(commit_id)
            if (
                then is None
                or from_root(path, then.folders.__contains__)
                or not then.ends_with(path)
            ):
                return None  # the one file of that name then, there now
        meant = self._which(path, commit_id, said) or []
        gone = [name for name in meant if not self._here(name)]
        if not gone:
            return None
        if len(gone) == len(meant):
            return "gone"
        if len(meant) > AMBIGUOUS_UP_TO:
            # A name that many files share (`setup.py`, `conftest.py`) is said of a kind
            # of file, not of one: there while files of that name are.
            return None
        return (
            f"named {len(meant)} files when the memory was written ({', '.join(meant)})"
            f" and {', '.join(gone)} of them {'is' if len(gone) == 1 else 'are'} gone:"
            " which it meant is not known"
        )

    def _seen(self, path: str, commit_id: str | None) -> str | None:
        if self._in_index(path):
            return "index"
        if self._meant(path, commit_id):
            return "memory commit"
        head = self._head()
        if head is not None and self._at_commit(head, path):
            return "HEAD"
        return None

    # -- where it went ------------------------------------------------------------

    def _renamed_once(self, path: str, commit_id: str | None) -> PathState:
        """Where `path` (a full path, or a folder) went after `commit_id`, by its own
        lineage: renamed_to (present now), or deleted_as and when it was deleted."""
        stale = PathState(path, "stale")
        staged = self._staged_renames()
        if path in staged:
            return replace(stale, renamed_to=staged[path])
        lineage = self.lineage()
        if lineage is None:
            return stale
        anchor = commit_id if commit_id is not None and self._tree_of(commit_id) else None
        history = lineage.history
        if not history.has(path) and history.events_under(path):
            moved = _moved_folder(path, {**lineage.moved_folder(path, anchor), **staged})
            return replace(stale, renamed_to=moved if moved and self._exact(moved) else None)
        followed = lineage.follow(path, anchor)
        if followed.renamed and self._exact(followed.name):
            return replace(stale, renamed_to=followed.name)
        if followed.deleted is not None:
            found = replace(
                stale,
                deleted_as=followed.name if followed.renamed else None,
                deleted=when(followed.deleted),
            )
            by = lineage.replacement(
                followed.name,
                followed.deleted,
                anchor,
                lambda name: self._exact(name) and not (anchor and self._at_commit(anchor, name)),
            )
            if by is not None:
                found = replace(found, replaced_by=by.path, replaced_in=when(by))
            return found
        return stale

    def _full(self, path: str, commit_id: str | None, said: Said) -> str:
        """The full path a named path stood for: at the memory's commit, else in history."""
        meant = self._which(path, commit_id, said)
        if meant:
            return meant[0]
        return self._history_has(path) or path

    # -- the question -------------------------------------------------------------

    def check(
        self,
        path: str,
        commit_id: str | None = None,
        *,
        relative: bool = True,
        said: Said | None = None,
    ) -> PathState:
        """The state of `path` as `find_paths` gives it. Relative paths are checked
        against this checkout only when `relative` (project memory); an absolute or
        home path is checked only where it falls inside this checkout. `said` is what
        the memory says around it, for a short name that named several files."""
        said = said or Said()
        if path.startswith(("/", "~/")):
            return self._absolute(path, commit_id)
        if not relative or self.root is None or path.startswith("../"):
            return PathState(path, "skipped")
        if is_glob(path):
            return self._pattern(path, commit_id)
        key = path.rstrip("/")
        # Presence first: most named paths exist.
        if self.present(key):
            since = self._gone_since(key, commit_id, said)
            if since is None:
                return PathState(path, "present")
            if since != "gone":
                return PathState(path, "unverified", seen="memory commit", note=since)
        judged = self._judge(key, commit_id, said)
        # What git has tracked is checked whatever its folders are called
        # (`src/pkg/build/wheel.py`); the never-missing rules are for the rest.
        if judged.status == "unverified" and (
            weak(path) or self.rules.skips(path) or self._kind_of_file(key)
        ):
            return PathState(path, "skipped")
        return replace(judged, path=path)

    def _kind_of_file(self, key: str) -> bool:
        """A dotted name alone that git never held as a file but that ends files
        tracked here (`.ejs` beside `views/index.ejs`): an extension, a kind of file
        the memory speaks of, not a dotfile still to be written."""
        if "/" in key or not key.startswith(".") or len(key) < 2:
            return False
        return any(name.endswith(key) and name != key for name in self._names())

    def _pattern(self, named: str, commit_id: str | None) -> PathState:
        """A glob is there while something tracked matches it; stale when nothing does
        and something did at the commit the memory was written on."""
        if self._matches_now(named):
            return PathState(named, "present")
        then = self._matched_at(commit_id, named)
        if then:
            return PathState(named, "stale", seen="memory commit")
        # A pattern with no file extension that matched nothing when the memory was
        # written is no file pattern of this project (`release/*` names branches).
        file_like = "." in named.rsplit("/", 1)[-1]
        if (then is False and not file_like) or self.rules.skips(named.split("*", 1)[0] or named):
            return PathState(named, "skipped")
        # Files still to be written (`fixtures/*.json`), or, without the memory's
        # commit, a pattern whether it ever matched is not known.
        return PathState(named, "unverified", searched="all" if then is False else "recent")

    def _judge(self, key: str, commit_id: str | None, said: Said) -> PathState:
        """A missing path: stale when it was there at the memory's commit (or, with no
        such commit here, when git ever held it), with where it went."""
        seen = self._seen(key, commit_id)
        anchored = self._meant(key, commit_id) is not None
        if seen is None and not anchored:
            found = self._history_has(key)
            seen = "history" if found is not None else None
        if seen is None:
            searched: Literal["all", "recent"] = "recent" if self.history_building else "all"
            note = None
            known = self._history_has(key) if anchored else None
            if known is not None and commit_id is not None:
                note = self._absent(known, commit_id)
            return PathState(key, "unverified", searched=searched, note=note)
        found_state = self._renamed_once(self._full(key, commit_id, said), commit_id)
        return replace(found_state, path=key, seen=seen)

    def _absent(self, path: str, commit_id: str) -> str:
        """What a path git knows was at the memory's commit instead of being there:
        deleted before it, or added after it (and deleted since)."""
        note = "not in the checkout when the memory was written"
        lineage = self.lineage()
        if lineage is None:
            return note
        before, after = lineage.around(path, commit_id)
        if before is not None:
            return f"{note} (deleted in {when(before)})"
        if after is not None:
            return f"{note} (added later, in {when(after)})"
        return note

    def _absolute(self, path: str, commit_id: str | None) -> PathState:
        """An absolute or home path is not part of the checkout and often describes
        another machine (a server, a teammate's home): never stale. One that falls
        inside this checkout is checked as the relative path it is."""
        full = os.path.expanduser(path) if path.startswith("~/") else path
        if self.root is not None and self.repo is not None:
            for root in {str(self.root), os.path.realpath(self.root)}:
                prefix = root.rstrip("/") + "/"
                if full.startswith(prefix) and len(full) > len(prefix):
                    inner = self.check(full[len(prefix) :], commit_id)
                    return replace(inner, path=path)
        return PathState(path, "skipped")


def _moved_folder(path: str, renames: dict[str, str]) -> str | None:
    """A folder whose files were renamed into one other folder moved there."""
    prefix = path.rstrip("/") + "/"
    targets = set()
    for old, new in renames.items():
        if old.startswith(prefix):
            rest = old[len(prefix) :]
            if not new.endswith("/" + rest) and new != rest:
                return None
            targets.add(new[: len(new) - len(rest)].rstrip("/"))
    return targets.pop() if len(targets) == 1 else None
