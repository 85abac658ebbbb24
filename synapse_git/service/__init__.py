"""The service: the one API every edge calls (docs/architecture.md)."""

from synapse_git.service.facade import Synapse
from synapse_git.service.results import History, Listing, ProjectInfo, Remembered, Replaced

__all__ = ["History", "Listing", "ProjectInfo", "Remembered", "Replaced", "Synapse"]
