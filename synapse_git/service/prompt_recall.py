"""The memories that answer the prompt a user just submitted, as the context the
prompt hook adds (docs/hooks.md, "Memory at the prompt").

Before every prompt, so quick: lexical recall only (no semantic extra), the
project from `git rev-parse`, the store opened read-only, and the rest of the
service never imported. A hit is left out when recall marks it weak, when this
session was already given it, or when the last checkout refresh found it stale,
the older half of a conflicting or duplicate pair, or written on a branch not
merged here.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from synapse_git.escaping import visible

MAX_HITS = 4
# What is remembered of each session: the ids already given, bounded both ways.
GIVEN_FILE = "prompt-given.json"
SESSIONS_KEPT = 256
IDS_KEPT = 512
LEAD = (
    "Synapse memory for this prompt (to read one whole: readmemory with its id and"
    " project {projects}, or `synapse memory read ID`):"
)
# Under a small cap a long project path would leave no room for a hit.
SHORT_LEAD = "Synapse memory for this prompt (`synapse memory read ID` reads one whole):"
MIN_HIT_ROOM = 120


class PromptContext(NamedTuple):
    """The context for a prompt ("" when no memory answers it well), and why the ids
    it shows could not be noted for the session, when they could not."""

    text: str
    unnoted: str | None = None


def context(prompt: str | None, folder: Path | None, session: str | None) -> PromptContext:
    """What memory to add to `prompt`, submitted in `folder` during `session`."""
    from synapse_git import settings

    if not prompt or not prompt.strip():
        return PromptContext("")
    if os.environ.get("SYNAPSE_SHARED_HOOK"):
        from synapse_git.clients import shared_hook

        if shared_hook.gives_way("prompt", folder):
            return PromptContext("")
    cfg = settings.load()
    project, hits = recall(prompt, folder, cfg.db_path, cfg.prompt_chars)
    if not hits:
        return PromptContext("")
    given = _Given(cfg.data_dir, session, project)
    fresh = [hit for hit in hits if hit[0] not in given.ids]
    rendered = render(fresh, cfg.prompt_chars)
    if rendered is None:
        return PromptContext("")
    text, shown = rendered
    try:
        given.add(shown)
    except OSError as exc:
        # The context still goes out; only the next repeat may bring it again.
        return PromptContext(text, str(exc.strerror))
    return PromptContext(text)


Found = tuple[int, str, str]  # id, project key ("" for global), body as recall abridged it


def recall(prompt: str, folder: Path | None, db: Path, cap: int) -> tuple[str, list[Found]]:
    """The project key of `folder` ("" outside git) and the hits that answer `prompt`
    well from its scope, best first."""
    from synapse_git.git import git_command
    from synapse_git.recall import query_terms, ranking, response, rewordings
    from synapse_git.settings import Budget
    from synapse_git.store import readonly
    from synapse_git.textrules import cut_utf8

    # A prompt may be long (a pasted file); its start is searched, as much as recall
    # takes of a question, and a long prompt costs no more than that.
    head = cut_utf8(prompt.encode("utf-8", "surrogatepass"), query_terms.MAX_QUERY_BYTES)
    parsed = query_terms.parse(head.decode("utf-8", "surrogatepass"))
    if parsed.empty:
        return "", []
    conn = readonly.open_readonly(db)
    if conn is None:
        return "", []
    where = git_command.locate(folder)
    projects: tuple[str, ...] = () if where is None else (where.project,)
    left_out = _left_out(db.parent, where)
    budget = Budget("prompt", MAX_HITS, max(cap, 64), max(cap * 4, 4_000), max(cap, 64))
    with closing(conn):
        found = rewordings.search(conn, [parsed], projects, depth=ranking.DEPTH, floor=True)
        answered = response.build(
            conn,
            found,
            budget=budget,
            limit=MAX_HITS + len(left_out),
            project=projects[0] if projects else None,
            drift=lambda ids: [],
        )
    hits = [
        (hit.id, hit.project or "", hit.body)
        for hit in answered.hits
        if not hit.weak and str(hit.id) not in left_out
    ]
    return (projects[0] if projects else ""), hits[:MAX_HITS]


def _left_out(data: Path, where: Any) -> set[str]:
    """Ids the last checkout refresh found stale, the older half of a pair, or from
    another line of work (docs/branches.md)."""
    if where is None:
        return set()
    from synapse_git.session import snapshot_file

    snapshot = snapshot_file.read_raw(data, str(where.toplevel)) or {}
    left: set[str] = set()
    for key in ("stale", "older", "repeated", "elsewhere"):
        part = snapshot.get(key)
        if isinstance(part, dict):
            left.update(str(item) for item in part)
    return left


def render(hits: Sequence[Found], cap: int) -> tuple[str, list[int]] | None:
    """The context for `hits` within `cap` characters and the ids it shows, or None
    when none fits."""
    keys = sorted({project for _, project, _ in hits if project})
    named = [json.dumps(key, ensure_ascii=False) for key in keys[:1]]
    lead = visible(LEAD.format(projects=" or ".join([*named, "null (global)"])))
    if cap - len(lead) < MIN_HIT_ROOM:
        lead = SHORT_LEAD
    lines = [lead]
    used = len(lead) + 1
    shown: list[int] = []
    for memory_id, project, body in hits:
        where = "global" if not project else "project"
        head = f"- [{memory_id}] ({where}) "
        flat = " ".join(visible(body).split())
        room = cap - used - len(head) - 1
        if room < 40:
            break
        if len(flat) > room:
            flat = flat[: room - 1].rstrip() + "…"
        lines.append(head + flat)
        shown.append(memory_id)
        used += len(lines[-1]) + 1
    if not shown:
        return None
    return "\n".join(lines) + "\n", shown


class _Given:
    """The memory ids already given to one session (keyed by session and project),
    kept in the data folder so a repeat of a prompt does not bring them again."""

    def __init__(self, data: Path, session: str | None, project: str) -> None:
        self.path = data / GIVEN_FILE
        self.key = (
            None
            if not session
            else hashlib.sha256(f"{session}\0{project}".encode()).hexdigest()[:32]
        )
        self.doc = self._read() if self.key else {}
        entry = self.doc.get(self.key) if self.key else None
        self.ids: set[int] = set()
        if isinstance(entry, dict) and isinstance(entry.get("ids"), list):
            self.ids = {i for i in entry["ids"] if isinstance(i, int)}

    def _read(self) -> dict[str, Any]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}

    def add(self, ids: Sequence[int]) -> None:
        if self.key is None or not ids:
            return
        kept = [*sorted(self.ids), *ids][-IDS_KEPT:]
        self.doc[self.key] = {"at": int(time.time()), "ids": kept}
        newest = sorted(
            self.doc.items(),
            key=lambda kv: kv[1].get("at", 0) if isinstance(kv[1], dict) else 0,
            reverse=True,
        )[:SESSIONS_KEPT]
        temporary = self.path.with_name(f".{GIVEN_FILE}.{os.getpid()}")
        try:
            temporary.write_text(json.dumps(dict(newest)), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            temporary.unlink(missing_ok=True)
            raise
