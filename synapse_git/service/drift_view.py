"""What the viewer's drift page shows: a whole drift check kept in the data folder with
the stamp of what it depends on, and the counts of each refresh over time (docs/ui.md)."""

from __future__ import annotations

import json
import time
from contextlib import closing, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from synapse_git.data_folder import replace_file
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.session.snapshot_file import Held, snapshot_path

if TYPE_CHECKING:
    from synapse_git.answers import DriftCheckOut

# The kept check's file format; another one is worked out again.
CHECK_FORMAT = 1


class DriftView(StoreAccess):
    def drift_stamp(self, scope: Scope) -> str:
        """What the findings here depend on and can be read cheaply: the store's version
        (store/readonly.py), HEAD and the time of git's index. A change to a file left
        out of the index is not in it."""
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

    def _check_file(self, scope: Scope) -> tuple[str, Path]:
        # Beside the checkout's session snapshot, as `.json`: a purge removes it with them.
        key = str(scope.checkout or scope.folder)
        return key, snapshot_path(self.config.data_dir, key).with_suffix(".check.json")

    def keep_drift(self, scope: Scope) -> DriftCheckOut:
        """A whole drift check (what `memory drift` gives here), kept in the data folder
        with its stamp, read before the check so that a change made during it is seen
        as one afterwards. It quotes memories as a snapshot does: the snapshots' lock
        is held from the first read to the write, so a purge waits for it."""
        with Held(self.config.data_dir):
            stamp = self.drift_stamp(scope)
            started = time.perf_counter()
            report = self.drift(scope)
            took = time.perf_counter() - started
            done: DriftCheckOut = {
                "stamp": stamp,
                "at": time.time(),
                "took": round(took, 4),
                "report": cast("Any", report.as_json()),
            }
            key, path = self._check_file(scope)
            with suppress(OSError):  # kept for the next run when it can be; shown either way
                replace_file(path, json.dumps({"format": CHECK_FORMAT, "checkout": key, **done}))
        return done

    def kept_drift(self, scope: Scope) -> DriftCheckOut | None:
        """The check `keep_drift` last kept here, or None (none, unreadable, foreign)."""
        key, path = self._check_file(scope)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("format") != CHECK_FORMAT:
            return None
        report = data.get("report")
        if data.get("checkout") != key or not isinstance(report, dict):
            return None
        if not isinstance(report.get("findings"), list) or not isinstance(data.get("stamp"), str):
            return None
        if not all(isinstance(data.get(n), int | float) for n in ("at", "took")):
            return None
        return {
            "stamp": data["stamp"],
            "at": float(data["at"]),
            "took": float(data["took"]),
            "report": cast("Any", report),
        }

    def drift_over_time(
        self, scope: Scope, kinds: tuple[str, ...], last: int
    ) -> list[tuple[str, list[int]]]:
        """The counts of `kinds` each of the `last` refreshes of this checkout found,
        oldest first, with their dates (session/drift_log.py)."""
        key = str(scope.checkout or scope.folder)
        from synapse_git.session import drift_log

        points = drift_log.read(drift_log.log_path(snapshot_path(self.config.data_dir, key)))
        return drift_log.of(points[-last:], kinds)
