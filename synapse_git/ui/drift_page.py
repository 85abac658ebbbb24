"""The drift page's HTML (docs/ui.md): the findings of the last whole check, fifty a
page, each with its settle buttons, a bar chart by kind and the counts over time."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from synapse_git.ui.drift_cache import Shown
from synapse_git.ui.html import bars, button, link, over_time, text

if TYPE_CHECKING:
    from synapse_git.answers import FindingOut

PAGE_SIZE = 50
# The kinds the picture over time draws.
OVER_TIME_KINDS = ("stale", "conflict", "duplicate")


def drift_html(
    shown: Shown,
    history: Sequence[tuple[str, Sequence[int]]],
    number: int,
    csrf: str,
    keepable: Callable[[str], bool],
) -> str:
    """The page's content: `shown` from ui/drift_cache.py, page `number` of its findings."""
    check = shown.check
    if check is None:
        if shown.error:
            return f'<p class="error">The drift check failed: {text(shown.error)}</p>'
        return (
            "<p>The findings of a whole drift check are being worked out beside these"
            " pages; this page shows them by itself once they are ready"
            f" ({link('/drift', 'reload')}).</p>"
        )
    report = check["report"]
    # Findings about a memory written since the check may be settled already: they wait
    # for the check under way.
    findings = [f for f in report["findings"] if not shown.touched.intersection(f["ids"])]
    waiting = len(report["findings"]) - len(findings)
    shown_here = findings[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding["kind"]] = counts.get(finding["kind"], 0) + 1
    summary = f"{len(findings)} findings in {report['checked']} memories checked"
    if report.get("kept"):
        summary += f"; {report.get('kept')} kept as still true not shown"
    checked = time.strftime("%H:%M:%S", time.localtime(check["at"]))
    state = f"checked at {checked} · {link('/drift', 'check again', fresh=1)}"
    if shown.refreshing:
        state = (
            f"checked at {checked}; a new check is under way (the last took"
            f" {check['took']:.1f} s):"
            f" {link('/drift', 'reload')} to see it"
        )
    if waiting:
        state += f" · {waiting} about memories changed here since wait for it"
    if shown.error:
        state += f" · the last check failed: {text(shown.error)}"
    content = f'<p class="meta">{text(summary)} · {state}</p>' + bars(
        sorted(counts.items()), label="drift findings by kind"
    )
    if len(history) >= 2:
        picture = over_time(
            history, OVER_TIME_KINDS, label="drift findings at each refresh of this checkout"
        )
        content += f"<h2>Over time</h2>{picture}"
    pages = max(1, -(-len(findings) // PAGE_SIZE))
    pager = [f"<span>page {number} of {pages}</span>"]
    if number > 1:
        pager.insert(0, link("/drift", "← earlier", page=number - 1))
    if number < pages:
        pager.append(link("/drift", "later →", page=number + 1))
    content += f'<div class="pager">{"".join(pager)}</div>' if pages > 1 else ""
    cards = "".join(_card(f, csrf, keepable) for f in shown_here)
    return content + (cards or "<p>No drift.</p>")


def _card(finding: FindingOut, csrf: str, keepable: Callable[[str], bool]) -> str:
    kind = text(finding["kind"])
    ids = finding["ids"]
    back = {"back": "/drift"}
    actions = [button(f"/memory/{i}/forget", f"Forget {i}", csrf, back, danger=True) for i in ids]
    newer, older = finding.get("newer"), finding.get("older")
    if newer is not None and older is not None:
        actions.append(
            button(
                f"/memory/{older}/supersede",
                f"Supersede {older} by {newer}",
                csrf,
                {"by": newer, "back": "/drift"},
            )
        )
    if finding["kind"] == "stale" and finding.get("renamed") and len(ids) == 1:
        actions.append(
            button(
                f"/memory/{ids[0]}/follow-renames",
                f"Edit {ids[0]} to name the new path",
                csrf,
                back,
            )
        )
    actions += [f'<a href="/memory/{i}#edit">Edit {i}</a>' for i in ids]
    if keepable(finding["kind"]):
        # "Keep, still true": this one finding, as `memory keep ID --kind K [--with ID]`.
        fields: dict[str, object] = {"kind": finding["kind"], "back": "/drift"}
        if len(ids) > 1:
            fields["with"] = ids[1]
        actions.append(button(f"/memory/{ids[0]}/keep", "Keep: still true", csrf, fields))
    authors = "".join(
        f'<p class="meta">memory {text(i)} shared by {text(who)}</p>'
        for i, who in finding.get("authors", {}).items()
    )
    named = " ".join(link(f"/memory/{i}", f"memory {i}") for i in ids)
    return (
        f'<div class="card finding"><span class="kind {kind}">{kind}</span> {named}'
        f"<p>{text(finding['detail'])}</p>{authors}"
        f'<p class="meta">settle from a shell: <code>{text(finding["suggest"])}</code></p>'
        f'<div class="actions">{"".join(actions)}</div></div>'
    )
