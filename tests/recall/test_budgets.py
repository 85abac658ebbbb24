"""Budgets (docs/recall.md): the serialized response never exceeds its cap, whatever is stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse
from synapse_git.settings import BUDGET_NAMES, SOURCE_ALLOWANCE


def size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False))


def read_whole(svc: Synapse, memory_id: int, scope: Scope) -> str:
    parts, offset = [], 0
    while True:
        page = svc.read(memory_id, scope, offset=offset)
        assert page is not None
        parts.append(page.body)
        if page.next is None:
            return "".join(parts)
        offset = page.next


@pytest.fixture
def stuffed(outside: Path) -> tuple[Synapse, Scope, dict[int, str]]:
    """Huge multibyte bodies full of escapes, 4 KiB sources cut mid-character."""
    svc = Synapse()
    scope = svc.scope(outside)
    bodies: dict[int, str] = {}
    for n in range(24):
        body = (
            f"budget probe {n} quota\n"
            + ('é数\t"\\\x00\x01 ' * (n * 300 + 50))
            + f" tail quota {n}"
        )
        source = ("ソース" * 600)[: 1365 - n] if n % 2 else f"notes/{n}.md"
        memory_id = svc.remember(body, scope, source=source, is_global=True).id
        bodies[memory_id] = body
    return svc, scope, bodies


@pytest.mark.parametrize("budget", BUDGET_NAMES)
@pytest.mark.parametrize("limit", [None, 1, 100])
def test_response_never_exceeds_its_cap(
    stuffed: tuple[Synapse, Scope, dict[int, str]], budget: str, limit: int | None
) -> None:
    svc, scope, bodies = stuffed
    cap = svc.config.budget(budget)
    for query in ("budget probe quota", "", "quota 7"):
        result = svc.recall(query, scope, budget=budget, limit=limit)
        data = result.as_json()
        assert size(data) <= cap.response_chars
        assert result.hits, "a budget always leaves room for at least one hit"
        cut = data["cut"]
        assert (
            len(result.hits) + cut["floor"] + cut["limit"] + cut["budget"] + cut["weak"]
            >= min(len(bodies), limit or cap.hits)
            or query == "quota 7"
        )
        for hit in result.hits:
            assert len(hit.body.encode()) <= cap.hit_bytes
            assert len(hit.source.encode()) <= SOURCE_ALLOWANCE
            assert hit.bytes == len(bodies[hit.id].encode())
            if not hit.abridged:
                assert hit.body == bodies[hit.id]
        abridged = [hit for hit in result.hits if hit.abridged]
        if abridged:
            assert read_whole(svc, abridged[-1].id, scope) == bodies[abridged[-1].id]


def test_a_cut_source_says_so(stuffed: tuple[Synapse, Scope, dict[int, str]]) -> None:
    svc, scope, _ = stuffed
    hits = svc.recall("budget probe", scope, budget="full").hits
    assert any(hit.sourceabridged for hit in hits)
    assert all(hit.sourceabridged == hit.source.startswith("ソ") for hit in hits)


def test_drift_findings_are_fitted_into_the_cap(
    stuffed: tuple[Synapse, Scope, dict[int, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, scope, _ = stuffed

    def drift_about(
        _conn: object, _scope: Scope, ids: list[int], **_kinds: object
    ) -> list[dict[str, Any]]:
        return [
            {"kind": "conflict", "ids": [i], "newer": i, "detail": "x" * 900, "quote": "数" * 900}
            for i in ids
        ] + [{"kind": "duplicate", "ids": ids[:1], "detail": "small"}]

    monkeypatch.setattr(svc, "_drift_about", drift_about)
    for budget in BUDGET_NAMES:
        result = svc.recall("budget probe", scope, budget=budget)
        assert size(result.as_json()) <= svc.config.budget(budget).response_chars
        assert result.hits
    assert svc.recall("budget probe", scope, budget="full", limit=2).drift


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    bodies=st.lists(st.text(min_size=1, max_size=3000), min_size=1, max_size=6),
    source=st.text(max_size=1400),
    query=st.text(max_size=40),
)
def test_any_text_any_question_stays_within_lean(
    outside: Path, bodies: list[str], source: str, query: str
) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    for body in bodies:
        if body.strip() and len(source.encode("utf-8", "surrogatepass")) <= 4096:
            try:
                svc.remember(body + " probe", scope, source=source, is_global=True)
            except Exception:  # lone surrogates are refused as bad input
                continue
    result = svc.recall(query + " probe", scope, budget="lean")
    assert size(result.as_json()) <= 4000
