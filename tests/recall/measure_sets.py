"""Recall quality per kind of question on the labeled sets in sets/ (docs/recall.md):
`python tests/recall/measure_sets.py dev|test [REWORDINGS.json [COUNT]]`. Tune on
dev, report on test. REWORDINGS.json (sets/blind-a.json, sets/blind-b.json) maps
each question to the rewordings a caller wrote for it; every kind is then
measured again with them (` + blind`), or with each question's first COUNT.
With SYNAPSE_SEMANTIC=on the store is embedded first (the semantic extra,
docs/semantic.md).

For each kind: top1 and found in the lean answer; paraphrase also with the
cases' rewordings and at depth 5; unanswerable questions: mean hits not
marked weak; answerable questions: `found` counts the answer in any hit,
`found strong` only in hits not marked weak; `abstained` is an answerable
question left with no hit that is not weak, `no hit` one left with no hit at
all. `answer weak` is an answerable question whose answer is returned only
as weak; `false abstention` is an answerable question whose answer is returned
only as weak, or left out of an answer with no hit that is not weak while it
holds a word of the question (a candidate of the search): recall had the
evidence and did not give it as an answer. An answer sharing no word with the
question is a miss (`found`), not an abstention."""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from corpus import MEMORIES  # noqa: E402

from synapse_git.service import Synapse  # noqa: E402


def cases(split: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted((HERE / "sets" / split).glob("*.toml")):
        found += tomllib.loads(path.read_text(encoding="utf-8"))["case"]
    return found


def _strong(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [hit for hit in answer["hits"] if not hit.get("weak")]


def measure(
    split: str, rewordings: dict[str, list[str]] | None = None
) -> dict[str, dict[str, float]]:
    svc = Synapse()
    svc.import_lines(json.dumps({"body": b, "source": "", "project": None}) for b in MEMORIES)
    if os.environ.get("SYNAPSE_SEMANTIC") == "on":
        svc.embed()  # the semantic extra (docs/semantic.md), when asked for
    scope = svc.scope(Path(tempfile.mkdtemp()))
    bodies = {m.id: m.body.casefold() for m in svc.list_memories(scope).memories}
    takes_alternatives = "alternatives" in inspect.signature(svc.recall).parameters

    def ask(query: str, alternatives: list[str], **kw: Any) -> dict[str, Any]:
        if alternatives and not takes_alternatives:
            # Without rewordings in the API an agent can only add them to the question.
            query, alternatives = " ".join([query, *alternatives]), []
        if takes_alternatives:
            kw["alternatives"] = alternatives
        found = svc.recall(query, scope, **kw)
        return dict(found.explained_json() if kw.get("explain") else found.as_json())

    rows: dict[str, list[dict[str, float]]] = {}
    for case in cases(split):
        kind, expect = case["kind"], case.get("expect")
        variants = [("", [])]
        if case.get("alternatives"):
            variants.append((" + rewordings", case["alternatives"]))
        if rewordings is not None:
            variants.append((" + blind", rewordings[case["query"]]))
        for suffix, alts in variants:
            lean = _strong(ask(case["query"], alts, budget="lean"))
            if expect is None:
                rows.setdefault(kind + suffix, []).append({"hits": len(lean)})
                continue
            expect_cf = expect.casefold()
            answer = ask(case["query"], alts, budget="lean", explain=True)
            every = answer["hits"]
            held = [c["id"] for c in answer["explain"] if c["held"]]
            deep = ask(case["query"], alts, budget="full", limit=5)["hits"]
            holds = [expect_cf in hit["body"].casefold() for hit in every]
            strong = [expect_cf in hit["body"].casefold() for hit in lean]
            rows.setdefault(kind + suffix, []).append(
                {
                    "top1": float(bool(holds) and holds[0]),
                    "found": float(any(holds)),
                    "found strong": float(any(strong)),
                    "found@5": float(any(expect_cf in h["body"].casefold() for h in deep)),
                    "abstained": float(not lean),
                    "no hit": float(not every),
                    "answer weak": float(any(holds) and not any(strong)),
                    "false abstention": float(
                        (any(holds) and not any(strong))
                        or (not lean and any(expect_cf in bodies[i] for i in held))
                    ),
                }
            )
    out: dict[str, dict[str, float]] = {}
    for kind, values in rows.items():
        out[kind] = {k: round(sum(v[k] for v in values) / len(values), 3) for k in values[0]}
        out[kind]["cases"] = len(values)
    for suffix in ("", " + blind") if rewordings is not None else ("",):
        answerable = [
            v
            for k, vs in rows.items()
            if "none" not in k and k.count("+") == suffix.count("+") and k.endswith(suffix)
            for v in vs
        ]
        if not answerable:  # a set of questions nothing answers only
            continue
        name = "all answerable" + suffix
        out[name] = {
            key: round(sum(v[key] for v in answerable) / len(answerable), 3)
            for key in ("top1", "found", "abstained", "no hit", "answer weak", "false abstention")
        }
        out[name]["cases"] = len(answerable)
    return out


if __name__ == "__main__":
    os.environ.setdefault("SYNAPSE_DATA", tempfile.mkdtemp(prefix="synapse-sets-"))
    split = sys.argv[1] if len(sys.argv) > 1 else "dev"
    blind = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8")) if len(sys.argv) > 2 else None
    if blind is not None and len(sys.argv) > 3:  # only each question's first COUNT
        blind = {question: said[: int(sys.argv[3])] for question, said in blind.items()}
    for name, figures in measure(split, blind).items():
        print(f"{name:<24} {json.dumps(figures)}")
