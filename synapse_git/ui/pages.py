"""The viewer's pages (docs/ui.md): each asks the `Synapse` service what the CLI asks
it and renders the answer as HTML; the writes are in ui/actions.py.

Requests reach these only through `synapse_git/ui/guard.py`. A GET never writes.
"""

from __future__ import annotations

import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from synapse_git.errors import NotFound, SynapseError
from synapse_git.escaping import first_line
from synapse_git.service import Scope, Synapse
from synapse_git.ui.actions import Actions, Handler, page_number
from synapse_git.ui.drift_cache import DriftChecks
from synapse_git.ui.drift_page import OVER_TIME_KINDS, drift_html
from synapse_git.ui.html import STYLE, bars, button, csrf_field, link, page, table, text
from synapse_git.ui.memory_page import finding_html, ids_html, memory_html

PAGE_SIZE = 50
# How many refreshes the drift page's picture shows, the newest.
OVER_TIME_POINTS = 60
# How often the drift page asks again while the first check is worked out: each ask
# costs the server a few milliseconds.
RELOAD_S = 2


class Viewer(Actions):
    """The pages of one run: one service, one scope (the folder `synapse ui` ran in)."""

    def __init__(self, svc: Synapse, scope: Scope, csrf: str) -> None:
        self.svc = svc
        self.scope = scope
        self.csrf = csrf
        self.where = (
            f"project {scope.project}" if scope.project else f"{scope.note}: global memory only"
        )
        self.drift = DriftChecks(svc, scope)

    def app(self) -> Starlette:
        get = [
            ("/", self.home),
            ("/style.css", self.style),
            ("/search", self.search),
            ("/memories", self.memories),
            ("/memory/{memory_id:int}", self.memory),
            ("/drift", self.drift_page),
            ("/team", self.team),
        ]
        routes = [Route(path, _safe(h), methods=["GET", "HEAD"]) for path, h in get]
        routes += [Route(path, _safe(h), methods=["POST"]) for path, h in self.posts()]
        # One recall before serving loads what the pages run on (recall, drift about its
        # hits, git): a first page would otherwise pay for those imports, some 150 ms.
        self.svc.recall("", self.scope)
        # The drift page's last check is loaded, or a new one started, while the browser
        # opens the first page.
        self.drift.warm()
        return Starlette(routes=routes)

    def _page(
        self, title: str, here: str, content: str, request: Request, reload_in: int = 0
    ) -> HTMLResponse:
        note = request.query_params.get("note", "")[:300]
        return HTMLResponse(page(title, here, self.where, content, note, reload_in))

    async def home(self, request: Request) -> Response:
        return RedirectResponse("/search", status_code=303)

    async def style(self, request: Request) -> Response:
        return Response(STYLE, media_type="text/css")

    async def search(self, request: Request) -> Response:
        question = request.query_params.get("q", "")
        explain = request.query_params.get("explain") == "1"
        form = (
            '<form method="get" action="/search" class="filters">'
            f'<input type="search" name="q" value="{text(question)}" size="50"'
            ' placeholder="a question, e.g. how do we deploy" autofocus>'
            '<label><span>explain</span><input type="checkbox" name="explain" value="1"'
            f"{' checked' if explain else ''}></label><button>Recall</button></form>"
        )
        found = self.svc.recall(question, self.scope, explain=explain)
        cards = []
        for hit in found.hits:
            weak = ' <span class="weak">weak</span>' if hit.weak else ""
            source = f" · source {text(hit.source)}" if hit.source else ""
            author = f" · shared by {text(hit.author)}" if hit.author else ""
            where = "global" if hit.project is None else "project"
            whole = link(f"/memory/{hit.id}", "read it whole")
            more = (
                f'<p class="meta">abridged: {hit.bytes} bytes; {whole}</p>' if hit.abridged else ""
            )
            cards.append(
                f'<div class="card hit"><div class="meta">{ids_html([hit.id], "memory ")}'
                f" · {where} · score {hit.score:.4f}{weak}{source}{author}</div>"
                f'<div class="body">{text(hit.body)}</div>{more}</div>'
            )
        drift = "".join(finding_html(f) for f in found.drift)
        summary = f"{len(found.hits)} of {found.searched} memories"
        if any((found.cut_floor, found.cut_limit, found.cut_budget)):
            summary += (
                f"; cut {found.cut_floor} by the floor, {found.cut_limit} by the limit,"
                f" {found.cut_budget} by the budget"
            )
        if found.cut_weak:
            summary += f"; {found.cut_weak} left out as weak evidence"
        if any(hit.weak for hit in found.hits):
            summary += "; weak: nothing covers much of the question"
        content = form + f'<p class="meta">{text(summary)}</p>'
        content += "".join(cards) or "<p>Nothing recalled: try other words, or the list.</p>"
        if drift:
            content += "<h2>Drift about these</h2>" + drift
        if explain:
            content += self._explain(found)
        return self._page("Search", "/search", content, request)

    def _explain(self, found: object) -> str:
        candidates = getattr(found, "candidates", ())
        notes = "".join(f'<p class="meta">{text(n)}</p>' for n in getattr(found, "notes", ()))
        rows = [
            (
                link(f"/memory/{c.id}", str(c.id)),
                "-" if c.porter is None else str(c.porter),
                "-" if c.trigram is None else str(c.trigram),
                f"{c.score:.4f}",
                text(", ".join(c.held) or "-"),
                text(c.verdict),
            )
            for c in candidates
        ]
        heads = ("memory", "porter rank", "trigram rank", "score", "terms held", "verdict")
        return "<h2>Why each hit</h2>" + notes + table(heads, rows)

    async def memories(self, request: Request) -> Response:
        query = request.query_params
        words = query.get("q", "")
        project = query.get("project", "")
        scope = self.there(project)
        # Another project's memories are linked with its key, so that their pages
        # and buttons act in that project.
        there = {"project": project} if scope is not self.scope else {}
        narrow = self.svc.list_filter(
            # A project chosen: its own memories, unless global ones are asked for.
            scope=query.get("scope") or ("project" if project else None),
            source=query.get("source") or None,
            author=query.get("author") or None,
            since=query.get("since") or None,
            state=query.get("state") or None,
        )
        number = page_number(query.get("page", "1"))
        skip = (number - 1) * PAGE_SIZE
        if words:
            found = self.svc.matching(words, scope, narrow)
            shown = found.memories[skip : skip + PAGE_SIZE]
        else:
            found = self.svc.list_memories(scope, limit=PAGE_SIZE, offset=skip, narrow=narrow)
            shown = found.memories
        rows = [
            (
                link(f"/memory/{m.id}", str(m.id), **there),
                "global" if m.project is None else "project",
                text(m.state),
                text(m.created_at[:10]),
                text(m.source or "-"),
                text(first_line(m.body)),
            )
            for m in shown
        ]
        names = ("q", "project", "scope", "state", "source", "author", "since")
        kept = {k: query.get(k, "") for k in names}
        projects = _options(project, ("", *self.svc.projects()), first="this folder's")
        form = (
            '<form method="get" action="/memories" class="filters">'
            f'<label>words<input type="search" name="q" value="{text(kept["q"])}"></label>'
            f'<label>project<select name="project">{projects}</select></label>'
            f'<label>scope<select name="scope">{_options(kept["scope"], ("", "project", "global"))}'
            "</select></label>"
            '<label>state<select name="state">'
            f"{_options(kept['state'], ('', 'superseded', 'forgotten', 'any'), first='live')}"
            "</select></label>"
            + _field("source", "source", kept["source"])
            + _field("team author", "author", kept["author"])
            + _field("since (2026-11-30, 7d)", "since", kept["since"])
            + "<button>List</button></form>"
        )
        pages = max(1, -(-found.total // PAGE_SIZE))
        pager = []
        if number > 1:
            pager.append(link("/memories", "← newer", **kept, page=number - 1))
        what = "live memories" if narrow.live_only else "memories"
        pager.append(f"<span>page {number} of {pages} · {found.total} {what}</span>")
        if number < pages:
            pager.append(link("/memories", "older →", **kept, page=number + 1))
        heads = ("id", "scope", "state", "created", "source", "first line")
        listing = table(heads, rows) if rows else ""
        content = form + f'<div class="pager">{"".join(pager)}</div>' + (listing or "<p>None.</p>")
        return self._page("Memories", "/memories", content, request)

    async def memory(self, request: Request) -> Response:
        memory_id = int(request.path_params["memory_id"])
        project = request.query_params.get("project", "")
        scope = self.there(project)
        found = self.svc.history(memory_id, scope)
        drift = self.svc.drift_about(scope, [memory_id])
        shared = dict((m.id, who) for m, who in self.svc.shared_memories(scope))
        content = memory_html(
            found,
            drift,
            shared.get(memory_id) if memory_id in shared else None,
            self.svc.paths_in(found.memory.body),
            csrf=self.csrf,
            can_share=scope.checkout is not None,
            project=project if scope is not self.scope else "",
        )
        return self._page(f"Memory {memory_id}", "", content, request)

    async def drift_page(self, request: Request) -> Response:
        shown = self.drift.get(fresh=request.query_params.get("fresh") == "1")
        history = self.svc.drift_over_time(self.scope, OVER_TIME_KINDS, OVER_TIME_POINTS)
        number = page_number(request.query_params.get("page", "1"))
        content = drift_html(shown, history, number, self.csrf, self.svc.keepable)
        # Before the first check there is nothing to read: the page asks again by itself
        # until the check is ready. With findings shown it waits to be reloaded, so as
        # not to move what a person is reading or about to press.
        first = shown.check is None and shown.refreshing and not shown.error
        return self._page("Drift", "/drift", content, request, RELOAD_S if first else 0)

    async def team(self, request: Request) -> Response:
        info = self.svc.project_info(self.scope)
        chart = [(f"project {k}", n) for k, n in info.counts.items()]
        chart += [(f"global {k}", n) for k, n in info.global_counts.items()]
        content = "<h2>Memories by scope and state</h2>" + bars(
            chart, label="memories by scope and state"
        )
        if self.scope.project is None or self.scope.checkout is None:
            content += "<p>Team memory needs a repository with a work tree.</p>"
            return self._page("Team", "/team", content, request)
        shared = self.svc.shared_memories(self.scope)
        rows = [
            (
                link(f"/memory/{m.id}", str(m.id)),
                text(m.state),
                text(who or "-"),
                text(first_line(m.body)),
                button(f"/memory/{m.id}/unshare", "Unshare", self.csrf, {"back": "/team"}),
            )
            for m, who in shared
        ]
        content += "<h2>Shared through .synapse/memories.jsonl</h2>"
        content += (
            table(("id", "state", "shared by", "first line", ""), rows)
            if rows
            else "<p>Nothing is shared yet.</p>"
        )
        content += (
            '<h2>Share</h2><form method="post" action="/team/share" class="filters">'
            f"{csrf_field(self.csrf)}"
            '<label>memory id<input type="text" name="id" size="8" inputmode="numeric"></label>'
            "<button>Share with the team</button></form>"
        )
        return self._page("Team", "/team", content, request)


def _options(chosen: str, values: tuple[str, ...], first: str = "any") -> str:
    """A select's options, `chosen` selected; the empty value is labelled `first`."""
    return "".join(
        f'<option value="{text(v)}"{" selected" if chosen == v else ""}>{text(v or first)}</option>'
        for v in values
    )


def _field(label: str, name: str, value: str) -> str:
    return f'<label>{text(label)}<input type="text" name="{name}" value="{text(value)}"></label>'


def _safe(handler: Handler) -> Handler:
    """A handler whose failure is one line on the page, never a traceback: the store's
    errors say what to do; anything else is named by its kind and logged in one line."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except NotFound as exc:
            return HTMLResponse(_error(str(exc)), status_code=404)
        except SynapseError as exc:
            return HTMLResponse(_error(str(exc)), status_code=400)
        except UnicodeDecodeError:
            return HTMLResponse(_error("the form is not valid UTF-8"), status_code=400)
        except Exception as exc:
            print(f"synapse ui: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
            return HTMLResponse(_error(f"internal error ({type(exc).__name__})"), status_code=500)

    return run


def _error(message: str) -> str:
    from synapse_git.ui.html import error_page

    return error_page(message)
