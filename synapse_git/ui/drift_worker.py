"""A whole drift check for the viewer, in a process of its own so that the server's
pages never wait for it (ui/drift_cache.py): `python -m synapse_git.ui.drift_worker
FOLDER` keeps the check of FOLDER's scope in the data folder and exits; a failure is
one line on stderr."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from synapse_git.errors import SynapseError
    from synapse_git.service import Synapse

    if len(argv) != 1:
        print("usage: python -m synapse_git.ui.drift_worker FOLDER", file=sys.stderr)
        return 2
    svc = Synapse()
    try:
        svc.keep_drift(svc.scope(argv[0]))
    except SynapseError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
