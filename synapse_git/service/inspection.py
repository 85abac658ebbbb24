"""Looking at memories through git: which memories name a path (`memory blame`), and
everything known about one memory (`memory show`) (docs/drift.md, "Blame"). Read-only:
nothing here writes, not even the store's creation."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git.errors import BadInput, NotFound
from synapse_git.git import git_command
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import memories
from synapse_git.team import records, shared_table

# The result types are imported where they are made: every command builds the
# service, and making a frozen dataclass costs what a short command's query does.
if TYPE_CHECKING:
    from synapse_git.ci.check import Report as CiReport
    from synapse_git.service.memory_show import MemoryPage, PathNow, TeamStatus
    from synapse_git.service.results import CiRendered, History

if TYPE_CHECKING:
    from synapse_git.drift.blame import Blame


class Inspection(StoreAccess):
    """Reads that join a memory with git: blame, the memory page, the CI check."""

    def ci_check(self, folder: Path | None, base: str) -> CiReport:
        """`synapse ci check`: the team file at BASE and at HEAD, compared with no
        store (docs/ci.md)."""
        from synapse_git.ci import check

        return check.run(folder, base)

    def ci_report(self, folder: Path | None, base: str, output: str) -> CiRendered:
        """`synapse ci check --format OUTPUT`: the check of `ci_check`, rendered (and for
        GitHub its job summary too); an unknown format is refused before any git runs."""
        from synapse_git.ci import formats
        from synapse_git.service.results import CiRendered

        if output not in formats.FORMATS:
            raise BadInput(f"--format {output[:40]!r}: choose from {', '.join(formats.FORMATS)}")
        report = self.ci_check(folder, base)
        summary = formats.markdown(report) if output == "github" else None
        return CiRendered(formats.RENDER[output](report), summary, report.blocking)

    if TYPE_CHECKING:
        # Lifecycle's, which `Synapse` joins with this part (service/facade.py).
        def history(self, memory_id: int, scope: Scope) -> History: ...

    def blame(self, target: str, scope: Scope) -> Blame:
        """The memories of `scope`'s project that name `target` (`PATH[:LINE]`, PATH
        relative to the scope's folder), under its name or a former one."""
        from synapse_git.drift import blame, path_history
        from synapse_git.drift.lineage import Lineage

        if scope.project is None or scope.checkout is None:
            where = scope.note or str(scope.folder)
            raise BadInput(f"{where}: blame needs a repository with a work tree")
        root = scope.checkout
        path, line = blame.split_target(target, root, scope.folder)
        listed = git_command.git(["ls-tree", "--full-tree", "HEAD", "--", path], root)
        tracked = bool(listed.stdout.strip())
        line_commit, line_when = (None, None)
        if line is not None:
            line_commit, line_when = blame.line_commit(root, path, line)
        head = git_command.git(["rev-parse", "-q", "--verify", "HEAD^{commit}"], root)
        history = path_history.for_checkout(root)
        lineage = None
        formers = []
        if history is not None and head.returncode == 0:
            history.ensure(wait=True)
            lineage = Lineage(history, root, head.stdout.decode().strip())
            formers = lineage.former(path)
        tops = git_command.git(["ls-tree", "-d", "-z", "--name-only", "--full-tree", "HEAD"], root)
        top_folders = set(tops.stdout.decode("utf-8", "surrogateescape").split("\0"))
        found = []
        if self._exists():
            with self.connection(create=False) as conn:
                rows = blame.naming(
                    conn,
                    scope.project,
                    path,
                    formers,
                    is_top_folder=top_folders.__contains__,
                    lineage=lineage,
                )
                authors = shared_table.authors(conn, [row[0].id for row in rows])
            for memory, inferred, said, former in rows:
                changed = None
                if line is not None and memory.head_commit is not None:
                    changed = line_commit is None or not _ancestor(
                        root, line_commit, memory.head_commit
                    )
                found.append(
                    blame.Named(
                        memory,
                        inferred,
                        authors.get(memory.id),
                        said,
                        former,
                        line is not None and blame.mentions_line(memory.body, said, line),
                        changed,
                    )
                )
        # Those naming the line first; newest first within each.
        found.sort(key=lambda named: not named.mentions_line)
        return blame.Blame(
            path,
            line,
            tracked,
            line_commit,
            line_when,
            tuple((f.name, _when(f.renamed)) for f in formers),
            tuple(found[: blame.MOST]),
            len(found),
        )

    def paths_in(self, text: str) -> list[str]:
        """The paths drift reads in `text`, in order, once each (drift/paths.py)."""
        from synapse_git.drift.paths import find_paths

        return find_paths(text)

    def memory_page(self, memory_id: int, scope: Scope) -> MemoryPage:
        """One memory with its anchor, the paths it names as they are now and what
        changed in them since the anchor, its supersession chain and team status."""
        from synapse_git.service.memory_show import MemoryPage

        if not self._exists():
            raise NotFound(f"no memory {memory_id} is visible from here")
        found = self.history(memory_id, scope)
        memory = found.memory
        with self.connection(create=False) as conn:
            row = conn.execute(
                "SELECT anchor_inferred FROM memories WHERE id = ?", (memory.id,)
            ).fetchone()
            team = None
            if memory.project is not None:
                shared = shared_table.shared_rows(conn, memory.project).values()
                mine = next((r for r in shared if r.memory_id == memory.id), None)
                if mine is not None:
                    team = self._team_status(scope, mine)
        paths = self._paths_now(scope, memory)
        return MemoryPage(found, bool(row and row[0]), paths, team)

    def _team_status(self, scope: Scope, row: shared_table.SharedRow) -> TeamStatus:
        from synapse_git.service.memory_show import TeamStatus

        in_file: bool | None = None
        state: str | None = None
        if scope.checkout is not None:
            try:
                held, _ = records.read_team(scope.checkout)
            except BadInput:
                held = None  # a team file that is a link or too large: not read
            if held is not None:
                record = held.get(row.uid)
                in_file, state = record is not None, None if record is None else record.state
        return TeamStatus(row.uid, row.author, row.origin, in_file, state)

    def _paths_now(self, scope: Scope, memory: memories.Memory) -> list[PathNow]:
        from synapse_git.drift import changed_since
        from synapse_git.drift.paths import find_paths
        from synapse_git.service.memory_show import PathNow

        named = find_paths(memory.body)
        if not named:
            return []
        if scope.checkout is None or memory.project != scope.project:
            return [PathNow(path, "outside") for path in named]
        from synapse_git.drift.short_forms import Tree
        from synapse_git.drift.staleness import CheckoutPaths

        root = scope.checkout
        checkout = CheckoutPaths(scope, wait=True)
        tree = Tree(git_command.tracked_files(root))
        states = [checkout.check(path, memory.head_commit) for path in named]
        files = {path: changed_since.resolved(path, tree) for path in named}
        churn: dict[str, changed_since.Churn] = {}
        wanted = sorted({file for file in files.values() if file is not None})
        if memory.head_commit and wanted:
            churn = changed_since.churn_since(root, memory.head_commit, wanted) or {}
        found = []
        for path, state in zip(named, states, strict=True):
            file = files[path]
            counted = churn.get(file) if file is not None else None
            found.append(
                PathNow(
                    path,
                    state.status,
                    state.renamed_to,
                    state.deleted,
                    state.note,
                    file,
                    None if counted is None else counted.commits,
                    None if counted is None else counted.lines,
                )
            )
        return found


def _ancestor(root: Any, commit: str, of: str) -> bool:
    done = git_command.git(["merge-base", "--is-ancestor", commit, of], root)
    return done.returncode == 0


def _when(event: Any) -> str:
    from synapse_git.drift.lineage import when

    return when(event)
