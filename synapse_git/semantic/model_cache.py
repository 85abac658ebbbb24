"""The optimized model kept on disk, so a process loads it instead of optimizing it
again (docs/semantic.md, "The optimized model on disk").

onnxruntime optimizes the model's graph when it loads it: the int8 weights are
folded into float32 ones, about 300 ms of CPU, which the MCP server and `memory
embed` pay at start and a command avoids by running the graph as written (the
quick model), whose every run widens the weights again (about 60 ms). The first
process that optimizes it also writes the optimized graph to the cache folder
(`$XDG_CACHE_HOME/synapse`, else `~/.cache/synapse`), its weights in a file beside
it, in a folder named by the model's sha256 and onnxruntime's version; any later
process, a command too, loads that in about 40 ms and runs it in 5. Its vectors
are the optimized model's, bit for bit.

A folder is written under a temporary name and renamed whole, with a record of
its two files' device, inode, size and times: a folder whose files are not the
ones recorded (one cut short, changed, or put there by hand) is not loaded, and
the next process that optimizes the model writes it again. A folder loaded has its
record's time set to now; the folders of other models or runtimes that no process
loaded for UNUSED_AFTER_S are removed then (two installs of other versions on one
machine each keep theirs). Nothing here raises: a cache that cannot be read or
written leaves the model loaded as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synapse_git.semantic.model_stamp import identity, small_file

GRAPH = "model.onnx"
WEIGHTS = "weights.bin"
MADE = "made.json"
PREFIX = "model-"
RECORD_BYTES = 4096  # a record is about 300 bytes
PROVIDERS = ["CPUExecutionProvider"]
# A temporary folder this old was left by a process killed while writing it.
LEFT_AFTER_S = 3600
# Another model's or runtime's folder no process loaded for this long is removed.
UNUSED_AFTER_S = 14 * 24 * 3600


def root() -> Path | None:
    """`$XDG_CACHE_HOME/synapse`, else `~/.cache/synapse`; None when neither is known."""
    named = os.environ.get("XDG_CACHE_HOME", "")
    if named and os.path.isabs(named) and "\0" not in named:
        return Path(named) / "synapse"
    try:
        return Path.home() / ".cache" / "synapse"
    except RuntimeError:  # no home folder to be found
        return None


def folder(sha256: str, runtime: str) -> Path | None:
    base = root()
    safe = "".join(c for c in runtime if c.isalnum() or c in ".-")[:40]
    return None if base is None else base / f"{PREFIX}{sha256[:16]}-ort{safe}"


def _record(where: Path) -> dict[str, Any] | None:
    """The two files' identities, or None when one is missing."""
    found = {name: identity(where / name, follow=False) for name in (GRAPH, WEIGHTS)}
    return None if None in found.values() else found


def _recorded(where: Path) -> dict[str, Any] | None:
    """The record the folder was written with (a small regular file, not followed
    if it is a link, never waited on if it is a FIFO)."""
    try:
        doc = json.loads(small_file(where / MADE, RECORD_BYTES))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def load(onnxruntime: Any, options: Any, where: Path | None) -> Any | None:
    """The optimized model from `where` (an InferenceSession), or None when there is
    none, or not the one recorded, or onnxruntime refuses it."""
    if where is None or not where.is_dir():
        return None
    record = _record(where)
    if record is None or _recorded(where) != record:
        return None
    # Already optimized: optimizing again would only cost the time saved.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = onnxruntime.InferenceSession(str(where / GRAPH), options, providers=PROVIDERS)
    except Exception:  # onnxruntime raises its own types; the model is loaded as before
        return None
    with contextlib.suppress(OSError):
        os.utime(where / MADE)  # in use: not removed as unused by another install
    return session


def build(onnxruntime: Any, options: Callable[[], Any], model: Path, where: Path | None) -> Any:
    """The model optimized (an InferenceSession), written to `where` on the way when
    it can be; `options` makes the session options."""
    building = _start(where)
    if building is not None and where is not None:
        chosen = options()
        chosen.optimized_model_filepath = str(building / GRAPH)
        # The weights in a file beside the graph: read out of the graph's own file
        # they took four times as long to load (160 ms of CPU against 40).
        chosen.add_session_config_entry(
            "session.optimized_model_external_initializers_file_name", WEIGHTS
        )
        chosen.add_session_config_entry(
            "session.optimized_model_external_initializers_min_size_in_bytes", "1024"
        )
        try:
            session = onnxruntime.InferenceSession(str(model), chosen, providers=PROVIDERS)
        except Exception:  # onnxruntime raises its own types: optimized as before, below
            shutil.rmtree(building, ignore_errors=True)
        else:
            _finish(building, where)
            return session
    return onnxruntime.InferenceSession(str(model), options(), providers=PROVIDERS)


def _start(where: Path | None) -> Path | None:
    """A new temporary folder beside `where`, or None when none can be made."""
    if where is None:
        return None
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=".building-", dir=where.parent))
    except OSError:
        return None


def _finish(building: Path, where: Path) -> None:
    """Record the files written in `building` and put it in `where`'s place; older
    folders of other models or runtimes go, and what a killed process left."""
    try:
        record = _record(building)
        if record is None:
            raise OSError("the optimized model was not written")
        (building / MADE).write_text(json.dumps(record), encoding="utf-8")
        if where.exists() or where.is_symlink():
            # Another process's folder, or one whose files are not the recorded ones.
            stale = Path(tempfile.mkdtemp(prefix=".stale-", dir=where.parent))
            os.replace(where, stale / "old")
            shutil.rmtree(stale, ignore_errors=True)
        os.replace(building, where)
    except OSError:
        shutil.rmtree(building, ignore_errors=True)
        return
    for other in where.parent.glob(f"{PREFIX}*"):
        if other != where and other.is_dir() and not other.is_symlink() and _unused(other):
            shutil.rmtree(other, ignore_errors=True)
    for other in (*where.parent.glob(".building-*"), *where.parent.glob(".stale-*")):
        try:
            left = time.time() - other.lstat().st_mtime > LEFT_AFTER_S
        except OSError:
            continue
        if left and other.is_dir() and not other.is_symlink():
            shutil.rmtree(other, ignore_errors=True)


def _unused(folder: Path) -> bool:
    """Whether no process loaded `folder` for UNUSED_AFTER_S (or it has no record)."""
    try:
        loaded = os.lstat(folder / MADE).st_mtime
    except OSError:
        return True
    return time.time() - loaded > UNUSED_AFTER_S
