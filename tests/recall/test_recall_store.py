"""The store additions recall relies on: live tallies kept by triggers (schema 2)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import Any

from support import old_store

from synapse_git.service import Synapse
from synapse_git.store import database, integrity


def test_a_schema_1_store_gains_tallies_of_its_live_rows(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with closing(old_store(path, 1)) as conn:
        for n, (project, state) in enumerate(
            [(None, "live"), (None, "forgotten"), ("/p", "live"), ("/p", "live")]
        ):
            conn.execute(
                "INSERT INTO memories (body, project, created_at, updated_at, norm, state)"
                " VALUES (?, ?, 'now', 'now', ?, ?)",
                (f"body {n}", project, str(n), state),
            )
    with closing(database.connect(path)) as conn:
        assert dict(conn.execute("SELECT project, live FROM tallies")) == {"": 1, "/p": 2}
        assert integrity.check(conn).ok


def test_tallies_follow_every_lifecycle_change(repo: Path, outside: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    a = svc.remember("first", here).id
    b = svc.remember("second", here).id
    svc.remember("third", here, is_global=True)
    svc.forget(a, here)
    svc.remember("fourth", here, supersedes=b)
    svc.restore(a, here)
    assert svc.recall("", here).searched == 3  # first, third, fourth
    assert svc.recall("", svc.scope(outside)).searched == 1
    report = svc.check()
    assert report.ok, report.problems
    with closing(database.connect(svc.config.db_path)) as conn:
        conn.execute("UPDATE tallies SET live = 99")
        assert not integrity.check(conn).ok
        integrity.repair(conn)
        assert integrity.check(conn).ok


ROOT = Path(__file__).resolve().parents[2]


def example_report(script: str, *args: str) -> dict[str, Any]:
    """The JSON report of `python examples/SCRIPT ARGS`, which must succeed."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_retrieval_benchmark_runs_and_prints_its_report() -> None:
    report = example_report("retrieval.py", "1000", "2")
    for key in ("selective_recall", "common_term_recall", "recent_scoped_recall", "read_page"):
        assert {"p50_ms", "p95_ms", "max_ms", "response_bytes"} <= set(report[key])
        assert report[key]["floor_ratio"] > 0
    assert {"python", "sqlite", "seed_s", "open_ms", "db_bytes"} <= set(report)
    assert {"selective", "common_term"} == set(report["floor"])


def test_import_benchmark_runs_and_prints_its_report() -> None:
    report = example_report("import_bench.py", "1000", "50", "3")
    assert report["imported"] == 50
    assert {"import_cpu_s_per_1000", "remember_p50_ms", "load_average"} <= set(report)


def test_rewording_benchmark_times_a_baseline_checkout_and_prints_the_ratios() -> None:
    import sys

    report = example_report(
        "rewording_bench.py",
        "1000",
        "2",
        "--baseline",
        str(ROOT),
        "--baseline-python",
        sys.executable,
    )
    assert report["baseline_code"] == str(ROOT / "synapse_git")
    assert {"p95_ms", "cpu_p95_ms"} <= set(report["baseline"])
    for count in range(5):
        entry = report[f"rewordings_{count}"]
        assert set(entry["p95_over_baseline"]) == {"wall", "cpu"}
        assert entry["limit_compounded"] == round(1.5**count, 3)
        assert entry["limit_added"] == 1 + 0.5 * count


def test_scale_benchmark_times_three_words_at_two_sizes_beside_a_baseline() -> None:
    import sys

    report = example_report(
        "scale_bench.py",
        "2",
        "--sizes",
        "1000",
        "2000",
        "--baseline",
        str(ROOT),
        "--baseline-python",
        sys.executable,
    )
    assert report["baseline_code"] == str(ROOT / "synapse_git")
    assert set(report["sizes"]) == {"1000", "2000"}
    for row in report["sizes"].values():
        for side in ("this", "baseline"):
            assert set(row[side]) == {"rare", "selective", "common"}
            assert {"cpu_p50_ms", "p95_ms"} <= set(row[side]["rare"])
    assert set(report["growth"]["this"]["rare"]) == {"1000", "2000"}
    assert report["growth"]["baseline"]["common"]["1000"] == 1.0
