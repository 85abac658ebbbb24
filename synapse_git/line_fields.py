"""The fields every memory line shares, checked one way wherever a line comes in:
`import` (store/transfer.py), the team file's sync, commit check and merge driver
(team/records.py). Whatever one refuses, all refuse, with the same message."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from synapse_git.errors import BadInput
from synapse_git.textrules import check_body, check_source

# A clock a little ahead is a clock; a year far ahead would pin a memory first in
# every list ordered by time.
FUTURE_SLACK = 24 * 60 * 60  # seconds


def check_stamp(value: object, key: str) -> str | None:
    """`value` as a UTC ISO 8601 time with microseconds (None stays None); BadInput
    when it is not a time or lies in the future."""
    if value is None:
        return None
    return _moment(value, key).isoformat(timespec="microseconds")


def _moment(value: object, key: str) -> datetime:
    if not isinstance(value, str):
        raise BadInput(f'"{key}" must be an ISO 8601 timestamp')
    try:
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        moment = moment.astimezone(UTC)
    except (ValueError, OverflowError):
        # Year 1 or 9999 with an offset falls outside the years a timestamp can hold.
        raise BadInput(
            f'"{key}" {value[:80]!r} is not an ISO 8601 timestamp in years 1 to 9999'
        ) from None
    if moment.timestamp() > time.time() + FUTURE_SLACK:
        raise BadInput(f'"{key}" {value[:80]!r} is in the future')
    return moment


def check_times(created: object, updated: object) -> tuple[str | None, str | None]:
    """Both times checked, and the update not before the creation."""
    first = check_stamp(created, "created_at")
    last = check_stamp(updated, "updated_at")
    if first is not None and last is not None and last < first:
        raise BadInput(f'"updated_at" {last} is before "created_at" {first}')
    return first, last


def valid_times(created: object, updated: object) -> None:
    """What `check_times` checks, without making the normalized text (a team line
    keeps its own)."""
    first = _moment(created, "created_at")
    last = first if updated == created else _moment(updated, "updated_at")
    if last < first:
        raise BadInput(
            f'"updated_at" {last.isoformat(timespec="microseconds")} is before "created_at" '
            f"{first.isoformat(timespec='microseconds')}"
        )


def check_text(body: object, source: object) -> tuple[str, str]:
    """Body and source as a memory may hold them (UTF-8, sizes, a visible body)."""
    if not isinstance(body, str):
        raise BadInput('"body" must be a string')
    if source is None:
        source = ""
    if not isinstance(source, str):
        raise BadInput('"source" must be a string or null')
    return check_body(body), check_source(source)
