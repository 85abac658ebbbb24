"""What an agent is told about Synapse: the reading hint and the server's instructions.

Kept apart from the MCP server so a session hook can print the same hint
without importing the SDK.
"""

from __future__ import annotations

import re

from synapse_git.settings import Config

READING_HINT = (
    "To read a memory exactly, call readmemory with the id and project from a recall hit, "
    "starting at offset 0, and pass each returned next as the offset until next is null."
)

GUIDANCE = (
    "Synapse is the memory of this repository and of the user: short facts about the code "
    "(decisions, conventions, where things live, what broke) kept between sessions. "
    "Call recall with a question before you start on a task or when you need to know how "
    "something is done here; a recall hit may be abridged. Call remember when you learn a "
    "fact a later session should know, supersede when a memory is wrong or out of date, and "
    "forget only for what should never have been stored."
)


def instructions(config: Config) -> str:
    """What the client is told at initialization: the user's own guidance when configured,
    with the reading hint appended unless that guidance already holds it."""
    if config.instructions is None or not config.instructions.strip():
        return f"{GUIDANCE}\n\n{READING_HINT}"
    if _squash(READING_HINT) in _squash(config.instructions):
        return config.instructions
    return f"{config.instructions.rstrip()}\n\n{READING_HINT}"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()
