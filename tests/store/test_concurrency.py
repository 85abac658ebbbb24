"""Concurrent writer processes against one store lose nothing (examples/stress.py, short)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

STRESS = Path(__file__).resolve().parents[2] / "examples" / "stress.py"


def stress(tmp_path: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(STRESS), "--under", str(tmp_path), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.stdout, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    assert done.returncode == 0, json.dumps(report, ensure_ascii=False)
    return report


@pytest.mark.slow
def test_eight_writer_processes_lose_nothing_and_never_see_a_lock(tmp_path: Path) -> None:
    # Service, CLI and MCP writers take turns (3, 3 and 2 processes); the store does not
    # exist yet, so all eight also race to create it.
    report = stress(
        tmp_path,
        "--writers",
        "8",
        "--memories",
        "15",
        "--shell-every",
        "10",
        "--kinds",
        "service,cli,mcp",
    )
    assert report["writers"] == 8
    assert report["kinds"] == {"service": 3, "cli": 3, "mcp": 2}
    assert report["returned"] == report["present"] == 120
    assert report["lost"] == report["wrong_text"] == 0
    assert report["errors"] == report["locked"] == 0
    assert report["check_exit"] == 0
    assert report["searches"] == report["reads"] == 120
