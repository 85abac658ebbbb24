"""The real-repository drift sets and the scoring of examples/drift_real.py."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "examples" / "drift_real"
NAMES = ("pip", "flask", "click", "requests", "express", "cli", "axum", "moshi", "jq")


def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("drift_real", ROOT / "examples" / "drift_real.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["drift_real"] = module
    spec.loader.exec_module(module)
    return module


def load(name: str, half: str) -> tuple[list[dict[str, str]], dict[str, Any]]:
    rows = [json.loads(x) for x in (SETS / f"{name}.{half}.jsonl").read_text("utf-8").splitlines()]
    return rows, json.loads((SETS / f"{name}.{half}.labels.json").read_text("utf-8"))


@pytest.mark.parametrize("name", NAMES)
def test_each_set_is_whole_and_its_halves_are_apart(name: str) -> None:
    bodies: set[str] = set()
    anchors = set()
    for half in ("dev", "test"):
        rows, labels = load(name, half)
        anchors.add(labels["anchor"])
        keys = [row["key"] for row in rows]
        assert keys == list(labels["memories"]), "every memory labelled, in order"
        for row in rows:
            assert row["body"].strip() not in bodies, f"{row['key']} repeats another body"
            bodies.add(row["body"].strip())
        for pair in labels["conflicts"] + labels["alike"]:
            assert len(pair) == 2 and set(pair) <= set(keys), f"{pair} crosses the halves"
        for memory in labels["memories"].values():
            for path in memory["paths"]:
                if path.get("stale") and path["kind"] == "path":
                    assert path["anchor_path"], path
                if path["kind"] in ("abs", "absent", "planned"):
                    assert path["stale"] is False, path
    assert len(anchors) == 1
    assert 80 <= len(bodies) <= 250


def test_scoring_counts_paths_renames_pairs_and_noise() -> None:
    module = harness()
    labels = {
        "memories": {
            "a": {
                "paths": [
                    {
                        "kind": "path",
                        "written": "db.py",
                        "anchor_path": "src/db.py",
                        "stale": True,
                        "now": "src/store/db.py",
                    }
                ]
            },
            "b": {
                "paths": [
                    {
                        "kind": "path",
                        "written": "src/gone.py",
                        "anchor_path": "src/gone.py",
                        "stale": True,
                        "now": None,
                    }
                ]
            },
            "c": {"paths": [{"kind": "abs", "written": "/srv/app", "stale": False}]},
            "d": {"paths": [{"kind": "planned", "written": "src/new.py", "stale": False}]},
            "e": {"paths": []},
            "f": {"paths": []},
        },
        "conflicts": [["e", "f"]],
        "alike": [],
    }
    ids = {1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f"}
    findings = [
        {"kind": "stale", "ids": [1], "paths": ["db.py"], "renamed": {"db.py": "store/db.py"}},
        {"kind": "stale", "ids": [3], "paths": ["/srv/app"]},
        {"kind": "unverified", "ids": [4], "paths": ["src/new.py"]},
        {"kind": "unverified", "ids": [5], "paths": [".html"]},
        {"kind": "conflict", "ids": [6, 5]},
        {"kind": "conflict", "ids": [2, 1]},
    ]
    got = module.score(findings, ids, labels)
    assert (got["stale_found"], got["stale_predicted"], got["stale_labelled"]) == (1, 2, 2)
    assert got["stale_missed"] == ["b: src/gone.py"]
    assert (got["renames_right"], got["renames_total"], got["renames_for_deleted"]) == (1, 1, 0)
    assert (got["conflicts_right"], got["conflicts_predicted"]) == (1, 2)
    assert (got["unverified_noise"], got["unverified_expected"]) == (1, 1)
    session = (
        "Left out: 2 stale (a path they name is gone: 1, 3);"
        " 1 older half of a conflict: 1 (contradicted by 2). See"
    )
    left = module.left_out(session, ids, labels)
    assert left["left_out"] == 2
    assert left["left_out_wrongly_list"] == ["c (stale)"]


def test_a_replacement_counts_as_the_successor_it_names() -> None:
    """`replaced` (a file of the name in another format, docs/drift.md) names a
    successor as a rename does: right when the labels have it, wrong for a file the
    labels call deleted."""
    module = harness()
    stale = {"kind": "path", "stale": True}
    labels = {
        "memories": {
            "a": {
                "paths": [
                    {
                        **stale,
                        "written": "CHANGES.rst",
                        "anchor_path": "CHANGES.rst",
                        "now": None,
                        "also_right": ["CHANGES.md"],
                    }
                ]
            },
            "b": {
                "paths": [{**stale, "written": "logo.png", "anchor_path": "logo.png", "now": None}]
            },
        },
        "conflicts": [],
        "alike": [],
    }
    findings = [
        {
            "kind": "stale",
            "ids": [1],
            "paths": ["CHANGES.rst"],
            "replaced": {"CHANGES.rst": {"by": "CHANGES.md", "added": "0123456789 (2026-06-06)"}},
        },
        {
            "kind": "stale",
            "ids": [2],
            "paths": ["logo.png"],
            "replaced": {"logo.png": {"by": "logo.svg", "added": "0123456789 (2026-06-06)"}},
        },
    ]
    got = module.score(findings, {1: "a", 2: "b"}, labels)
    assert (got["renames_right"], got["renames_total"], got["renames_for_deleted"]) == (1, 1, 1)


def test_pair_verdicts_of_a_half_against_its_labels() -> None:
    """examples/drift_real_pairs.py: the rules find the Go set's dev conflicts,
    corrections that drop a tool among them, and no other pair."""
    spec = importlib.util.spec_from_file_location(
        "drift_real_pairs", ROOT / "examples" / "drift_real_pairs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    got = module.half("cli", "dev")
    assert (got["right"], got["found"], got["labelled"]) == (7, 7, 7)
    assert got["false"] == [] and got["missed"] == []


def test_one_path_reported_answers_each_form_the_memory_wrote_it_in() -> None:
    """A memory naming `src/serve.rs` and `src/serve.rs:92` names one file: the one
    stale finding for it finds both labels, and its rename answers both."""
    module = harness()
    stale = {"kind": "path", "stale": True, "anchor_path": "src/serve.rs"}
    now = {"now": "src/serve/mod.rs"}
    labels = {
        "memories": {
            "a": {
                "paths": [
                    {**stale, **now, "written": "src/serve.rs"},
                    {**stale, **now, "written": "src/serve.rs:92"},
                ]
            }
        },
        "conflicts": [],
        "alike": [],
    }
    findings = [
        {
            "kind": "stale",
            "ids": [1],
            "paths": ["src/serve.rs"],
            "renamed": {"src/serve.rs": "src/serve/mod.rs"},
        }
    ]
    got = module.score(findings, {1: "a"}, labels)
    assert (got["stale_found"], got["stale_predicted"], got["stale_labelled"]) == (2, 2, 2)
    assert (got["renames_right"], got["renames_total"]) == (2, 2)


def test_conflict_notes_of_other_stacks_against_their_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """examples/conflict_notes.py: every set loads, every labelled pair names two of
    its notes, and the probe's labelled pairs are found, and no other pair."""
    monkeypatch.syspath_prepend(str(ROOT / "examples"))  # its `arguments` module
    spec = importlib.util.spec_from_file_location(
        "conflict_notes", ROOT / "examples" / "conflict_notes.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in module.NAMES:
        data = json.loads((module.SETS / f"{name}.json").read_text("utf-8"))
        count = len(data["notes"])
        assert all(0 <= i < count for pair in data["conflicts"] for i in pair)
    got = module.measure("probe")
    assert (got["right"], got["found"], got["labelled"]) == (8, 8, 8)
