"""HTML for the viewer's pages: every text from the store goes through `text`, which
shows control characters escaped (synapse_git/escaping.py) and then escapes HTML, so
a body holding markup or terminal codes is shown as the characters it holds."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlencode

from synapse_git.escaping import visible

NAV = (("/search", "Search"), ("/memories", "Memories"), ("/drift", "Drift"), ("/team", "Team"))

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f6f7f9; }
header { background: #1d2430; color: #fff; padding: .6em 1.2em; display: flex; gap: 1.5em;
  align-items: baseline; flex-wrap: wrap; }
header strong { font-size: 1.1em; }
header a { color: #cfe0ff; text-decoration: none; }
header a.here { color: #fff; border-bottom: 2px solid #7fb0ff; }
header .scope { margin-left: auto; color: #aab4c3; font-size: .85em; }
main { max-width: 60em; margin: 1.2em auto; padding: 0 1.2em; }
h1 { font-size: 1.35em; margin: .2em 0 .6em; }
h2 { font-size: 1.1em; margin: 1.4em 0 .5em; }
form.inline { display: inline; }
input[type=text], input[type=search], select, textarea { font: inherit; padding: .3em .45em;
  border: 1px solid #b9c2cf; border-radius: 4px; background: #fff; }
textarea { width: 100%; box-sizing: border-box; min-height: 10em; font-family: ui-monospace,
  monospace; }
button { font: inherit; padding: .25em .8em; border-radius: 4px; border: 1px solid #5a6b85;
  background: #fff; cursor: pointer; }
button.danger { border-color: #b03030; color: #b03030; }
.card { background: #fff; border: 1px solid #dde2ea; border-radius: 6px; padding: .7em 1em;
  margin: .7em 0; }
.meta { color: #5a6577; font-size: .85em; }
.body { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace;
  font-size: .9em; margin: .4em 0 0; }
.weak { color: #9a5b00; font-weight: 600; }
.kind { font-weight: 600; text-transform: uppercase; font-size: .8em; letter-spacing: .03em; }
.stale, .conflict { color: #b03030; } .duplicate, .unverified { color: #9a5b00; }
.note { background: #e8f1ff; border: 1px solid #b7d0f5; padding: .5em .8em; border-radius: 4px; }
.error { background: #fdecec; border: 1px solid #f0b8b8; padding: .5em .8em; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .3em .5em; border-bottom: 1px solid #e3e7ee;
  vertical-align: top; }
th { font-size: .85em; color: #5a6577; }
table.facts th { width: 9em; font-size: .9em; }
code { font-family: ui-monospace, monospace; font-size: .9em; overflow-wrap: anywhere; }
.filters { display: flex; gap: .6em; flex-wrap: wrap; align-items: end; }
.filters label { display: flex; flex-direction: column; font-size: .8em; color: #5a6577; }
.pager { margin: 1em 0; display: flex; gap: 1em; }
.actions { margin-top: .5em; display: flex; gap: .5em; flex-wrap: wrap; align-items: center; }
"""


def text(value: object) -> str:
    """Any value as HTML text: control characters shown escaped, markup as characters."""
    return html.escape(visible(str(value)), quote=True)


def link(path: str, label: str, **query: object) -> str:
    kept = {k: v for k, v in query.items() if v not in (None, "")}
    href = path + (f"?{urlencode(kept)}" if kept else "")
    return f'<a href="{html.escape(href, quote=True)}">{text(label)}</a>'


def button(
    action: str,
    label: str,
    csrf: str,
    fields: Mapping[str, object] | None = None,
    *,
    danger: bool = False,
) -> str:
    """A form of one button: every write is a POST carrying the CSRF value."""
    hidden = "".join(
        f'<input type="hidden" name="{text(k)}" value="{text(v)}">'
        for k, v in (fields or {}).items()
    )
    kind = ' class="danger"' if danger else ""
    return (
        f'<form class="inline" method="post" action="{text(action)}">'
        f'<input type="hidden" name="csrf" value="{text(csrf)}">{hidden}'
        f"<button{kind}>{text(label)}</button></form>"
    )


def csrf_field(csrf: str) -> str:
    return f'<input type="hidden" name="csrf" value="{text(csrf)}">'


