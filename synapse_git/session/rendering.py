"""A session snapshot rendered for a budget (docs/hooks.md): the memories worth telling
within the budget's bytes, the older of a conflicting pair marked, and a footer naming
what was left out and why. Cheap: session start renders a current snapshot as read."""

from __future__ import annotations

from synapse_git.escaping import json_text, visible
from synapse_git.session.snapshots import (
    HINT,
    LIMIT_BYTES,
    LISTED_PAIRS,
    Entry,
    Snapshot,
    cut,
)
from synapse_git.settings import Budget


def _entry_lines(entry: Entry, hit_bytes: int, newer: int | None) -> list[str]:
    shown = cut(entry.text, hit_bytes)
    abridged = len(shown.encode("utf-8")) < entry.total
    # The agent is told text: control characters and bidi overrides come written out.
    lines = visible(shown.strip("\n")).splitlines() or [""]
    mark = f"(older; [{newer}] contradicts it) " if newer is not None else ""
    out = [f"- [{entry.id}] {mark}{lines[0]}"] + [f"  {line}" for line in lines[1:]]
    if abridged:
        out[-1] += f" … (abridged: {entry.total} bytes, readmemory {entry.id})"
    return out


def _left_out_line(snapshot: Snapshot) -> str | None:
    parts = []
    if snapshot.stale:
        ids = ", ".join(sorted(snapshot.stale, key=int))
        parts.append(f"{len(snapshot.stale)} stale (a path they name is gone: {ids})")
    if snapshot.repeated:
        pairs = ", ".join(f"{o} (same as {n})" for o, n in sorted(snapshot.repeated.items()))
        parts.append(f"{len(snapshot.repeated)} duplicate: {pairs}")
    other = {k: v for k, v in (snapshot.elsewhere or {}).items() if v}
    if other:
        listed = ", ".join(
            f"{k} ({v})" for k, v in sorted(other.items(), key=lambda kv: int(kv[0]))[:LISTED_PAIRS]
        )
        more = len(other) - LISTED_PAIRS
        listed += f" and {more} more" if more > 0 else ""
        parts.append(f"{len(other)} from branches not merged here: {listed}")
    lost = sorted((k for k, v in (snapshot.elsewhere or {}).items() if not v), key=int)
    if lost:
        parts.append(f"{len(lost)} from a line of work no branch reaches: {', '.join(lost)}")
    if not parts:
        return None
    return "Left out: " + "; ".join(parts) + ". See `synapse memory drift`."


def _conflicts_line(snapshot: Snapshot) -> str | None:
    if not snapshot.older:
        return None
    listed = sorted(snapshot.older.items(), key=_by_id)
    pairs = ", ".join(f"{o} (by {n})" for o, n in listed[:LISTED_PAIRS])
    if len(listed) > LISTED_PAIRS:
        # Each is marked where it is told; a long list would take the memories' room.
        pairs += f" and {len(listed) - LISTED_PAIRS} more"
    noun = "memory is" if len(snapshot.older) == 1 else "memories are"
    return (
        f"Contradicted: {len(snapshot.older)} older {noun} told with the newer one that "
        f"contradicts it: {pairs}. Trust the newer; `synapse memory drift` settles them."
    )


def _by_id(item: tuple[str, int]) -> int:
    return int(item[0])


def _changed_line(snapshot: Snapshot) -> str | None:
    if not snapshot.changed:
        return None
    count = len(snapshot.changed)
    noun = "memory names a file" if count == 1 else "memories name files"
    ids = ", ".join(sorted(snapshot.changed, key=int))
    return (
        f"Changed since written: {count} {noun} changed a lot since ({ids}); check "
        "before relying on them. See `synapse memory drift --kind changed`."
    )


def render_text(snapshot: Snapshot, budget: Budget, limit: int = LIMIT_BYTES) -> str:
    """The session text for `budget`, never more than `limit` UTF-8 bytes."""
    limit = min(limit, budget.response_chars, LIMIT_BYTES)
    where = f"project {snapshot.project}" if snapshot.project else "no project (global only)"
    head = f" at {snapshot.head[:12]}" if snapshot.head else ""
    header = [f"Synapse memory for {where}{head}."]
    footer = [
        line
        for line in (
            _conflicts_line(snapshot),
            _left_out_line(snapshot),
            _changed_line(snapshot),
            HINT,
        )
        if line
    ]
    used = sum(len(line.encode("utf-8")) + 1 for line in header + footer) + 64
    body: list[str] = []
    shown = 0
    section = None
    for entry in snapshot.entries:
        title = "Global memories:" if entry.is_global else "Project memories:"
        newer = snapshot.older.get(str(entry.id))
        lines = ([title] if title != section else []) + _entry_lines(entry, budget.hit_bytes, newer)
        size = sum(len(line.encode("utf-8")) + 1 for line in lines)
        if used + size > limit:
            break
        body += lines
        used += size
        section = title
        shown += 1
    hidden = len(snapshot.entries) - shown
    if not snapshot.entries:
        body.append("No memories to tell yet (`synapse memory remember` adds one).")
    elif hidden:
        footer.insert(0, f"Not shown for space: {hidden} more (`synapse memory list`).")
    text = visible("\n".join(header + body + footer)) + "\n"
    # A long left-out line (thousands of drifted ids) must not break the cap either.
    return cut(text, limit)


def render(snapshot: Snapshot, budget: Budget, fmt: str) -> str:
    """Text, or for `claude` (or `cursor`) the JSON that client's session start hook
    reads; either way at most LIMIT_BYTES bytes including the JSON escaping."""
    if fmt not in ("claude", "cursor"):
        return render_text(snapshot, budget)
    limit = LIMIT_BYTES - 128
    while True:
        context = render_text(snapshot, budget, limit)
        out = json_text(
            # Cursor's sessionStart hook reads `additional_context` at the top level.
            {"additional_context": context}
            if fmt == "cursor"
            else {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": context,
                }
            }
        )
        overflow = len(out.encode("utf-8")) - LIMIT_BYTES
        if overflow <= 0 or limit <= 256:
            return out
        limit -= overflow + 16
