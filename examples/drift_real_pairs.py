"""The conflict rules' verdict on every pair of notes of the real-repository sets.

    python examples/drift_real_pairs.py [NAME...] [--across]

For each half of each set (examples/drift_real/), compares every two notes with
`synapse_git.drift.conflicts.contradicts` and prints conflicts precision and
recall against the labelled pairs, with the pairs found that the labels do not
hold and the labelled pairs missed. No store and no git: what the rules say,
in seconds, where examples/drift_real.py measures the whole drift check. Run it
with two versions of the code to see what a change of the rules changes.

With --across it compares instead every note with every note of the other named
sets (both halves): notes of two repositories are about two projects, so each
pair found there is a false one, a measure of what looser rules find wrongly.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from synapse_git.drift.conflicts import compare, contradicts, parse

SETS = Path(__file__).resolve().parent / "drift_real"
NAMES = ("pip", "flask", "click", "requests", "express", "cli", "axum", "moshi", "jq", "sidekiq")


def notes(name: str, which: str) -> list[dict[str, str]]:
    return [
        json.loads(line)
        for line in (SETS / f"{name}.{which}.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]


def half(name: str, which: str) -> dict[str, object]:
    rows = notes(name, which)
    labels = json.loads((SETS / f"{name}.{which}.labels.json").read_text("utf-8"))
    labelled = {frozenset(pair) for pair in labels["conflicts"]}
    found = {
        frozenset((a["key"], b["key"]))
        for a, b in itertools.combinations(rows, 2)
        if contradicts(a["body"], b["body"]) is not None
    }
    right = len(found & labelled)
    return {
        "set": f"{name}.{which}",
        "precision": round(right / len(found), 2) if found else 1.0,
        "recall": round(right / len(labelled), 2) if labelled else 1.0,
        "right": right,
        "found": len(found),
        "labelled": len(labelled),
        "false": sorted(" / ".join(sorted(pair)) for pair in found - labelled),
        "missed": sorted(" / ".join(sorted(pair)) for pair in labelled - found),
    }


def across(names: tuple[str, ...]) -> dict[str, object]:
    """The pairs found between notes of two different sets (both halves of each)."""
    parsed = [
        (name, row["key"], parse(row["body"]))
        for name in names
        for which in ("dev", "test")
        for row in notes(name, which)
    ]
    found = sorted(
        f"{key_a} / {key_b}"
        for (name_a, key_a, a), (name_b, key_b, b) in itertools.combinations(parsed, 2)
        if name_a != name_b and compare(a, b) is not None
    )
    return {"across": list(names), "notes": len(parsed), "pairs": len(found), "found": found}


def main() -> None:
    import arguments  # not at the top: a test loads this file without examples/ on the path

    parser = arguments.parser(__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"any of {', '.join(NAMES)}")
    parser.add_argument(
        "--across", action="store_true", help="count the pairs found between two sets instead"
    )
    given = parser.parse_args()
    names = given.names
    if unknown := [name for name in names if name not in NAMES]:
        parser.error(f"no set named {unknown[0]} (sets: {', '.join(NAMES)})")
    if given.across:
        print(json.dumps(across(tuple(names or NAMES))))
        return
    for name in names or NAMES:
        for which in ("dev", "test"):
            print(json.dumps(half(name, which)))


if __name__ == "__main__":
    main()
