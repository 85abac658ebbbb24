"""Where one warm recall's CPU time goes, in process, with and without the dense list.

    python examples/semantic_profile.py DATA_FOLDER FOLDER [ROUNDS [REWORDINGS]]

Asks the questions of examples/semantic/*.toml ROUNDS times (default 2) of the
store in DATA_FOLDER (SYNAPSE_DATA; e.g. one kept from examples/semantic_bench.py's
build) as seen from FOLDER, after one warm-up recall, and prints JSON: the CPU
milliseconds a recall spends in total and in each part (the lexical rankings,
embedding the question, its product with the matrix, the nearest vectors, the
cosines of the lexical candidates, fusing, the vector reload check, the on/off
state, building the answer). A part is the CPU of the thread it ran on: the
question's embedding and its product run on a thread of their own beside the
lexical rankings (semantic/engine.py), so the parts add up to more than the
process's total when they overlap. The rest of a warm MCP recall is the
server's own work per call.
Set SYNAPSE_SEMANTIC=off for the lexical recall alone. With REWORDINGS (a
number), the questions of tests/recall/sets/blind-a.json are asked instead,
each with its first REWORDINGS rewordings.
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arguments

HERE = Path(__file__).parent


def main() -> None:
    parser = arguments.parser(__doc__)
    parser.add_argument("data", type=Path, metavar="DATA_FOLDER")
    parser.add_argument("folder", type=Path, metavar="FOLDER")
    parser.add_argument("rounds", nargs="?", type=int, default=2, metavar="ROUNDS")
    parser.add_argument("reworded", nargs="?", type=int, default=0, metavar="REWORDINGS")
    args = parser.parse_args()
    data, folder, rounds, reworded = args.data, args.folder, args.rounds, args.reworded
    # An existing store only: a new one would be built, and measured, empty.
    if not (data / "memory.db").is_file():
        parser.error(f"{data} holds no store (memory.db)")
    if not folder.is_dir():
        parser.error(f"{folder} is not a folder")
    if rounds < 1 or reworded < 0:
        parser.error("ROUNDS must be at least 1 and REWORDINGS at least 0")
    os.environ["SYNAPSE_DATA"] = str(data)
    from synapse_git.recall import response, rewordings
    from synapse_git.semantic import engine, model, vectors
    from synapse_git.service import Synapse

    spent: dict[str, float] = {}

    def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.thread_time() - started

        return run

    for owner, name, label in [
        (rewordings, "search", "lexical"),
        (model.Model, "embed", "embed_question"),
        (vectors.VectorMatrix, "scored", "dense_product"),
        (vectors.VectorMatrix, "nearest_in", "nearest"),
        (vectors.VectorMatrix, "of", "cosines_of_candidates"),
        (vectors.VectorMatrix, "refresh", "reload_check"),
        (engine.fusion, "fuse", "fuse"),
        (engine.Semantic, "state", "state"),
        (response, "build", "build_answer"),
    ]:
        setattr(owner, name, timed(label, getattr(owner, name)))
    asked: list[tuple[str, list[str]]] = []
    # The dev and test sets; the fresh one is for quality only (semantic_eval.py).
    for path in sorted(
        p for split in ("dev", "test") for p in (HERE / "semantic").glob(f"{split}-*.toml")
    ):
        asked += [(case["query"], []) for case in tomllib.loads(path.read_text("utf-8"))["case"]]
    if reworded:
        blind = HERE.parent / "tests" / "recall" / "sets" / "blind-a.json"
        said = json.loads(blind.read_text("utf-8"))
        asked = [(query, alternatives[:reworded]) for query, alternatives in said.items()]
    # Long-lived, as the MCP server is: it keeps what it reads and loads the optimized model.
    svc = Synapse(long_lived=True)
    scope = svc.scope(folder)
    load = os.getloadavg()[0]
    semantic = svc.recall(asked[0][0], scope, alternatives=asked[0][1]).semantic
    spent.clear()
    calls = len(asked) * rounds
    started = time.process_time()
    for n in range(calls):
        query, alternatives = asked[n % len(asked)]
        svc.recall(query, scope, alternatives=alternatives)
    total = time.process_time() - started
    report = {
        "semantic": semantic,
        "rewordings": reworded,
        "calls": calls,
        "recall_cpu_ms": round(total / calls * 1000, 2),
    }
    report |= {name: round(value / calls * 1000, 2) for name, value in spent.items()}
    report["load_average_1min"] = [round(load, 2), round(os.getloadavg()[0], 2)]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
