"""`synapse demo`: the example store, asked a question, without touching the user's store.

The examples are imported into a temporary data folder that is removed before
the command returns, so nothing of the made-up project reaches the user's store,
its session starts or any other repository's recall.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.recall import evaluation
from synapse_git.recall.response import Recalled
from synapse_git.service import Synapse
from synapse_git.settings import Config

# Shipped inside the package, so `synapse demo` works after a plain `pip install`.
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "memories.jsonl"
QUESTION = "how do we deploy"


@dataclass(frozen=True)
class Demo:
    examples: Path
    imported: int
    found: Recalled


def examples_file(given: Path | None) -> Path:
    """The example store: `given`, else the notes shipped with the package."""
    return EXAMPLES if given is None else given


def run(
    question: str, *, examples: Path | None = None, folder: Path | None = None, budget: str | None
) -> Demo:
    source = examples_file(examples)
    with temporary_store(source) as (svc, imported):
        found = svc.recall(question, svc.scope(folder), budget=budget)
    return Demo(source, imported, found)


def evaluate(
    cases: Sequence[evaluation.Case], source: Path, *, budget: str | None
) -> tuple[int, evaluation.Report]:
    """`memory eval` of a cases file that names its store: scored on those notes in a
    temporary store, so the user's own memories neither help nor hurt the figures."""
    with temporary_store(source) as (svc, imported):
        return imported, svc.evaluate(cases, budget=budget)


@contextmanager
def temporary_store(source: Path) -> Iterator[tuple[Synapse, int]]:
    """A service over a temporary data folder holding the notes of `source`, removed
    when the block ends."""
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        # The reason alone, as `memory import` says it (not Python's `[Errno 2] …: '…'`).
        raise BadInput(f"cannot read {source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"cannot read {source}: not UTF-8 (byte {exc.start})") from None
    lines = [line.removesuffix("\r") for line in text.split("\n") if line.strip()]
    with tempfile.TemporaryDirectory(prefix="synapse-demo-") as data:
        # The defaults, not the user's config.toml: the examples as Synapse ships them.
        svc = Synapse(Config(data_dir=Path(data)))
        yield svc, svc.import_lines(lines).imported
