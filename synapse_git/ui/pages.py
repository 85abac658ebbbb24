"""The viewer's pages and actions (docs/ui.md): each asks the `Synapse` service what
the CLI asks it, in one call per page or action, and renders the answer as HTML.

Requests reach these only through `synapse_git/ui/guard.py`. A GET never writes; a
write is a POST that answers with a redirect (303) to the page to show next.
"""

from __future__ import annotations

import html
import re
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import parse_qsl, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from synapse_git.drift.finding_record import Finding
from synapse_git.drift.kept import KEEPABLE
from synapse_git.errors import BadInput, NotFound, SynapseError
from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse
from synapse_git.session import drift_log
from synapse_git.store import listing_filter
from synapse_git.store.memories import Memory
from synapse_git.textrules import first_line
from synapse_git.ui.drift_cache import Cached
from synapse_git.ui.html import (
    STYLE,
    bars,
    button,
    csrf_field,
    facts_table,
    link,
    over_time,
    page,
    table,
    text,
)

PAGE_SIZE = 50
# What a browser form does not send back as it was given: C0 but newline and tab
# (a lone CR becomes CR LF, NUL becomes U+FFFD), DEL, C1, lone surrogates.
_UNSENDABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
Handler = Callable[[Request], Awaitable[Response]]
# How many refreshes the drift page's picture shows, the newest.
OVER_TIME_POINTS = 60


