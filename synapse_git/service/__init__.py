"""The service: the one API every edge calls (docs/architecture.md). Its face is
`Synapse`, the `Scope` every call takes (what `Synapse.scope` makes of a folder) and
the values it answers with.

They load on first use: the light part of the service (the
commit check, checkout refresh, session start and prompt recall the hooks call,
the MCP server's instructions) is imported through this package on every commit
and must not pay for the whole service, pygit2 included.
"""

# `typing` is not imported when running: the commit hook passes through here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from synapse_git.git.project_scope import Scope
    from synapse_git.service.facade import Synapse
    from synapse_git.service.results import History, Listing, ProjectInfo, Remembered, Replaced

__all__ = ["History", "Listing", "ProjectInfo", "Remembered", "Replaced", "Scope", "Synapse"]

_HOMES = {
    "Synapse": "synapse_git.service.facade",
    "Scope": "synapse_git.git.project_scope",
    **dict.fromkeys(
        ("History", "Listing", "ProjectInfo", "Remembered", "Replaced"),
        "synapse_git.service.results",
    ),
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
