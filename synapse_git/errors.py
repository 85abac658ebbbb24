"""The one error hierarchy. Edges translate it: the CLI to an exit code, MCP to a tool error."""

from __future__ import annotations

import os
import sys

from synapse_git import exit_codes


class SynapseError(Exception):
    """An error the user can act on; its message says how."""

    exit_code = exit_codes.ERROR


class BadInput(SynapseError):
    """The request itself is wrong: nothing was written."""


class NotFound(SynapseError):
    """No memory with that id is visible from here."""

    @classmethod
    def memory(cls, memory_id: int) -> NotFound:
        """The one wording for an id that names no memory this scope can see."""
        return cls(f"no memory {memory_id} is visible from here")


class StoreError(SynapseError):
    """The store cannot be used as it is (unreadable, corrupt, read-only, full)."""


class StoreVersion(StoreError):
    """The store was written by a newer Synapse; it is left untouched."""


def no_store_yet(path: object, then: str = "remember something first") -> str:
    """The one wording for a store file not made yet; `then` says what makes it."""
    return f"no store at {path} yet: {then}"


def output_failed(exc: OSError) -> StoreError:
    """Standard output (or the file it goes to) refused a write, a full disk say:
    said the same way by every command."""
    return StoreError(f"cannot write the output: {exc.strerror or exc}")


def report(exc: BaseException) -> int:
    """Say `exc` in one line on stderr and return its exit code: 2 for our errors,
    3 for anything else (`SYNAPSE_DEBUG=1` prints the traceback instead)."""
    # The message may quote what was typed or stored (a file name with a newline in
    # it): shown, never obeyed, and on one line.
    from synapse_git.escaping import visible

    if isinstance(exc, SynapseError):
        print(visible(f"synapse: {exc}", layout=False), file=sys.stderr)
        return exc.exit_code
    if os.environ.get("SYNAPSE_DEBUG") == "1":
        import traceback  # only here: hooks and session start pay for every import

        traceback.print_exception(exc)
    else:
        said = visible(f"{type(exc).__name__}: {exc}", layout=False)
        print(
            f"synapse: internal error: {said} (set SYNAPSE_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
    return exit_codes.INTERNAL_ERROR
