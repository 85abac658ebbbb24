"""What `memory list` may narrow a listing to: scope, source, team author, age, state
(docs/cli.md). One SQL rule, used for the plain listing and for a QUERY's matches."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from synapse_git.errors import BadInput

SCOPES = ("project", "global")
# `any` lists every state; without a state a listing shows live memories only.
STATES = ("live", "superseded", "forgotten", "any")
# Patterns, not compiled ones: only `--since` needs them, through re's own cache.
_AGO = r"(\d{1,5})([dw])"
_DATE = r"\d{4}-\d{2}-\d{2}(T[\d:.]+([+-]\d{2}:\d{2})?)?"


@dataclass(frozen=True)
class ListFilter:
    scope: str | None = None  # project or global
    source: str | None = None  # text the source holds, ignoring case
    author: str | None = None  # text the team author holds, ignoring case
    since: str | None = None  # created at or after this UTC timestamp
    state: str | None = None  # one of STATES; None: live

    def state_sql(self) -> str:
        """The WHERE clause that picks the listed states (fixed words, no parameters)."""
        if self.state == "any":
            return "1"
        return f"state = '{self.state or 'live'}'"

    @property
    def live_only(self) -> bool:
        return self.state in (None, "live")

    def sql(self) -> tuple[str, list[str]]:
        """A WHERE clause over `memories` ("1" when nothing is asked) and its parameters."""
        parts: list[str] = []
        params: list[str] = []
        if self.scope == "global":
            parts.append("project IS NULL")
        elif self.scope == "project":
            parts.append("project IS NOT NULL")
        if self.source:
            parts.append("instr(casefold(source), ?) > 0")
            params.append(self.source.casefold())
        if self.author:
            parts.append(
                "id IN (SELECT memory_id FROM shared WHERE instr(casefold(author), ?) > 0)"
            )
            params.append(self.author.casefold())
        if self.since:
            parts.append("created_at >= ?")
            params.append(self.since)
        return " AND ".join(parts) or "1", params

    @property
    def empty(self) -> bool:
        return not (self.scope or self.source or self.author or self.since or self.state)


EVERYTHING = ListFilter()


def make(
    *,
    scope: str | None = None,
    source: str | None = None,
    author: str | None = None,
    since: str | None = None,
    state: str | None = None,
    now: datetime | None = None,
) -> ListFilter:
    """A filter from what a user typed; a value that cannot be read is refused."""
    if scope is not None and scope not in SCOPES:
        raise BadInput(f"unknown scope {scope!r}: use project or global")
    if state is not None and state not in STATES:
        shown = state if len(state) <= 40 else state[:37] + "..."
        raise BadInput(f"unknown state {shown!r}: use {', '.join(STATES)}")
    return ListFilter(scope, source or None, author or None, _since(since, now), state)


def _since(text: str | None, now: datetime | None) -> str | None:
    """`2026-11-30`, a full ISO timestamp, or an age: `7d` (days), `2w` (weeks)."""
    if text is None:
        return None
    value = text.strip()
    ago = re.fullmatch(_AGO, value)
    if ago is not None:
        days = int(ago.group(1)) * (7 if ago.group(2) == "w" else 1)
        return ((now or datetime.now(UTC)) - timedelta(days=days)).isoformat()
    if re.fullmatch(_DATE, value):
        try:
            datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return value
    shown = value if len(value) <= 40 else value[:37] + "..."
    raise BadInput(f"--since {shown!r}: use a date (2026-11-30) or an age (7d, 2w)")
