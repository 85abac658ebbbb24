"""`Synapse`: the one API every edge calls. Edges parse, call one method, render.

The class is assembled from the parts of the service, each a module of its own
(see docs/architecture.md); they share the connections of `StoreAccess`.
"""

from __future__ import annotations

from synapse_git.service.drift_view import DriftView
from synapse_git.service.inspection import Inspection
from synapse_git.service.judgements import Judgements
from synapse_git.service.lifecycle import Lifecycle
from synapse_git.service.queries import Queries
from synapse_git.service.team_view import TeamView
from synapse_git.service.upkeep import Upkeep


class Synapse(Lifecycle, Queries, Upkeep, TeamView, Inspection, Judgements, DriftView):
    """The memory store as seen from one data folder."""
