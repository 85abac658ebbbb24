"""One memory's page (docs/ui.md): the exact body, its facts and chain, the paths it
names with what drift finds of them, its history, and the forms that act on it."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from synapse_git.service import History
from synapse_git.ui.html import button, csrf_field, facts_table, link, table, text

if TYPE_CHECKING:
    from synapse_git.answers import ShownOut

# What a browser form does not send back as it was given: C0 but newline and tab
# (a lone CR becomes CR LF, NUL becomes U+FFFD), DEL, C1, lone surrogates.
_UNSENDABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

_PATH_STATES = {
    "stale": '<span class="stale">gone from the checkout</span>',
    "unverified": '<span class="unverified">never seen by git here</span>',
}


def ids_html(ids: Sequence[int], prefix: str = "", **query: object) -> str:
    return ", ".join(link(f"/memory/{i}", f"{prefix}{i}", **query) for i in ids)


def finding_html(found: dict[str, Any], *, settle: bool = False) -> str:
    """One drift finding as recall and the memory page list it (docs/json.md)."""
    kind = text(found.get("kind"))
    shown = f'<p class="meta"><span class="kind {kind}">{kind}</span> {text(found.get("detail"))}'
    if settle:
        shown += f"<br>settle from a shell: <code>{text(found.get('suggest'))}</code>"
    return shown + "</p>"


def memory_html(
    found: History,
    drift: list[dict[str, Any]],
    shared_by: str | None,
    named: list[str],
    *,
    csrf: str,
    can_share: bool,
    project: str = "",
) -> str:
    """The page's content. `project`: the project key the page was opened for, when it
    is not the one of the folder the viewer serves (carried by its links and forms)."""
    memory = found.shown_json()
    there = {"project": project} if project else {}
    facts = [
        ("state", text(memory["state"])),
        ("scope", "global" if memory["project"] is None else f"project {text(memory['project'])}"),
        ("source", text(memory["source"] or "-")),
        ("created", text(memory["created_at"])),
        ("updated", text(memory["updated_at"])),
        ("commit", _commit(memory)),
        ("team", "not shared" if shared_by is None else f"shared by {text(shared_by)}"),
        ("supersedes", ids_html(found.supersedes, **there) or "-"),
        (
            "superseded by",
            "-"
            if memory["superseded_by"] is None
            else ids_html([memory["superseded_by"]], **there),
        ),
    ]
    if len(found.chain) > 1:
        facts.append(
            ("chain", " → ".join(link(f"/memory/{i}", str(i), **there) for i in found.chain))
        )
    state = {p: str(f.get("kind")) for f in drift for p in f.get("paths", ())}
    paths = "".join(
        f"<li><code>{text(p)}</code> {_PATH_STATES.get(state.get(p, ''), '')}</li>" for p in named
    )
    content = facts_table(facts)
    content += f'<h2>Body</h2><div class="card body" id="body">{text(memory["body"])}</div>'
    if named:
        content += f"<h2>Paths it names</h2><ul>{paths}</ul>"
    if drift:
        content += "<h2>Drift</h2>" + "".join(finding_html(f, settle=True) for f in drift)
    content += _actions(memory, shared_by is not None, csrf, can_share, there)
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
    return content


def _actions(
    memory: ShownOut, shared: bool, csrf: str, can_share: bool, there: dict[str, str]
) -> str:
    base = f"/memory/{memory['id']}"
    if memory["state"] != "live":
        return f'<div class="actions">{button(f"{base}/restore", "Restore", csrf, there)}</div>'
    team = ""
    if memory["project"] is not None and can_share:
        team = (
            button(f"{base}/unshare", "Unshare", csrf, there)
            if shared
            else button(f"{base}/share", "Share with the team", csrf, there)
        )
    hidden = "".join(
        f'<input type="hidden" name="{k}" value="{text(v)}">' for k, v in there.items()
    )
    return (
        '<div class="actions">'
        + button(f"{base}/forget", "Forget", csrf, there, danger=True)
        + team
        + "</div>"
        f'<h2>Supersede</h2><form method="post" action="{base}/supersede" class="filters">'
        f"{csrf_field(csrf)}{hidden}"
        '<label>by memory id<input type="text" name="by" size="8" inputmode="numeric"></label>'
        "<button>Supersede by it</button></form>" + _edit_form(memory, csrf, hidden)
    )


def _edit_form(memory: ShownOut, csrf: str, hidden: str) -> str:
    """The text in a form to change, when a browser gives it back as it is: a body
    holding control characters (which a form turns into others or drops) is edited
    with the command instead, never rewritten by accident."""
    if _UNSENDABLE.search(memory["body"]):
        return (
            '<h2 id="edit">Edit</h2><p class="meta">This text holds control characters'
            " a browser form would not give back unchanged; edit it with"
            f" <code>synapse memory edit {memory['id']}</code>.</p>"
        )
    return (
        f'<h2 id="edit">Edit</h2><form method="post" action="/memory/{memory["id"]}/edit">'
        f"{csrf_field(csrf)}{hidden}"
        # The memory's version the text is from: an edit over a change made since is refused.
        f'<input type="hidden" name="seen" value="{html.escape(memory["updated_at"])}">'
        # The parser drops one newline right after <textarea>: this one, not the body's.
        f'<textarea name="body">\n{html.escape(memory["body"])}</textarea>'
        '<div class="actions"><button>Save the new text</button></div></form>'
    )


def _commit(memory: ShownOut) -> str:
    if memory["commit"] is None:
        return "-"
    branch = f" on {text(memory['branch'])}" if memory["branch"] else ""
    return f"<code>{text(memory['commit'][:12])}</code>{branch}"
