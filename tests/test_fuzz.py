"""Hostile input, fuzzed: no exception but SynapseError escapes, budgets hold, text reads back
exactly. Example counts stay moderate so the suite stays fast."""

from __future__ import annotations

import contextlib
import json
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from synapse_git.errors import BadInput, NotFound, SynapseError
from synapse_git.service import Synapse
from synapse_git.settings import BUDGET_NAMES, load
from synapse_git.textrules import normalize

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Every Unicode general category, lone surrogates (Cs) included.
CATEGORIES = sorted({unicodedata.category(chr(c)) for c in range(0x110000)})
any_char = st.characters(categories=CATEGORIES)
any_text = st.text(any_char, max_size=300)
FTS_SYNTAX = [
    '"',
    "'",
    "*",
    "^",
    ":",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "-",
    "+",
    "\\",
    "%",
    "_",
    "\x00",
    "NEAR",
    "NEAR(a b, 2)",
    "AND",
    "OR",
    "NOT",
    "body:",
    "source:",
    "memory",
    "memorygram",
    "col*",
    '"unterminated',
    "a OR",
    "rank",
    "bm25(",
    "deploy",
    "🚀",
    "ß",
    "İ",
]
queries = st.one_of(
    any_text,
    st.lists(st.one_of(st.sampled_from(FTS_SYNTAX), any_text), max_size=12).map(" ".join),
)
bodies = st.one_of(any_text, st.text(any_char, min_size=2000, max_size=9000))
budgets = st.sampled_from(BUDGET_NAMES)


@pytest.fixture
def seeded(repo: Path) -> Synapse:
    svc = Synapse()
    here = svc.scope(repo)
    for body in ("deploy with make deploy", 'NEAR the ^start: "quoted" (x)', "naïve café ß"):
        svc.remember(body, here)
    svc.remember("global kubernetes note", here, is_global=True)
    return svc


def read_all(svc: Synapse, memory_id: int, repo: Path, budget: str) -> tuple[str, int]:
    """Every page of a memory from offset 0; each within the budget's page size."""
    limit = svc.config.budget(budget).page_bytes
    offset, pieces, pages = 0, [], 0
    while True:
        page = svc.read(memory_id, svc.scope(repo), offset=offset, budget=budget)
        assert page is not None
        assert len(page.body.encode("utf-8")) <= limit
        assert len(page.source.encode("utf-8")) <= 240
        pieces.append(page.body)
        pages += 1
        if page.next is None:
            assert offset + len(page.body.encode("utf-8")) == page.total
            return "".join(pieces), pages
        assert page.next > offset
        offset = page.next


@FUZZ
@given(query=queries)
@example(query="\x00")
@example(query="\ud800 lone surrogate")
@example(query="x" * 100 * 1024)
@example(query='"deploy" OR NEAR(deploy make) AND NOT body:x*')
def test_any_query_lists_or_says_why(seeded: Synapse, repo: Path, query: str) -> None:
    svc = seeded
    try:
        listing = svc.list_memories(svc.scope(repo), contains=query, limit=20)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        return
    assert listing.total >= len(listing.memories)
    # `memory list QUERY` matches words as recall does, with no floor or limit.
    matched = svc.matching(query, svc.scope(repo))
    assert matched.total == len(matched.memories)


@FUZZ
@given(body=bodies, source=any_text, budget=budgets, is_global=st.booleans())
@example(body="tab\tNUL\x00 end\r\n", source="", budget="lean", is_global=False)
@example(body="€" * 3000, source="s" * 5000, budget="lean", is_global=False)
@example(body="line\u2028sep\x85next", source="\u2029", budget="full", is_global=True)
def test_any_body_and_source_read_back_exactly(
    repo: Path, body: str, source: str, budget: str, is_global: bool
) -> None:
    svc = Synapse()
    try:
        got = svc.remember(body, svc.scope(repo), source=source, is_global=is_global)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        return
    text, _ = read_all(svc, got.id, repo, budget)
    if got.duplicate_of is None:
        assert text == body
        stored = next(m for m in svc.list_memories(svc.scope(repo)).memories if m.id == got.id)
        assert stored.source == source
    else:
        assert normalize(text) == normalize(body)


