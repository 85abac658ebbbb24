"""What recall costs for a question of each length, up to the bound and past it
(docs/recall.md, "How long a question may be"): the example store's notes in a
temporary data folder, one question of each length asked RUNS times (default 5), the
median CPU time of a recall in this process printed with the load average.

    python examples/question_length_bench.py [RUNS]
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
from pathlib import Path

from arguments import counts

EXAMPLE_NOTES = (
    Path(__file__).resolve().parent.parent / "synapse_git" / "examples" / "memories.jsonl"
)
# A pasted stack trace is about the longest question a person or an agent asks.
TRACE_LINE = '  File "src/app/deploy.py", line 118, in ship_release: KeyError: CACHE_TTL\n'


def cpu_ms() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return (used.ru_utime + used.ru_stime) * 1000


def main() -> None:
    [runs] = counts(__doc__, sys.argv[1:], RUNS=(5, 1, 100))
    with tempfile.TemporaryDirectory() as data:
        os.environ["SYNAPSE_DATA"] = data
        from synapse_git.errors import BadInput
        from synapse_git.recall import query_terms
        from synapse_git.service import Synapse

        # The bound, or where it stands, for a Synapse from before it.
        bound = getattr(query_terms, "MAX_QUERY_BYTES", 16 * 1024)
        svc = Synapse()
        scope = svc.scope(data)
        svc.import_jsonl(EXAMPLE_NOTES.read_text(encoding="utf-8").splitlines())
        svc.recall("warm up", scope)
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        for size in (200, 2_000, 8_192, bound, 64 * 1024, 1024 * 1024):
            text = ("why does the deploy fail?\n" + TRACE_LINE * (size // len(TRACE_LINE)))[:size]
            spent = []
            said = "answered"
            for _ in range(runs):
                start = cpu_ms()
                try:
                    svc.recall(text, scope)
                except BadInput:
                    said = "refused"
                spent.append(cpu_ms() - start)
            median = sorted(spent)[len(spent) // 2]
            print(f"{size:>9,} bytes: {median:8.1f} ms CPU (median of {runs}), {said}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