class Viewer:
    """The pages of one run: one service, one scope (the folder `synapse ui` ran in)."""

    def __init__(self, svc: Synapse, scope: Scope, csrf: str) -> None:
        self.svc = svc
        self.scope = scope
        self.csrf = csrf
        self.where = (
            f"project {scope.project}" if scope.project else f"{scope.note}: global memory only"
        )
        self.drift_now = Cached(lambda: svc.drift_overview(scope), lambda: svc.drift_stamp(scope))

    def app(self) -> Starlette:
        get = [
            ("/", self.home),
            ("/style.css", self.style),
            ("/search", self.search),
            ("/memories", self.memories),
            ("/memory/{memory_id:int}", self.memory),
            ("/drift", self.drift),
            ("/team", self.team),
        ]
        post = [
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
        routes = [Route(path, _safe(h), methods=["GET", "HEAD"]) for path, h in get]
        routes += [Route(path, _safe(self._writes(h)), methods=["POST"]) for path, h in post]
        # The drift page's check is worked out while the browser opens the first page.
        self.drift_now.warm()
        return Starlette(routes=routes)

    def _writes(self, handler: Handler) -> Handler:
        """A write: the drift page works its findings out again afterwards."""

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            finally:
                self.drift_now.drop()

        return run

    def _page(self, title: str, here: str, content: str, request: Request) -> HTMLResponse:
        note = request.query_params.get("note", "")[:300]
        return HTMLResponse(page(title, here, self.where, content, note))

    # -- reading -------------------------------------------------------------------

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
            more = (
                f'<p class="meta">abridged: {hit.bytes} bytes; {_whole(hit.id)}</p>'
                if hit.abridged
                else ""
            )
            cards.append(
                f'<div class="card hit"><div class="meta">{_ids([hit.id], "memory ")}'
                f" · {where} · score {hit.score:.4f}{weak}{source}{author}</div>"
                f'<div class="body">{text(hit.body)}</div>{more}</div>'
            )
        drift = "".join(_finding(f) for f in found.drift)
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
        narrow = listing_filter.make(
            scope=query.get("scope") or None,
            source=query.get("source") or None,
            author=query.get("author") or None,
            since=query.get("since") or None,
            state=query.get("state") or None,
        )
        number = _page_number(query.get("page", "1"))
        skip = (number - 1) * PAGE_SIZE
        if words:
            found = self.svc.matching(words, self.scope, narrow)
            shown = found.memories[skip : skip + PAGE_SIZE]
        else:
            found = self.svc.list_memories(self.scope, limit=PAGE_SIZE, offset=skip, narrow=narrow)
            shown = found.memories
        rows = [
            (
                link(f"/memory/{m.id}", str(m.id)),
                "global" if m.project is None else "project",
                text(m.state),
                text(m.created_at[:10]),
                text(m.source or "-"),
                text(first_line(m.body)),
            )
            for m in shown
        ]
        kept = {k: query.get(k, "") for k in ("q", "scope", "state", "source", "author", "since")}
        choice = _options(kept["scope"], ("", "project", "global"))
        states = _options(kept["state"], ("", "superseded", "forgotten", "any"), first="live")
        form = (
            '<form method="get" action="/memories" class="filters">'
            f'<label>words<input type="search" name="q" value="{text(kept["q"])}"></label>'
            f'<label>scope<select name="scope">{choice}</select></label>'
            f'<label>state<select name="state">{states}</select></label>'
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
        found = self.svc.history(memory_id, self.scope)
        memory = found.memory
        drift = self.svc.drift_about(self.scope, [memory_id])
        shared = dict((m.id, who) for m, who in self.svc.shared_memories(self.scope))
        facts = [
            ("state", text(memory.state)),
            ("scope", "global" if memory.project is None else f"project {text(memory.project)}"),
            ("source", text(memory.source or "-")),
            ("created", text(memory.created_at)),
            ("updated", text(memory.updated_at)),
            ("commit", _commit(memory)),
            (
                "team",
                f"shared by {text(shared[memory.id])}" if memory.id in shared else "not shared",
            ),
            ("supersedes", _ids(found.supersedes) or "-"),
            (
                "superseded by",
                "-" if memory.superseded_by is None else _ids([memory.superseded_by]),
            ),
        ]
        if len(found.chain) > 1:
            facts.append(("chain", " → ".join(link(f"/memory/{i}", str(i)) for i in found.chain)))
        from synapse_git.drift.paths import find_paths

        named = find_paths(memory.body)
        state = {p: str(f.get("kind")) for f in drift for p in f.get("paths", ())}
        paths = "".join(
            f"<li><code>{text(p)}</code> {_PATH_STATES.get(state.get(p, ''), '')}</li>"
            for p in named
        )
        content = facts_table(facts)
        content += f'<h2>Body</h2><div class="card body" id="body">{text(memory.body)}</div>'
        if named:
            content += f"<h2>Paths it names</h2><ul>{paths}</ul>"
        if drift:
            content += "<h2>Drift</h2>" + "".join(_finding(f, settle=True) for f in drift)
        content += self._memory_actions(memory, memory.id in shared)
        if found.versions:
            rows = [
                (
                    f"v{n}",
                    text(v.state),
                    text(v.changed_at),
                    text(v.change),
                    f'<div class="body">{text(v.body)}</div>',
                )
                for n, v in enumerate(found.versions, start=1)
            ]
            content += "<h2>History</h2>" + table(("", "state", "until", "change", "body"), rows)
        return self._page(f"Memory {memory.id}", "", content, request)

    def _memory_actions(self, memory: Memory, shared: bool) -> str:
        base = f"/memory/{memory.id}"
        if not memory.live:
            return (
                '<div class="actions">' + button(f"{base}/restore", "Restore", self.csrf) + "</div>"
            )
        team = ""
        if memory.project is not None and self.scope.checkout is not None:
            team = (
                button(f"{base}/unshare", "Unshare", self.csrf)
                if shared
                else button(f"{base}/share", "Share with the team", self.csrf)
            )
        return (
            '<div class="actions">'
            + button(f"{base}/forget", "Forget", self.csrf, danger=True)
            + team
            + "</div>"
            f'<h2>Supersede</h2><form method="post" action="{base}/supersede" class="filters">'
            f"{csrf_field(self.csrf)}"
            '<label>by memory id<input type="text" name="by" size="8" inputmode="numeric"></label>'
            "<button>Supersede by it</button></form>" + self._edit_form(memory)
        )

    def _edit_form(self, memory: Memory) -> str:
        """The text in a form to change, when a browser gives it back as it is: a body
        holding control characters (which a form turns into others or drops) is edited
        with the command instead, never rewritten by accident."""
        if _UNSENDABLE.search(memory.body):
            return (
                '<h2 id="edit">Edit</h2><p class="meta">This text holds control characters'
                " a browser form would not give back unchanged; edit it with"
                f" <code>synapse memory edit {memory.id}</code>.</p>"
            )
        return (
            f'<h2 id="edit">Edit</h2><form method="post" action="/memory/{memory.id}/edit">'
            f"{csrf_field(self.csrf)}"
            # The parser drops one newline right after <textarea>: this one, not the body's.
            f'<textarea name="body">\n{html.escape(memory.body)}</textarea>'
            '<div class="actions"><button>Save the new text</button></div></form>'
        )

    async def drift(self, request: Request) -> Response:
        overview, at = self.drift_now.get(fresh=request.query_params.get("fresh") == "1")
        report = overview.report
        number = _page_number(request.query_params.get("page", "1"))
        shown = report.findings[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]
        cards = []
        for finding in shown:
            kind = text(finding.kind)
            ids = " ".join(link(f"/memory/{i}", f"memory {i}") for i in finding.ids)
            actions = [
                button(
                    f"/memory/{i}/forget", f"Forget {i}", self.csrf, {"back": "/drift"}, danger=True
                )
                for i in finding.ids
            ]
            if finding.newer is not None and finding.older is not None:
                actions.append(
                    button(
                        f"/memory/{finding.older}/supersede",
                        f"Supersede {finding.older} by {finding.newer}",
                        self.csrf,
                        {"by": finding.newer, "back": "/drift"},
                    )
                )
            if finding.kind == "stale" and finding.renamed and len(finding.ids) == 1:
                memory_id = finding.ids[0]
                actions.append(
                    button(
                        f"/memory/{memory_id}/follow-renames",
                        f"Edit {memory_id} to name the new path",
                        self.csrf,
                        {"back": "/drift"},
                    )
                )
            actions += [f'<a href="/memory/{i}#edit">Edit {i}</a>' for i in finding.ids]
            if finding.kind in KEEPABLE:
                actions.append(self._keep_button(finding))
            authors = "".join(
                f'<p class="meta">memory {i} shared by {text(who)}</p>'
                for i, who in finding.authors
            )
            cards.append(
                f'<div class="card finding"><span class="kind {kind}">{kind}</span> {ids}'
                f"<p>{text(finding.detail)}</p>{authors}"
                f'<p class="meta">settle from a shell: <code>{text(finding.suggest)}</code></p>'
                f'<div class="actions">{"".join(actions)}</div></div>'
            )
        counts: dict[str, int] = {}
        for finding in report.findings:
            counts[finding.kind] = counts.get(finding.kind, 0) + 1
        summary = f"{len(report.findings)} findings in {report.checked} memories checked"
        if report.kept:
            summary += f"; {report.kept} kept as still true not shown"
        checked = time.strftime("%H:%M:%S", time.localtime(at))
        content = (
            f'<p class="meta">{text(summary)} · checked at {checked} · '
            f"{link('/drift', 'check again', fresh=1)}</p>"
            + bars(sorted(counts.items()), label="drift findings by kind")
            + _over_time(overview.history)
        )
        pages = max(1, -(-len(report.findings) // PAGE_SIZE))
        pager = [f"<span>page {number} of {pages}</span>"]
        if number > 1:
            pager.insert(0, link("/drift", "← earlier", page=number - 1))
        if number < pages:
            pager.append(link("/drift", "later →", page=number + 1))
        content += f'<div class="pager">{"".join(pager)}</div>' if pages > 1 else ""
        content += "".join(cards) or "<p>No drift.</p>"
        return self._page("Drift", "/drift", content, request)

    def _keep_button(self, finding: Finding) -> str:
        """ "Keep, still true": this one finding, as `memory keep ID --kind K [--with ID]`."""
        fields: dict[str, object] = {"kind": finding.kind, "back": "/drift"}
        if len(finding.ids) > 1:
            fields["with"] = finding.ids[1]
        return button(f"/memory/{finding.ids[0]}/keep", "Keep: still true", self.csrf, fields)

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

    # -- writing -------------------------------------------------------------------

    async def forget(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        self.svc.forget(memory_id, self.scope)
        return _done(form, memory_id, f"forgot memory {memory_id}")

    async def restore(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        self.svc.restore(memory_id, self.scope)
        return _done(form, memory_id, f"restored memory {memory_id}")

    async def edit(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        # Browsers send CR LF in a textarea; the body keeps the line ends it was written with.
        body = form.get("body", "").replace("\r\n", "\n")
        self.svc.edit(memory_id, self.scope, body=body)
        return _done(form, memory_id, f"edited memory {memory_id}")

    async def follow_renames(self, request: Request) -> Response:
        """Settle a stale memory whose gone paths git followed to new names: its text
        naming the new ones, worked out again here from the store and the checkout."""
        memory_id, form = await _target(request)
        from synapse_git.drift.settle import corrected

        fixed = None
        for found in self.svc.drift_about(self.scope, [memory_id]):
            if found.get("kind") == "stale" and found.get("ids") == [memory_id]:
                body = self.svc.history(memory_id, self.scope).memory.body
                renamed = list(dict(found.get("renamed", {})).items())
                fixed = corrected(body, found.get("paths", []), renamed)
        if fixed is None:
            raise BadInput(f"memory {memory_id} names no gone path that git saw renamed")
        self.svc.edit(memory_id, self.scope, body=fixed)
        return _done(form, memory_id, f"memory {memory_id} now names the new path")

    async def keep(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        kind = form.get("kind", "")
        other = _number(form["with"], "the other memory") if form.get("with") else None
        done = self.svc.keep([memory_id], self.scope, [kind], paired_with=other)
        said = f"kept {len(done.findings)} {kind} finding(s) about memory {memory_id} as still true"
        return _done(form, memory_id, said)

    async def supersede(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        by = _number(form.get("by", ""), "the memory to supersede by")
        self.svc.supersede(memory_id, by, self.scope)
        return _done(form, by, f"memory {memory_id} is superseded by {by}")

    async def share(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        report = self.svc.share([memory_id], self.scope)
        said = "; ".join(report.warnings) or "commit .synapse/memories.jsonl to share it"
        return _done(form, memory_id, f"shared memory {memory_id}: {said}")

    async def team_share(self, request: Request) -> Response:
        body = (await request.body()).decode("utf-8", "strict")
        form = dict(parse_qsl(body, keep_blank_values=True))
        memory_id = _number(form.get("id", ""), "the memory to share")
        report = self.svc.share([memory_id], self.scope)
        said = "; ".join(report.warnings) or "commit .synapse/memories.jsonl to share it"
        return _done({"back": "/team"}, memory_id, f"shared memory {memory_id}: {said}")

    async def unshare(self, request: Request) -> Response:
        memory_id, form = await _target(request)
        gone = self.svc.unshare([memory_id], self.scope)
        said = "unshared" if gone else "was not shared"
        return _done(form, memory_id, f"memory {memory_id} {said}")


async def _target(request: Request) -> tuple[int, dict[str, str]]:
    """The memory a POST acts on and its form (the guard has checked size and CSRF)."""
    body = (await request.body()).decode("utf-8", "strict")
    return int(request.path_params["memory_id"]), dict(parse_qsl(body, keep_blank_values=True))


def _done(form: dict[str, str], memory_id: int, note: str) -> Response:
    """After a write, the page to show: the drift or team page it came from, or the memory."""
    back = form.get("back")
    target = back if back in ("/drift", "/team") else f"/memory/{memory_id}"
    return RedirectResponse(f"{target}?{urlencode({'note': note})}", status_code=303)


def _number(value: str, what: str) -> int:
    value = value.strip()
    if not value.isdigit() or len(value) > 19:
        raise BadInput(f"{what} must be a memory id (a whole number), not {value[:40]!r}")
    return int(value)


def _page_number(value: str) -> int:
    return int(value) if value.isdigit() and 0 < len(value) < 7 and int(value) > 0 else 1


def _ids(ids: list[int], prefix: str = "") -> str:
    return ", ".join(link(f"/memory/{i}", f"{prefix}{i}") for i in ids)


def _whole(memory_id: int) -> str:
    return link(f"/memory/{memory_id}", "read it whole")


_PATH_STATES = {
    "stale": '<span class="stale">gone from the checkout</span>',
    "unverified": '<span class="unverified">never seen by git here</span>',
}


def _finding(found: dict[str, object], *, settle: bool = False) -> str:
    """One drift finding as recall and the memory page list it (docs/json.md)."""
    kind = text(found.get("kind"))
    shown = f'<p class="meta"><span class="kind {kind}">{kind}</span> {text(found.get("detail"))}'
    if settle:
        shown += f"<br>settle from a shell: <code>{text(found.get('suggest'))}</code>"
    return shown + "</p>"


def _over_time(history: Sequence[drift_log.Point]) -> str:
    """The counts of the last refreshes of this checkout, as columns."""
    if len(history) < 2:
        return ""
    kinds = ("stale", "conflict", "duplicate")
    recent = drift_log.of(history[-OVER_TIME_POINTS:], kinds)
    picture = over_time(recent, kinds, label="drift findings at each refresh of this checkout")
    return f"<h2>Over time</h2>{picture}"


def _options(chosen: str, values: tuple[str, ...], first: str = "any") -> str:
    """A select's options, `chosen` selected; the empty value is labelled `first`."""
    return "".join(
        f'<option value="{v}"{" selected" if chosen == v else ""}>{v or first}</option>'
        for v in values
    )


def _field(label: str, name: str, value: str) -> str:
    return f'<label>{text(label)}<input type="text" name="{name}" value="{text(value)}"></label>'


def _commit(memory: Memory) -> str:
    if memory.head_commit is None:
        return "-"
    branch = f" on {text(memory.branch)}" if memory.branch else ""
    return f"<code>{text(memory.head_commit[:12])}</code>{branch}"


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
