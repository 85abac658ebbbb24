"""examples/benchmarks.py end to end in its quick mode, and docs/benchmarks.md against the
results file it was written from: every figure on the page comes from that one run."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from xml.etree import ElementTree

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "benchmarks.py"
FIGURES = ROOT / "docs" / "benchmarks"
PAGE = ROOT / "docs" / "benchmarks.md"
SVG = "{http://www.w3.org/2000/svg}"
PICTURES = {
    "search-selective.svg",
    "search-rare.svg",
    "search-common.svg",
    "ingest.svg",
    "startup.svg",
    "hooks.svg",
}


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_picture(path: Path, results: dict[str, Any]) -> None:
    """Well-formed SVG that names the machine, the load and the versions of its run."""
    root = ElementTree.parse(path).getroot()
    assert root.tag == f"{SVG}svg", path
    text = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert f"machine: {results['machine']}" in text, path
    assert any(line.startswith("load average (1, 5, 15 min): ") for line in text), path
    assert any(f"synapse {results['versions']['synapse']}" in line for line in text), path


# A real run of the benchmarks, quick as it is: tens of seconds on a busy machine.
@pytest.mark.slow
def test_the_quick_run_writes_results_and_pictures(tmp_path: Path) -> None:
    out = tmp_path / "figures"
    page = tmp_path / "page.md"
    page.write_text("# Benchmarks\n\nbefore\n\nBEGIN\nold\nEND\n\nafter\n", encoding="utf-8")
    module = script()
    page.write_text(
        page.read_text(encoding="utf-8").replace("BEGIN", module.BEGIN).replace("END", module.END),
        encoding="utf-8",
    )
    quick = ["--quick", "--kg", "none", "--rounds", "3", "--out", str(out), "--page", str(page)]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *quick],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["mode"] == "quick"
    assert [row["notes"] for row in results["sizes"]] == module.QUICK_SIZES
    for row in results["sizes"]:
        for key in ("selective/synapse", "selective/floor", "common/synapse", "common/floor"):
            assert row[key]["runs"] == 3 and row[key]["cpu_ms"]["p50"] > 0, key
        for key in ("selective/synapse_mcp", "common/synapse_mcp", "remember/synapse_mcp"):
            assert row[key]["wall_ms"]["p50"] > 0, key
        # The server runs each call on a thread that then ends: its CPU is counted
        # all the same, so a recall served costs at least half of one in process.
        served, own = row["selective/synapse_mcp"], row["selective/synapse"]
        assert served["cpu_ms"]["p50"] >= own["cpu_ms"]["p50"] / 2, (served, own)
        assert row["ingest"]["synapse"]["cpu_s_per_1000"] > 0
        assert row["store"]["db_to_text"] > 1
        assert "kg_mcp" not in json.dumps(row)
    assert any("mcp-server-memory" in line for line in results["not_run"])
    commands = results["startup"]["commands"]
    assert results["startup"]["notes"] == module.QUICK_SIZES[-1]
    assert {"synapse --version", "synapse memory read ID", "synapse hook session"} <= set(commands)
    assert all(c["wall_ms"]["p50"] > 0 and c["cpu_ms"]["p50"] > 0 for c in commands.values())
    hooks = results["hooks"]
    assert hooks["git commit of a one-file change"]["with_hook"]["runs"] == 3
    assert {p.name for p in out.glob("*.svg")} == PICTURES
    for picture in out.glob("*.svg"):
        check_picture(picture, results)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert module.tables(results) in text


def test_the_page_shows_the_committed_results() -> None:
    results = json.loads((FIGURES / "results.json").read_text(encoding="utf-8"))
    module = script()
    text = PAGE.read_text(encoding="utf-8")
    assert text.count(module.BEGIN) == 1
    assert module.tables(results) in text, "rerun: python examples/benchmarks.py --render ..."
    drawn = module.pictures(results)
    assert set(drawn) == PICTURES == {p.name for p in FIGURES.glob("*.svg")}
    for name, svg in drawn.items():
        assert (FIGURES / name).read_text(encoding="utf-8") == svg, name
        check_picture(FIGURES / name, results)


def test_a_page_without_the_markers_is_refused(tmp_path: Path) -> None:
    results = json.loads((FIGURES / "results.json").read_text(encoding="utf-8"))
    page = tmp_path / "page.md"
    page.write_text("# A page\n", encoding="utf-8")
    (tmp_path / "results.json").write_text(json.dumps(results), encoding="utf-8")
    render = ["--render", str(tmp_path / "results.json"), "--page", str(page)]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *render],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0 and "no " in done.stderr
    assert page.read_text(encoding="utf-8") == "# A page\n"