def page(
    title: str, here: str, scope_note: str, content: str, note: str = "", reload_in: int = 0
) -> str:
    """A whole page; with `reload_in`, the browser loads `here` again after that many
    seconds (a meta refresh: markup, which the policy that runs no script lets through;
    `here`, not the address shown, so a `fresh=1` is not asked for again and again)."""
    refresh = f'<meta http-equiv="refresh" content="{reload_in};url={here}">' if reload_in else ""
    nav = "".join(
        f'<a href="{path}"{" class=here" if path == here else ""}>{label}</a>'
        for path, label in NAV
    )
    shown_note = f'<p class="note">{text(note)}</p>' if note else ""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{refresh}"
        f"<title>{text(title)} · synapse</title>"
        '<link rel="stylesheet" href="/style.css"></head><body>'
        f"<header><strong>synapse</strong>{nav}"
        f'<span class="scope">{text(scope_note)}</span></header>'
        f"<main><h1>{text(title)}</h1>{shown_note}{content}</main></body></html>\n"
    )


def error_page(message: str) -> str:
    return page("Cannot do that", "", "", f'<p class="error">{text(message)}</p>')


def table(heads: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table of cells already rendered as HTML."""
    head = "".join(f"<th>{text(h)}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def facts_table(facts: Iterable[tuple[str, str]]) -> str:
    """Name and value rows; the values are already HTML."""
    rows = "".join(f"<tr><th>{text(name)}</th><td>{value}</td></tr>" for name, value in facts)
    return f'<table class="facts"><tbody>{rows}</tbody></table>'


def bars(counts: Sequence[tuple[str, int]], *, label: str, width: int = 360) -> str:
    """A small horizontal bar chart as inline SVG (markup, not script)."""
    if not counts:
        return ""
    top = max(n for _, n in counts) or 1
    row = 22
    parts = []
    for index, (label, n) in enumerate(counts):
        y = index * row
        length = round((width - 170) * n / top)
        parts.append(
            f'<text x="0" y="{y + 15}" font-size="12" fill="#5a6577">{text(label)}</text>'
            f'<rect x="110" y="{y + 4}" width="{length}" height="14" fill="#5b8def"></rect>'
            f'<text x="{116 + length}" y="{y + 15}" font-size="12">{n}</text>'
        )
    height = row * len(counts)
    return (
        f'<svg role="img" aria-label="{text(label)}" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}">{"".join(parts)}</svg>'
    )


# The colours of the kinds in the pictures (those of the page's text).
KIND_COLOURS = {"stale": "#b03030", "conflict": "#e07a1f", "duplicate": "#9a5b00"}


def over_time(
    points: Sequence[tuple[str, Sequence[int]]],
    kinds: Sequence[str],
    *,
    label: str,
    width: int = 560,
    height: int = 120,
) -> str:
    """Stacked columns, one a point (oldest left), as inline SVG (markup, not script):
    a legend of `kinds` above, the first and last dates and the tallest count below."""
    if not points:
        return ""
    top = max(sum(counts) for _, counts in points) or 1
    step = width / len(points)
    bar = max(1.0, step * 0.8)
    legend = 18  # the legend's row above the columns
    parts = []
    for index, kind in enumerate(kinds):
        colour = KIND_COLOURS.get(kind, "#5b8def")
        parts.append(
            f'<rect x="{index * 100}" y="2" width="10" height="10" fill="{colour}"></rect>'
            f'<text x="{index * 100 + 14}" y="11" font-size="11">{text(kind)}</text>'
        )
    for index, (_, counts) in enumerate(points):
        y = float(legend + height)
        for kind, n in zip(kinds, counts, strict=True):
            tall = (height - 4) * n / top
            if tall:
                y -= tall
                parts.append(
                    f'<rect x="{index * step:.1f}" y="{y:.1f}" width="{bar:.1f}"'
                    f' height="{tall:.1f}" fill="{KIND_COLOURS.get(kind, "#5b8def")}"></rect>'
                )
    base = legend + height + 14
    first, last = (points[n][0][:16].replace("T", " ") for n in (0, -1))
    parts.append(
        f'<text x="0" y="{base}" font-size="11" fill="#5a6577">{text(first)}</text>'
        f'<text x="{width}" y="{base}" font-size="11" fill="#5a6577"'
        f' text-anchor="end">{text(last)}</text>'
        f'<text x="{width / 2:.0f}" y="{base}" font-size="11" fill="#5a6577"'
        f' text-anchor="middle">tallest: {top}</text>'
    )
    total = base + 4
    return (
        f'<svg role="img" aria-label="{text(label)}" width="{width}" height="{total}"'
        f' viewBox="0 0 {width} {total}">{"".join(parts)}</svg>'
    )
