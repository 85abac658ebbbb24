"""Command lines of the scripts in examples/: the script's docstring as its help, and
the counts a benchmark takes, each with its default and its range. A value that is
no whole number or is out of range ends the script with its usage line and the
reason, exit status 2, before any work. `python examples/NAME.py` puts this folder
first on the path, so a script imports it as `arguments`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser whose help is the script's docstring, laid out as it is written."""
    return argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def counts(
    doc: str | None, argv: Sequence[str] | None, **ranges: tuple[int, int, int | None]
) -> list[int]:
    """The optional positional counts NAME=(default, least, most or None), in order."""
    line = parser(doc)
    for name, (default, _, _) in ranges.items():
        line.add_argument(name, nargs="?", type=int, default=default)
    given = vars(line.parse_args(argv))
    for name, (_, least, most) in ranges.items():
        if given[name] < least or (most is not None and given[name] > most):
            bounds = f"at least {least}" if most is None else f"{least}..{most}"
            line.error(f"{name} must be {bounds}, not {given[name]}")
    return [given[name] for name in ranges]
