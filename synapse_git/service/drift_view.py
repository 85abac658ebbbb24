"""What the viewer's drift page shows: the findings now and their counts over time
(docs/ui.md)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.session import drift_log
from synapse_git.session.snapshot_file import snapshot_path

if TYPE_CHECKING:
    from synapse_git.drift.findings import Report


@dataclass(frozen=True)
class DriftOverview:
    report: Report
    # The counts each refresh of this checkout found, oldest first (session/drift_log.py).
    history: list[drift_log.Point]


class DriftView(StoreAccess):
    def drift_stamp(self, scope: Scope) -> str:
        """What the findings here depend on and can be read cheaply: the store's version
        (store/readonly.py), HEAD and the time of git's index. A change to a file left
        out of the index is not in it."""
        from contextlib import closing

        from synapse_git.git import project_scope
        from synapse_git.store import readonly

        version = ""
        if self._exists():
            conn = readonly.open_readonly(self.config.db_path)
            if conn is not None:
                with closing(conn):
                    version = readonly.store_version(conn)
        head = project_scope.head(scope).commit if scope.project is not None else None
        index = ""
        if scope.git_dir is not None:
            with suppress(OSError):
                index = str((Path(scope.git_dir) / "index").stat().st_mtime_ns)
        return f"{version}|{head}|{index}"

    def drift_overview(self, scope: Scope) -> DriftOverview:
        """Every finding `memory drift` gives here, and the counts over time."""
        report = self.drift(scope)
        key = str(scope.checkout or scope.folder)
        log = drift_log.log_path(snapshot_path(self.config.data_dir, key))
        return DriftOverview(report, drift_log.read(log))
