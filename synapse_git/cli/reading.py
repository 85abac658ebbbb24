"""`synapse memory read | list | recall`: what each prints, for the typer commands
(cli/memory.py, cli/recall.py) and for their fast path (cli/quick.py), which parses
the same options without typer. Nothing here imports typer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.cli.colour import paint
from synapse_git.cli.output import (
    echo,
    moved_hints,
    note_global_only,
    other_history_hints,
    print_json,
    scope_of,
    service,
    write_bytes,
)
from synapse_git.errors import NotFound
from synapse_git.escaping import counted, first_line, visible

if TYPE_CHECKING:
    from synapse_git.answers import CandidateView, RecalledView

# Characters of a query said back when nothing matches it (recall echoes 240 bytes).
ECHOED = 240


def read(
    memory_id: int,
    *,
    offset: int = 0,
    budget: str | None = None,
    project: str | None = None,
    folder: Path | None = None,
    as_json: bool = False,
) -> None:
    """Print one exact page of a memory; follow `next` until it is null."""
    svc = service()
    page = svc.read(
        memory_id,
        scope_of(svc, folder, quiet=as_json),
        offset=offset,
        budget=budget,
        project=project,
        check_project=project is not None,
        count=True,
        required=not as_json,
    )
    if as_json:
        print_json({"memory": None if page is None else page.as_json()})
        return
    if page is None:
        raise NotFound.memory(memory_id)
    # Control characters are shown escaped (`--json` gives the exact bytes); written
    # straight to stdout since click.echo would strip some escape sequences from a pipe.
    sys.stdout.flush()
    write_bytes(visible(page.body).encode("utf-8"))
    ended = page.body.endswith("\n")
    if sys.stdout.isatty() and not ended:
        # Only a terminal gets a closing newline; a pipe gets the page as shown.
        write_bytes(b"\n")
        ended = True
    write_bytes(b"", flush=True)
    if page.next is not None:
        echo(
            ("" if ended else "\n") + f"-- bytes {page.offset}..{page.next} of {page.total}; "
            f"more: synapse memory read {page.id} --offset {page.next}",
            err=True,
        )


def list_(
    query: str | None = None,
    *,
    limit: int | None = None,
    scope_name: str | None = None,
    source: str | None = None,
    author: str | None = None,
    since: str | None = None,
    state: str | None = None,
    folder: Path | None = None,
    as_json: bool = False,
) -> None:
    """Visible memories, newest first; with QUERY, every memory that matches it."""
    svc = service()
    scope = scope_of(svc, folder, quiet=True)
    found = svc.listing(
        scope,
        query,
        limit=limit,
        scope_name=scope_name,
        source=source,
        author=author,
        since=since,
        state=state,
    )
    if as_json:
        print_json(found.as_json())
        return
    # After the call: a filter refused is its one line of error, with no note before it.
    note_global_only(scope)
    for line in moved_hints(found.moved_from, found.project):
        echo(line, err=True)
    for line in other_history_hints(found.other_history, found.project):
        echo(line, err=True)
    if not found.memories:
        if query:
            # As much of it as recall echoes of a question: a pasted page is not said back.
            shown = repr(query[:ECHOED]) + ("\u2026" if len(query) > ECHOED else "")
            echo(f"no memories match {shown}")
        else:
            echo("no memories pass these filters" if found.filtered else "no memories yet")
        return
    for memory in found.memories:
        scope_name = "global " if memory.project is None else "project"
        echo(f"{memory.id:>6}  {scope_name}  {memory.created_at[:10]}  {first_line(memory.body)}")
        if memory.id in found.elsewhere:
            from synapse_git.service.results import elsewhere_note

            echo(f"        ({elsewhere_note(found.elsewhere[memory.id])})")
    rest = found.total - len(found.memories)
    if rest > 0:
        echo(f"… and {rest} more (use --limit)")


def recall(
    question: str = "",
    *,
    budget: str | None = None,
    limit: int | None = None,
    explain: bool = False,
    also: list[str] | None = None,
    at: str | None = None,
    folder: Path | None = None,
    as_json: bool = False,
) -> None:
    """Recall the memories that answer QUESTION, within a budget."""
    svc = service()
    found = svc.recall(
        question,
        scope_of(svc, folder, quiet=as_json),
        budget=budget,
        limit=limit,
        explain=explain,
        alternatives=also or [],
        at=at,
    )
    if found.semantic is not None and found.semantic.startswith("off"):
        echo(f"note: semantic recall {found.semantic}", err=True)
    if as_json:
        print_json(found.explained_json() if explain else found.as_json())
        return
    print_recalled(found, question)
    if explain:
        _print_explain(found)


def print_recalled(found: RecalledView, question: str) -> None:
    elsewhere = {
        int(f["ids"][0]): f.get("branch")
        for f in found.drift
        if f.get("kind") in ("unmerged", "orphaned")
    }
    for hit in found.hits:
        where = "global" if hit.project is None else "project"
        label = f"  [{hit.source}{'…' if hit.sourceabridged else ''}]" if hit.source else ""
        shared = f"  (shared by {hit.author})" if hit.author else ""
        weak = "  " + paint("weak", "weak") if hit.weak else ""
        echo(f"{hit.id:>6}  {where}  {hit.score:.4f}{weak}{label}{shared}")
        if hit.id in elsewhere:
            from synapse_git.service.results import elsewhere_note

            echo(f"        ({elsewhere_note(elsewhere[hit.id])})")
        for line in hit.body.splitlines() or [""]:
            echo(f"        {line}")
        if hit.abridged:
            echo(f"        … abridged: {hit.bytes} bytes; synapse memory read {hit.id}")
    for finding in found.drift:
        echo(f"drift: {finding.get('kind')}: {finding.get('detail')}")
    cut = (found.cut_floor, found.cut_limit, found.cut_budget)
    summary = f"{len(found.hits)} of {counted(found.searched, 'memory', 'memories')}"
    if any(cut):
        summary += f"; cut {cut[0]} by the floor, {cut[1]} by the limit, {cut[2]} by the budget"
    if found.cut_weak:
        summary += f"; {found.cut_weak} left out as weak evidence"
    if any(hit.weak for hit in found.hits):
        summary += "; weak: nothing covers much of the question (try other words with --also)"
    if not found.hits:
        among = counted(found.searched, "memory", "memories")
        echo(f"nothing recalled for {first_line(question)!r} among {among}")
        echo("  try `synapse memory list QUERY` for every match, or other words")
        return
    echo(summary)


def _print_explain(found: RecalledView) -> None:
    """Every candidate: the hits in score order, the weak ones last with why, then
    what was left out and by what."""
    # With semantic recall on, each candidate also has its dense rank and cosine,
    # and with rewordings its best cosine to any wording.
    dense = any(hasattr(c, "cosine") for c in found.candidates)
    reworded = any(getattr(c, "reworded", False) for c in found.candidates)
    columns = "porter rank, trigram rank"
    if dense:
        columns += ", dense rank, cosine" + (", best cosine of any wording" if reworded else "")
    echo(f"explain ({columns}, fused score, terms held, verdict):")
    if found.semantic is not None:
        echo(f"  semantic: {found.semantic}")
    for note in found.notes:
        echo(f"  note: {note}")
    returned = {hit.id for hit in found.hits}
    ranked = sorted(found.candidates, key=lambda c: -c.score)
    groups = (
        ("hits", [c for c in ranked if c.id in returned and not c.weak]),
        ("weak hits, given last", [c for c in ranked if c.id in returned and c.weak]),
        ("not given", [c for c in ranked if c.id not in returned]),
    )
    for title, candidates in groups:
        if candidates:
            echo(f"  {title}:")
        for c in candidates:
            echo(f"  {_explained(c, dense, reworded)}")


def _explained(c: CandidateView, dense: bool, reworded: bool) -> str:
    ranks = f"{_rank(c.porter):>3}  {_rank(c.trigram):>3}"
    if dense:
        ranks += f"  {_rank(getattr(c, 'dense', None)):>3}  {_cosine(getattr(c, 'cosine', None))}"
        if reworded:
            ranks += f"  {_cosine(getattr(c, 'near', None))}"
    held = ",".join(c.held) or "-"
    verdict = c.verdict
    if verdict == "kept" and c.weak:
        verdict = f"kept, weak: {c.why_weak}"
    elif verdict.startswith("weak"):
        # Left out as one weak hit too many: say what made it weak.
        verdict = f"weak, left out: {c.why_weak}"
    return f"{c.id:>6}  {ranks}  {c.score:.4f}  {held}  {verdict}"


def _cosine(value: float | None) -> str:
    return f"{'-' if value is None else f'{value:.3f}':>6}"


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)
