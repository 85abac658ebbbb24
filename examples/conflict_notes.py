"""The conflict rules on notes written for stacks none of the real-repository sets
holds (docs/drift.md, "Conflicts missed on the test halves"):

    python examples/conflict_notes.py

`examples/conflict_notes/` holds four sets of notes as agents keep them, each with
the pairs that contradict labelled when the notes were written: a Django service
(Celery, Postgres), a TypeScript monorepo (pnpm, Vite, Playwright), a Rust command
line tool released by GitHub Actions, and a probe of the rules of a thing said
unused, gone or the default. Every pair of a set is compared with
`synapse_git.drift.conflicts.contradicts`; pairs labelled `unclear` count neither
way. Prints each set's precision and recall and the pairs found wrongly.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import arguments

from synapse_git.drift.conflicts import contradicts

SETS = Path(__file__).resolve().parent / "conflict_notes"
NAMES = ("django", "tsmono", "rustcli", "probe")


def measure(name: str) -> dict[str, object]:
    data = json.loads((SETS / f"{name}.json").read_text("utf-8"))
    notes: list[str] = data["notes"]
    labelled = {frozenset(pair) for pair in data["conflicts"]}
    unclear = {frozenset(pair) for pair in data["unclear"]}
    found = {
        frozenset((i, j))
        for i, j in itertools.combinations(range(len(notes)), 2)
        if contradicts(notes[i], notes[j]) is not None
    } - unclear
    right = len(found & labelled)
    return {
        "set": name,
        "notes": len(notes),
        "precision": round(right / len(found), 2) if found else None,
        "recall": round(right / len(labelled), 2),
        "right": right,
        "found": len(found),
        "labelled": len(labelled),
        "false": [" / ".join(notes[i][:60] for i in sorted(pair)) for pair in found - labelled],
    }


def main() -> int:
    arguments.parser(__doc__).parse_args()
    for name in NAMES:
        print(json.dumps(measure(name), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
