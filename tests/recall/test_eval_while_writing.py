"""`memory eval` while another process writes to the store (an agent remembering
over MCP during an evaluation). Eval opens the store read-only; it must read it
as SQLite's readers do, never as a file that cannot change: another writer's
checkpoint rewrites pages of the file, and a reader that cached the old ones
read a mixture, which SQLite called a damaged database. Two services in two
threads over one real store; the evaluation stops after its first case until the
other service's writes are done."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from synapse_git.git.project_scope import Scope
from synapse_git.recall import evaluation, query_terms, ranking
from synapse_git.service import Synapse

MEMORIES = 2000
WRITES = 20


def test_eval_reads_the_store_while_another_process_writes(
    outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Synapse().import_lines(
        json.dumps({"body": f"Service number {i} deploys with alpha{i % 50} on port {8000 + i}"})
        for i in range(MEMORIES)
    )
    cases = [
        evaluation.Case(n, f"which tool deploys service number {n}", None, f"Service number {n} ")
        for n in (1, 2, 3)
    ]
    svc, other = Synapse(), Synapse()
    first_done, written = threading.Event(), threading.Event()
    real = svc._search

    def paused(
        conn: sqlite3.Connection,
        query: query_terms.Query,
        scope: Scope,
        limit: int,
        others: Sequence[query_terms.Query] = (),
    ) -> tuple[ranking.Search, str | None]:
        found = real(conn, query, scope, limit, others)
        if not first_done.is_set():
            first_done.set()
            assert written.wait(30), "the other service never finished writing"
        return found

    monkeypatch.setattr(svc, "_search", paused)
    results: list[object] = []
    thread = threading.Thread(target=lambda: results.append(_run(svc, cases)))
    thread.start()
    try:
        assert first_done.wait(30), "the evaluation never asked its first case"
        scope = other.scope(outside)
        for i in range(WRITES):
            other.remember(
                f"Later note {i}: service number {i} deploys with gamma.", scope, is_global=True
            )
    finally:
        written.set()
        thread.join()
    [report] = results
    assert isinstance(report, evaluation.Report), report
    assert len(report.outcomes) == len(cases)


def _run(svc: Synapse, cases: list[evaluation.Case]) -> object:
    try:
        return svc.evaluate(cases)
    except Exception as exc:  # the failure, reported by the test's assertion
        return exc
