"""`Synapse`: the one API every edge calls. Edges parse, call one method, render.

The class is assembled from the parts of the service, each a module of its own
(see docs/architecture.md); they share the connections of `StoreAccess`.
"""

from __future__ import annotations

from synapse_git.service.client_wiring import ClientWiring
from synapse_git.service.drift_view import DriftView
from synapse_git.service.git_hooks import GitHooks
from synapse_git.service.inspection import Inspection
from synapse_git.service.judgements import Judgements
from synapse_git.service.lifecycle import Lifecycle
from synapse_git.service.maintenance import Maintenance
from synapse_git.service.projects import Projects
from synapse_git.service.queries import Queries
from synapse_git.service.session_snapshots import SessionSnapshots
from synapse_git.service.team_sharing import TeamSharing
from synapse_git.service.team_view import TeamView
from synapse_git.service.transfer import Transfer


class Synapse(
    Lifecycle,
    Queries,
    SessionSnapshots,
    Transfer,
    Maintenance,
    TeamSharing,
    Projects,
    GitHooks,
    ClientWiring,
    TeamView,
    Inspection,
    Judgements,
    DriftView,
):
    """The memory store as seen from one data folder."""
