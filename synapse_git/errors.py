"""The one error hierarchy. Edges translate it: the CLI to an exit code, MCP to a tool error."""

from __future__ import annotations


class SynapseError(Exception):
    """An error the user can act on; its message says how."""

    exit_code = 2


class BadInput(SynapseError):
    """The request itself is wrong: nothing was written."""


class NotFound(SynapseError):
    """No memory with that id is visible from here."""


class StoreError(SynapseError):
    """The store cannot be used as it is (unreadable, corrupt, read-only, full)."""


class StoreVersion(StoreError):
    """The store was written by a newer Synapse; it is left untouched."""
