"""The answers recall gives with the semantic extra to every question of the labeled
sets, to check that a change to how the dense list is computed leaves them as they were.

    python examples/semantic_answers.py [--one-shot] > ANSWERS
    python examples/semantic_answers.py --compare BEFORE AFTER

Builds a temporary store of the example memories (synapse_git/examples/memories.jsonl),
embeds them, and asks every question of examples/semantic/*.toml, examples/cases.toml
and tests/recall/sets/blind-a.json (with its first three rewordings), at both
budgets. Prints one JSON line a question: its hits in order (memory id and whether
weak) and each candidate's cosine to the question to three places. By default one
long-lived service answers every question (as the MCP server does, with the
optimized model); --one-shot asks each one of a new service, as a command does
(the quick model). Run it with two checkouts' Pythons, or with and without
--one-shot, and compare: --compare prints how many questions have the same hits in
the same order, lists those that differ, and the largest difference of a cosine;
exit status 1 when any hits differ. Needs `pip install -e '.[semantic]'`.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import arguments

HERE = Path(__file__).parent
EXAMPLE_NOTES = HERE.parent / "synapse_git" / "examples" / "memories.jsonl"
BLIND = HERE.parent / "tests" / "recall" / "sets" / "blind-a.json"


def questions() -> list[tuple[str, list[str]]]:
    """(question, rewordings) of every set, in a fixed order."""
    found: list[tuple[str, list[str]]] = []
    for path in [*sorted((HERE / "semantic").glob("*.toml")), HERE / "cases.toml"]:
        found += [(case["query"], []) for case in tomllib.loads(path.read_text("utf-8"))["case"]]
    blind = json.loads(BLIND.read_text("utf-8"))
    found += [(query, said[:3]) for query, said in blind.items()]
    return found


def _rounded(cosine: object) -> str | None:
    return None if not isinstance(cosine, float) else f"{cosine:.3f}"


def answers(one_shot: bool) -> int:
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as folder:
        os.environ["SYNAPSE_DATA"] = data
        os.environ["SYNAPSE_SEMANTIC"] = "on"
        from synapse_git.service import Synapse

        built = Synapse()
        built.import_lines(EXAMPLE_NOTES.read_text("utf-8").splitlines())
        built.embed()
        kept = Synapse(long_lived=True)
        scope = kept.scope(Path(folder))
        for query, said in questions():
            for budget in ("lean", "full"):
                svc = Synapse() if one_shot else kept
                found = svc.recall(query, scope, budget=budget, explain=True, alternatives=said)
                line = {
                    "query": query,
                    "rewordings": len(said),
                    "budget": budget,
                    "hits": [[hit.id, hit.weak] for hit in found.hits],
                    "cosines": {
                        str(row["id"]): _rounded(row.get("cosine")) for row in found.explain_json()
                    },
                }
                print(json.dumps(line), flush=True)
    return 0


def compare(before: Path, after: Path) -> int:
    def read(path: Path) -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]

    old, new = read(before), read(after)
    if [(a["query"], a["budget"]) for a in old] != [(b["query"], b["budget"]) for b in new]:
        print("the two files do not ask the same questions")
        return 1
    differ = [a["query"] for a, b in zip(old, new, strict=True) if a["hits"] != b["hits"]]
    largest = 0.0
    for a, b in zip(old, new, strict=True):
        for memory_id, cosine in a["cosines"].items():
            other = b["cosines"].get(memory_id)
            if cosine is not None and other is not None:
                largest = max(largest, abs(float(cosine) - float(other)))
    print(f"{len(old) - len(differ)} of {len(old)} answers have the same hits in the same order")
    for query in differ:
        print(f"  differs: {query}")
    print(f"largest difference of a cosine (three places): {largest:.3f}")
    return 1 if differ else 0


if __name__ == "__main__":
    parser = arguments.parser(__doc__)
    parser.add_argument("--one-shot", action="store_true", help="a new service a question")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        for path in args.compare:
            if not path.is_file():
                parser.error(f"{path} is no file")
        sys.exit(compare(*args.compare))
    sys.exit(answers(args.one_shot))