@FUZZ
@given(offset=st.integers(min_value=-(2**80), max_value=2**80), budget=budgets)
@example(offset=2**63, budget="lean")
@example(offset=2**64 + 1, budget="full")
@example(offset=-(2**63) - 1, budget="balanced")
def test_any_offset_reads_a_page_or_says_why(
    seeded: Synapse, repo: Path, offset: int, budget: str
) -> None:
    svc = seeded
    try:
        page = svc.read(3, svc.scope(repo), offset=offset, budget=budget)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        assert str(offset) in str(exc)
        return
    assert page is not None
    assert page.offset == offset
    assert len(page.body.encode("utf-8")) <= svc.config.budget(budget).page_bytes


@FUZZ
@given(memory_id=st.integers(min_value=-(2**80), max_value=2**80))
@example(memory_id=2**63)
@example(memory_id=-(2**63) - 1)
@example(memory_id=0)
def test_any_id_is_a_page_none_or_not_found(seeded: Synapse, repo: Path, memory_id: int) -> None:
    svc = seeded
    here = svc.scope(repo)
    page = svc.read(memory_id, here)
    assert page is None or 1 <= memory_id <= 4
    for call in (svc.forget, svc.restore, svc.history):
        try:
            call(memory_id, here)
        except NotFound:
            assert not 1 <= memory_id <= 4


json_values = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), any_text
)
import_lines = st.lists(
    st.one_of(
        any_text,
        st.fixed_dictionaries(
            {"body": st.one_of(any_text, json_values)},
            optional={
                "source": st.one_of(any_text, json_values),
                "project": st.one_of(st.none(), any_text, st.just("..")),
                "created_at": st.one_of(
                    any_text, json_values, st.datetimes().map(lambda d: d.isoformat())
                ),
            },
        ).map(lambda doc: json.dumps(doc, ensure_ascii=False)),
    ),
    max_size=6,
)


@FUZZ
@given(lines=import_lines)
@example(lines=[json.dumps({"body": "x", "project": "a\x00b"})])
@example(lines=[json.dumps({"body": "x", "project": "~no-such-user-here/x"})])
@example(lines=[json.dumps({"body": "x", "project": "/" + "a" * 5000})])
@example(lines=[json.dumps({"body": "x", "project": "\ud800"})])
@example(lines=['{"body": "x"', "\x00", "[]", '{"body": null}'])
def test_any_import_is_all_or_nothing(seeded: Synapse, repo: Path, lines: list[str]) -> None:
    svc = seeded
    before = svc.export()
    before_lines = list(before)
    try:
        report = svc.import_lines(lines)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        assert list(svc.export()) == before_lines
        return
    assert report.imported + report.duplicates <= len(lines)
    assert svc.check().ok


memories_strategy = st.lists(
    st.tuples(any_text, any_text, st.sampled_from(["repo", "other", "global"])), max_size=8
)


@settings(FUZZ, max_examples=25)
@given(items=memories_strategy)
@example(items=[("a\u2028b\x00c\r\n", "src\u0085", "repo"), ("  padded  ", "", "global")])
@example(items=[("é" * 400_000, "big", "other")])
def test_export_then_import_round_trips_every_live_memory(
    tmp_path: Path, items: list[tuple[str, str, str]]
) -> None:
    folders = {name: _repo(tmp_path, name) for name in ("repo", "other")}
    source_dir = Path(tempfile.mkdtemp(dir=tmp_path))
    svc = Synapse(load(source_dir / "a"))
    for body, source, where in items:
        folder = folders.get(where, folders["repo"])
        with contextlib.suppress(BadInput):
            svc.remember(body, svc.scope(folder), source=source, is_global=where == "global")
    exported = list(svc.export())
    copy = Synapse(load(source_dir / "b"))
    copy.import_lines("\n".join(exported).split("\n") if exported else [])
    assert sorted(list(copy.export())) == sorted(exported)


