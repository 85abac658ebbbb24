"""Recall quality with and without the semantic extra, on the labeled sets in
examples/semantic/ over the example store (synapse_git/examples/memories.jsonl).

    python examples/semantic_eval.py [dev|test|fresh]

Prints one Markdown row per set: top1, found (ranked past the floor), survived
(in the lean answer) and noise (mean hits of an unanswerable question), lexical
then semantic. Needs `pip install -e '.[semantic]'`; uses a temporary store.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import arguments

HERE = Path(__file__).parent
EXAMPLE_NOTES = HERE.parent / "synapse_git" / "examples" / "memories.jsonl"


def main(split: str) -> int:
    with tempfile.TemporaryDirectory() as data:
        os.environ["SYNAPSE_DATA"] = data
        os.environ["SYNAPSE_SEMANTIC"] = "on"
        from synapse_git.recall.evaluation import load_cases
        from synapse_git.service import Synapse

        svc = Synapse()
        lines = EXAMPLE_NOTES.read_text("utf-8").splitlines()
        svc.import_lines(lines)
        embedded = svc.embed()
        print(f"{embedded.embedded} memories embedded; {embedded.notice or 'semantic on'}")
        print("| set | top1 | found | survived (lean) | noise (lean) |")
        print("| --- | --- | --- | --- | --- |")
        # cases.toml, the example store's general set, guards against lexical regressions.
        for path in [*sorted((HERE / "semantic").glob(f"{split}-*.toml")), HERE / "cases.toml"]:
            cases = load_cases(path)
            scores = {}
            for switch in ("off", "on"):
                os.environ["SYNAPSE_SEMANTIC"] = switch
                scores[switch] = svc.evaluate(cases, budget="lean").metrics()
            cells = [
                " → ".join(
                    "-" if scores[s][name] is None else f"{scores[s][name]:.2f}"
                    for s in ("off", "on")
                )
                for name in ("top1", "found", "survived", "noise")
            ]
            print(f"| {path.stem} ({len(cases)}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    parser = arguments.parser(__doc__)
    parser.add_argument("split", nargs="?", default="dev", choices=("dev", "test", "fresh"))
    raise SystemExit(main(parser.parse_args().split))
