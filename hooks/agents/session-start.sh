#!/bin/sh
# Session start for any coding agent that runs a command when a session begins
# and reads its standard output as context. Run it from the project folder (or
# pass one: session-start.sh /path/to/project). It prints at most 8 KiB and
# exits 0 even when Synapse is missing, so it never stops an agent starting.
folder=${1:-.}
if ! command -v synapse >/dev/null 2>&1; then
    echo "synapse is not on PATH; no memories loaded" >&2
    exit 0
fi
# Not exec: a bad folder or budget is reported on stderr, and the agent still starts.
synapse hook session --folder "$folder" --budget "${SYNAPSE_SESSION_BUDGET:-balanced}"
exit 0
