"""The viewer's writes (docs/ui.md): each a POST the guard let through (size, Origin,
CSRF value), one service call, the same the CLI makes, then a redirect (303) to the
page to show next."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from synapse_git.errors import BadInput
from synapse_git.service import Scope, Synapse
from synapse_git.ui.drift_cache import DriftChecks

Handler = Callable[[Request], Awaitable[Response]]


class Actions:
    """The writes of one run; `Viewer` (ui/pages.py) joins them with the pages."""

    svc: Synapse
    scope: Scope
    drift: DriftChecks

    def posts(self) -> list[tuple[str, Handler]]:
        return [
            ("/memory/{memory_id:int}/forget", self.forget),
            ("/memory/{memory_id:int}/restore", self.restore),
            ("/memory/{memory_id:int}/edit", self.edit),
            ("/memory/{memory_id:int}/supersede", self.supersede),
            ("/memory/{memory_id:int}/follow-renames", self.follow_renames),
            ("/memory/{memory_id:int}/keep", self.keep),
            ("/memory/{memory_id:int}/share", self.share),
            ("/memory/{memory_id:int}/unshare", self.unshare),
            ("/team/share", self.team_share),
        ]

    def changed(self, ids: list[int]) -> None:
        """A write went through and changed what drift reads (a memory's text or state,
        a finding kept, a memory's sharing): the drift page's check is out of date, and
        its findings about `ids` wait for the next one. A write refused, or one that
        changed nothing, leaves the check as it is, so a large store starts no check it
        does not need."""
        self.drift.written(ids)

    def there(self, project: str) -> Scope:
        """The scope a page or write is for: the folder served, or the project `project`
        names (a key from the list page's project filter)."""
        if not project or project == self.scope.project:
            return self.scope
        return self.svc.project_scope(project)

    async def _target(self, request: Request) -> tuple[int, dict[str, str], Scope]:
        """The memory a POST acts on, its form, and the scope it acts in."""
        body = (await request.body()).decode("utf-8", "strict")
        form = dict(parse_qsl(body, keep_blank_values=True))
        memory_id = int(request.path_params["memory_id"])
        return memory_id, form, self.there(form.get("project", ""))

    async def forget(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        self.svc.forget(memory_id, scope)
        self.changed([memory_id])
        return done(form, memory_id, f"forgot memory {memory_id}")

    async def restore(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        self.svc.restore(memory_id, scope)
        self.changed([memory_id])
        return done(form, memory_id, f"restored memory {memory_id}")

    async def edit(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        # Browsers send CR LF in a textarea; the body keeps the line ends it was written with.
        body = form.get("body", "").replace("\r\n", "\n")
        # When the page was made: a change made since (an agent, a teammate's edit
        # synced by a pull) is not written over.
        self.svc.edit(memory_id, scope, body=body, seen=form.get("seen") or None)
        self.changed([memory_id])
        return done(form, memory_id, f"edited memory {memory_id}")

    async def follow_renames(self, request: Request) -> Response:
        """Settle a stale memory whose gone paths git followed to new names."""
        memory_id, form, scope = await self._target(request)
        self.svc.follow_renames(memory_id, scope)
        self.changed([memory_id])
        return done(form, memory_id, f"memory {memory_id} now names the new path")

    async def keep(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        kind = form.get("kind", "")
        other = number(form["with"], "the other memory") if form.get("with") else None
        kept = self.svc.keep([memory_id], scope, [kind], paired_with=other)
        if kept.findings:
            self.changed([memory_id])
        said = f"kept {len(kept.findings)} {kind} finding(s) about memory {memory_id} as still true"
        return done(form, memory_id, said)

    async def supersede(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        by = number(form.get("by", ""), "the memory to supersede by")
        self.svc.supersede(memory_id, by, scope)
        self.changed([memory_id, by])
        return done(form, by, f"memory {memory_id} is superseded by {by}")

    async def share(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        report = self.svc.share([memory_id], scope)
        if report.shared:
            self.changed([memory_id])
        said = "; ".join(report.warnings) or "commit .synapse/memories.jsonl to share it"
        return done(form, memory_id, f"shared memory {memory_id}: {said}")

    async def team_share(self, request: Request) -> Response:
        body = (await request.body()).decode("utf-8", "strict")
        form = dict(parse_qsl(body, keep_blank_values=True))
        memory_id = number(form.get("id", ""), "the memory to share")
        report = self.svc.share([memory_id], self.scope)
        if report.shared:
            self.changed([memory_id])
        said = "; ".join(report.warnings) or "commit .synapse/memories.jsonl to share it"
        return done({"back": "/team"}, memory_id, f"shared memory {memory_id}: {said}")

    async def unshare(self, request: Request) -> Response:
        memory_id, form, scope = await self._target(request)
        gone = self.svc.unshare([memory_id], scope)
        if gone:
            self.changed([memory_id])
        said = "unshared" if gone else "was not shared"
        return done(form, memory_id, f"memory {memory_id} {said}")


def done(form: dict[str, str], memory_id: int, note: str) -> Response:
    """After a write, the page to show: the drift or team page it came from, or the
    memory (in the project it was opened for)."""
    back = form.get("back")
    target = back if back in ("/drift", "/team") else f"/memory/{memory_id}"
    query = {"note": note}
    if target.startswith("/memory/") and form.get("project"):
        query = {"project": form["project"], **query}
    return RedirectResponse(f"{target}?{urlencode(query)}", status_code=303)


def number(value: str, what: str) -> int:
    value = value.strip()
    if not value.isdigit() or len(value) > 19:
        raise BadInput(f"{what} must be a memory id (a whole number), not {value[:40]!r}")
    return int(value)


def page_number(value: str) -> int:
    return int(value) if value.isdigit() and 0 < len(value) < 7 and int(value) > 0 else 1
