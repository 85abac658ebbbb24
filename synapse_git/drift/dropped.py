"""A tool a note says is not used, against a note that uses it (docs/drift.md,
conflicts): `Tests are written for jest; mocha is not used any more` against
`Tests are written for mocha with supertest`.

The note that drops a tool usually names its replacement too, so the rule of two
tools for one job (a note naming both is no choice between them) never sees it.
Pure functions over the clauses `conflicts` has made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from synapse_git.drift.conflict_words import ROLE_WORDS, TOOL_ROLES, stem

# What a clause saying only that a tool is not used has besides the tool: `is not
# used any more`, or `is no longer a dependency`.
UNUSED = frozenset(
    stem(word)
    for word in (
        "use",
        "used",
        "uses",
        "using",
        "any",
        "more",
        "anymore",
        "longer",
        "dependency",
        "dependencies",
        "installed",
        "supported",
    )
)


# Stop words that still say where or when a tool is not used.
_PLACED = frozenset({"there", "here", "default"})


@dataclass(frozen=True)
class Names:
    """The tools a body says are used for their jobs, and the clauses saying a tool is not."""

    used: frozenset[str]
    dropped: tuple[tuple[str, str], ...]  # (tool, the clause saying it is not used)


NONE = Names(frozenset(), ())


def names(clauses: Iterable[tuple[str, bool, frozenset[str], frozenset[str]]]) -> Names:
    """From each clause's (text, negated, content stems, tools)."""
    used: set[str] = set()
    dropped: list[tuple[str, str]] = []
    for text, negated, words, tools in clauses:
        if not tools:
            continue
        if not negated:
            # Used for its job only where the clause names the job (`Tests are
            # written for mocha`); a list of hooks or pins naming it is no claim.
            used |= {tool for tool in tools if words & _jobs(tool)}
        elif words - {stem(tool) for tool in tools} <= UNUSED and not _where(text):
            dropped += [(tool, text) for tool in sorted(tools)]
    return Names(frozenset(used), tuple(dropped))


def _where(text: str) -> bool:
    """Whether a clause saying a tool is not used says where or when after all (`not
    installed there`, `not installed by default`), in words no stem keeps."""
    return not _PLACED.isdisjoint(word.strip(".,;:!?()`'\"").casefold() for word in text.split())


def _jobs(tool: str) -> frozenset[str]:
    return frozenset().union(*(ROLE_WORDS[role] for role in TOOL_ROLES[tool]))


def _migrating(tool: str, used: frozenset[str]) -> bool:
    """The using note names another tool for the same job (`moved from mocha to
    jest`): it tells of a change, not that the tool is in use."""
    roles = TOOL_ROLES[tool]
    return any(other != tool and TOOL_ROLES[other] & roles for other in used)


def against(dropping: Names, using: Names) -> tuple[str, str] | None:
    """(the clause dropping a tool, the tool the other note uses), or None."""
    gone = {tool for tool, _ in using.dropped}
    for tool, clause in dropping.dropped:
        if tool in using.used and tool not in gone and not _migrating(tool, using.used):
            return clause, tool
    return None
