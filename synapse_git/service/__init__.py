"""The service: the one API every edge calls (docs/architecture.md). Its face is
`Synapse`, the `Scope` every call takes (what `Synapse.scope` makes of a folder) and
the values it answers with."""

from synapse_git.git.project_scope import Scope
from synapse_git.service.facade import Synapse
from synapse_git.service.results import History, Listing, ProjectInfo, Remembered, Replaced

# The scope is what the edges hold between calls, and name in their own signatures.
__all__ = [
    "History",
    "Listing",
    "ProjectInfo",
    "Remembered",
    "Replaced",
    "Scope",
    "Synapse",
]
