"""The exit codes every command and hook answers with; no imports, so the hooks can use it.

docs/cli.md lists them for users: 0 success, 1 findings, 2 bad input or a problem the
user can act on, 3 an internal error, 130 interrupted.
"""

OK = 0
# Done, and what it found wants a look: drift, a failed check, a regression, a merge
# with conflicts, a commit the drift hook stopped.
NEEDS_ATTENTION = 1
# A `SynapseError` or a usage mistake: one line on stderr says what to do, nothing written.
ERROR = 2
# Anything else: a bug, said in one line (`SYNAPSE_DEBUG=1` shows the traceback).
INTERNAL_ERROR = 3
# Ctrl-C, as shells report a process ended by SIGINT (128 + 2).
INTERRUPTED = 130
