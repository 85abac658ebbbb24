"""The `synapse` console script: hook commands first, the full CLI otherwise.

Agents run `synapse hook session` at every start and git runs the checkout
hooks on every switch; importing typer alone costs ~160 ms, so those commands
are parsed by `hookcmds` without it. Everything else, and any `--help`, goes
to the typer app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "hook" and not {"--help", "-h"} & set(args):
        from synapse_git import hookcmds

        if args[1] in hookcmds.FAST:
            try:
                return hookcmds.fast_main(args[1:])
            except BrokenPipeError:
                # The reader went away (`| head`): nothing left to say, and no
                # second error when Python flushes standard output at exit.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 0
    from synapse_git.cli.app import main as full

    return full(args)
