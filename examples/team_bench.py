"""Team memory benchmark: syncing a team file of N shared memories into a store, in
temporary folders that are removed afterwards.

    python examples/team_bench.py [MEMORIES]   (default 10000)

Prints JSON: the first sync as a user meets it (`synapse memory sync` in a new
process, start-up and a new store included, wall and the child's CPU seconds),
then, in this process: the first sync (every line new), a repeated sync of the same file
(its digest is unchanged), a sync after ten lines changed, after every line was
edited and after every line was forgotten, and the merge of two versions that
each added a hundred memories, each as CPU and wall seconds.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from arguments import counts


def _timed(step: object) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = step()  # type: ignore[operator]
    return time.process_time() - cpu, time.perf_counter() - wall, result


def _command_sync(repo: Path, data: Path) -> dict[str, float]:
    """`synapse memory sync` run as the post-merge hook runs it: a new process."""
    before = os.times()
    wall = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "synapse_git", "memory", "sync"],
        cwd=repo,
        env={**os.environ, "SYNAPSE_DATA": str(data)},
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - wall
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}


def main() -> None:
    # The ten lines changed are every 97th, up to line 873.
    (count,) = counts(__doc__, None, MEMORIES=(10000, 874, None))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SYNAPSE_DATA"] = str(Path(tmp) / "data")
        from synapse_git.service import Synapse
        from synapse_git.team import records
        from synapse_git.team.merge import merge_files
        from synapse_git.team.records import Record

        repo = Path(tmp) / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        shared = [
            Record(
                uuid.uuid4().hex,
                f"Note {n}: the service area{n % 40} keeps its queue depth under {n % 500}.",
                f"docs/area{n % 40}.md",
                "Bench <bench@example.com>",
                "2026-01-01T00:00:00+00:00",
                "2026-01-01T00:00:00+00:00",
                None,
                "live",
            )
            for n in range(count)
        ]
        path = repo / records.FILE
        records.write(path, shared)
        svc = Synapse()
        scope = svc.scope(repo)
        figures: dict[str, object] = {
            "memories": count,
            "python": platform.python_version(),
            "load": os.getloadavg()[0],
        }
        figures["first sync, synapse memory sync"] = _command_sync(repo, Path(tmp) / "cli")
        cpu, wall, report = _timed(lambda: svc.sync_team(scope))
        figures["first sync"] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
        cpu, wall, _ = _timed(lambda: svc.sync_team(scope))
        figures["same file again"] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
        for n in range(10):
            shared[n * 97] = shared[n * 97]._replace(body=f"Changed note {n}.")
        records.write(path, shared)
        cpu, wall, report = _timed(lambda: svc.sync_team(scope))
        figures["ten lines changed"] = {
            "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3),
            "updated": len(report.updated),  # type: ignore[attr-defined]
        }
        edited = [r._replace(body=r.body + " Edited.") for r in shared]
        for step, lines in (
            ("every line edited", edited),
            ("every line forgotten", [r._replace(state="forgotten") for r in edited]),
        ):
            records.write(path, lines)
            cpu, wall, report = _timed(lambda: svc.sync_team(scope))
            figures[step] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
        base, ours, theirs = (Path(tmp) / name for name in ("base", "ours", "theirs"))
        records.write(base, shared)
        extra = [r._replace(id=uuid.uuid4().hex) for r in shared[:200]]
        records.write(ours, shared + extra[:100])
        records.write(theirs, shared + extra[100:])
        cpu, wall, _ = _timed(lambda: merge_files(base, ours, theirs, records.FILE))
        figures["merge driver"] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