def _repo(tmp_path: Path, name: str) -> Path:
    from support import make_repo

    path = tmp_path / name
    return path if (path / ".git").exists() else make_repo(path)


@pytest.fixture
def crowded(repo: Path) -> Synapse:
    """A store where budgets bind: many matching memories, huge bodies, long sources."""
    svc = Synapse()
    here = svc.scope(repo)
    lines = [
        json.dumps(
            {
                "body": f"deploy note {n}: the rollout uses kubernetes and make deploy "
                + ("é€ long text " * (n * 400 if n % 5 == 0 else 3)),
                "source": "s/" * (n * 30 if n % 4 == 0 else 2),
                "project": str(repo) if n % 2 else None,
            }
        )
        for n in range(40)
    ]
    svc.import_lines(lines)
    svc.remember('NEAR the ^start: "quoted" (x) AND NOT body:x*', here)
    return svc


@pytest.mark.slow
@FUZZ
@given(query=queries, budget=budgets, limit=st.one_of(st.none(), st.integers(-3, 60)))
@example(query="\x00", budget="lean", limit=None)
@example(query="\ud800 lone surrogate", budget="lean", limit=None)
@example(query="deploy " * 15_000, budget="full", limit=60)  # ~100 KiB
@example(query='"deploy" OR NEAR(deploy make) AND NOT body:x* ^kube', budget="lean", limit=None)
@example(query="", budget="lean", limit=None)
def test_any_recall_answers_within_its_budget(
    crowded: Synapse, repo: Path, query: str, budget: str, limit: int | None
) -> None:
    svc = crowded
    try:
        result = svc.recall(query, svc.scope(repo), budget=budget, limit=limit)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        return
    caps = svc.config.budget(budget)
    data = result.as_json()
    assert len(json.dumps(data, ensure_ascii=False)) <= caps.response_chars
    assert len(data["hits"]) <= (caps.hits if limit is None else limit)
    for hit in data["hits"]:
        assert len(hit["body"].encode("utf-8")) <= caps.hit_bytes
        assert len(hit["source"].encode("utf-8")) <= 240
        if not hit["abridged"]:
            assert svc.read(hit["id"], svc.scope(repo), budget="full") is not None


toml_values = st.one_of(
    st.text(any_char.filter(lambda c: not 0xD800 <= ord(c) <= 0xDFFF), max_size=60).map(json.dumps),
    st.integers().map(str),
    st.sampled_from(["true", "[]", "{}", "1979-05-27", "inf", '""', "'..'", '"/"', '"~x"']),
)
case_files = st.one_of(
    st.text(any_char.filter(lambda c: not 0xD800 <= ord(c) <= 0xDFFF), max_size=200),
    st.lists(
        st.dictionaries(
            st.sampled_from(["query", "project", "expect", "other"]), toml_values, max_size=4
        ),
        max_size=5,
    ).map(
        lambda cases: "".join(
            "[[case]]\n" + "".join(f"{key} = {value}\n" for key, value in case.items())
            for case in cases
        )
    ),
)


@settings(FUZZ, max_examples=40)
@given(text=case_files, budget=budgets)
@example(text='[[case]]\nquery = "deploy"\nexpect = "make deploy"\n', budget="lean")
@example(text='[[case]]\nquery = "x"\nproject = "a\\u0000b"\n', budget="lean")
@example(text='[[case]]\nquery = "\\u0000 NEAR("\nproject = ".."\n', budget="full")
@example(text="[[case]]\nquery = 1\n", budget="balanced")
def test_any_cases_file_scores_or_says_why(
    seeded: Synapse, tmp_path: Path, repo: Path, text: str, budget: str
) -> None:
    from synapse_git.recall.evaluation import load_cases

    path = tmp_path / "cases.toml"
    path.write_text(text, encoding="utf-8")
    before = list(seeded.export())
    try:
        report = seeded.evaluate(load_cases(path), budget=budget)
    except SynapseError as exc:
        assert isinstance(exc, BadInput)
        return
    finally:
        assert list(seeded.export()) == before  # eval never writes
    for value in report.metrics().values():
        assert value is None or 0.0 <= value <= max(1.0, value)
