"""Recall per kind of question on the fresh labelled set in examples/recall_fresh/
(two domains recall was never tuned on; its README says how it was written).

    python examples/recall_fresh.py [dev|test] [--semantic] [--misses]

Builds a temporary store of each domain's notes (its own data folder and home,
never the user's) and asks every question of the split through the service, as
`synapse memory recall` does. Prints one JSON line per domain and kind: `top1`
(the first hit of the lean answer answers and is not weak), `found` (an answer
in the lean answer), `found strong` (in a hit not weak), `found@5` (full budget,
limit 5); for `unanswerable`, `hits` (mean hits not weak) and `any` (share of
questions given a hit not weak). --semantic turns the semantic extra on and
embeds the store first (needs `pip install -e '.[semantic]'`; nothing is fetched).
--misses (dev only) prints each miss with the hits it got instead.
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

HERE = Path(__file__).parent / "recall_fresh"
DOMAINS = ("mltrain", "firmware")


def _split(domain: str, half: str) -> list[dict[str, Any]]:
    """The domain's questions of one half, in the order split.json records."""
    chosen = json.loads((HERE / "split.json").read_text("utf-8"))["domains"][domain][half]
    every = tomllib.loads((HERE / f"{domain}_questions.toml").read_text("utf-8"))["question"]
    by_query = {question["query"]: question for question in every}
    return [by_query[query] for query in chosen]


def _answers(svc: Any, scope: Any, question: dict[str, Any], ids: dict[int, str]) -> dict[str, Any]:
    query, expect = question["query"], set(question["expect"])
    lean = svc.recall(query, scope, budget="lean").as_json()["hits"]
    named = [(ids[hit["id"]], bool(hit.get("weak"))) for hit in lean]
    strong = [name for name, weak in named if not weak]
    if not expect:
        return {"hits": len(strong), "any": float(bool(strong)), "got": named}
    deep = svc.recall(query, scope, budget="full", limit=5).as_json()["hits"]
    return {
        "top1": float(bool(named) and named[0][0] in expect and not named[0][1]),
        "found": float(any(name in expect for name, _ in named)),
        "found strong": float(any(name in expect for name in strong)),
        "found@5": float(any(ids[hit["id"]] in expect for hit in deep)),
        "got": named,
    }


def measure(domain: str, half: str, folder: Path, semantic: bool, misses: bool) -> None:
    from synapse_git.service import Synapse

    notes = tomllib.loads((HERE / f"{domain}_notes.toml").read_text("utf-8"))["note"]
    svc = Synapse()
    svc.import_lines(json.dumps({"body": n["body"], "source": "", "project": None}) for n in notes)
    if semantic:
        svc.embed()
    scope = svc.scope(folder / "home")
    by_body = {note["body"]: note["id"] for note in notes}
    ids = {m.id: by_body[m.body] for m in svc.list_memories(scope).memories}
    rows: dict[str, list[dict[str, Any]]] = {}
    for question in _split(domain, half):
        got = _answers(svc, scope, question, ids)
        rows.setdefault(question["kind"], []).append(got)
        missed = got.get("top1") == 0.0 or got.get("hits", 0) > 0
        if misses and missed:
            line = {"domain": domain, "kind": question["kind"], "query": question["query"]}
            print(json.dumps({**line, "expect": question["expect"], "got": got["got"]}))
    if misses:
        return
    for kind, values in sorted(rows.items()):
        keys = [key for key in values[0] if key != "got"]
        figures = {key: round(sum(v[key] for v in values) / len(values), 3) for key in keys}
        line = {"domain": domain, "half": half, "semantic": semantic, "kind": kind}
        print(json.dumps({**line, "cases": len(values), **figures}), flush=True)


def main(half: str, semantic: bool, misses: bool) -> int:
    with tempfile.TemporaryDirectory() as work:
        for domain in DOMAINS:
            # A store of its own per domain, in folders of this run: never the user's.
            folder = Path(work) / domain
            (folder / "home").mkdir(parents=True)
            os.environ["SYNAPSE_DATA"] = str(folder / "data")
            os.environ["HOME"] = str(folder / "home")
            os.environ["SYNAPSE_SEMANTIC"] = "on" if semantic else "off"
            os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
            measure(domain, half, folder, semantic, misses)
    return 0


if __name__ == "__main__":
    parser = arguments.parser(__doc__)
    parser.add_argument("half", nargs="?", default="dev", choices=("dev", "test"))
    parser.add_argument("--semantic", action="store_true", help="with the semantic extra")
    parser.add_argument("--misses", action="store_true", help="print the dev misses")
    args = parser.parse_args()
    if args.misses and args.half != "dev":
        parser.error("misses are read on dev only")
    sys.exit(main(args.half, args.semantic, args.misses))
