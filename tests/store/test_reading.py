"""Exact reading (docs/recall.md): byte offsets, pages that never split a character, null for
anything not visible, errors for bad offsets."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_git.errors import BadInput
from synapse_git.service import Synapse
from synapse_git.settings import BUDGETS
from synapse_git.store import database, memories, pages

TRICKY = {
    "code": 'def main():\n\tif x:\n\t\treturn {"a": [1, 2]}  # tab-indented\n',
    "crlf": "first line\r\nsecond line\r\n\r\nlast\r\n",
    "two-byte": "café naïve über ß " * 400,
    "three-byte": "日本語のテキスト €uro ₿ " * 400,
    "four-byte": "\U0001d518\U0001d52b\U0001d526 \U00010348 \U0001f701 " * 400,
    "emoji": "deploy 🚀 then 👩🏽‍💻 pairs, flags 🇳🇱🇯🇵 " * 300,
    "nul": "before\x00after\x00\x00end " * 700,
    "mixed": ("a\tb\r\nç€\U0001d518🚀\x00" * 1500),
}


def all_pages(conn: sqlite3.Connection, memory_id: int, page_bytes: int) -> Iterator[pages.Page]:
    offset: int | None = 0
    while offset is not None:
        page = pages.read_page(conn, memory_id, (), offset=offset, page_bytes=page_bytes)
        assert page is not None
        yield page
        offset = page.next


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    with closing(database.connect(tmp_path / "memory.db")) as connection:
        yield connection


def stored(conn: sqlite3.Connection, body: str) -> int:
    with database.transaction(conn):
        return memories.insert(conn, body, "", None)


@pytest.mark.parametrize("budget", sorted(BUDGETS))
@pytest.mark.parametrize("kind", sorted(TRICKY))
def test_pages_reassemble_the_body_byte_exactly(kind: str, budget: str, outside: Path) -> None:
    svc = Synapse()
    here = svc.scope(outside)
    body = TRICKY[kind]
    size = BUDGETS[budget].page_bytes
    memory_id = svc.remember(body, here, is_global=True).id
    got: list[pages.Page] = []
    offset: int | None = 0
    while offset is not None:
        page = svc.read(memory_id, here, offset=offset, budget=budget)
        assert page is not None
        got.append(page)
        offset = page.next
    data = body.encode("utf-8")
    assert b"".join(page.body.encode("utf-8") for page in got) == data
    assert all(page.total == len(data) for page in got)
    assert all(0 < len(page.body.encode("utf-8")) <= size for page in got)
    # A page is only ever shortened to keep a character (at most 4 bytes) whole.
    assert all(len(page.body.encode("utf-8")) > size - 4 for page in got[:-1])
    # Each page starts where the previous one said, and only the last has no next.
    assert [page.offset for page in got] == [0, *(page.next for page in got[:-1])]
    assert got[-1].next is None


@pytest.fixture(scope="module")
def shared_conn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    # One store for every generated example: creating a store per example costs fsyncs.
    path = tmp_path_factory.mktemp("hypothesis") / "memory.db"
    with closing(database.connect(path)) as connection:
        yield connection


@settings(max_examples=200, deadline=None)
@given(body=st.text(min_size=1, max_size=2000), page_bytes=st.integers(min_value=4, max_value=64))
def test_random_text_reassembles_at_any_page_size(
    shared_conn: sqlite3.Connection, body: str, page_bytes: int
) -> None:
    memory_id = stored(shared_conn, body)
    got = b"".join(p.body.encode("utf-8") for p in all_pages(shared_conn, memory_id, page_bytes))
    assert got == body.encode("utf-8")


def test_offset_past_the_end_is_an_error(conn: sqlite3.Connection) -> None:
    memory_id = stored(conn, "short")
    with pytest.raises(BadInput, match=r"past the end.*5 bytes"):
        pages.read_page(conn, memory_id, (), offset=6, page_bytes=100)


def test_negative_offset_is_an_error(conn: sqlite3.Connection) -> None:
    memory_id = stored(conn, "short")
    with pytest.raises(BadInput, match="negative"):
        pages.read_page(conn, memory_id, (), offset=-1, page_bytes=100)


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_offset_inside_a_character_is_an_error(conn: sqlite3.Connection, offset: int) -> None:
    memory_id = stored(conn, "🚀 launch")  # the rocket takes bytes 0..3
    with pytest.raises(BadInput, match="inside a UTF-8 character"):
        pages.read_page(conn, memory_id, (), offset=offset, page_bytes=100)


def test_exact_end_gives_an_empty_body_and_null_next(conn: sqlite3.Connection) -> None:
    memory_id = stored(conn, "né")
    page = pages.read_page(conn, memory_id, (), offset=3, page_bytes=100)
    assert page is not None
    assert (page.body, page.next, page.total, page.offset) == ("", None, 3, 3)


def test_a_page_never_ends_inside_a_character(conn: sqlite3.Connection) -> None:
    memory_id = stored(conn, "ab€€€")  # € is 3 bytes: a page of 4 holds "ab" only
    page = pages.read_page(conn, memory_id, (), offset=0, page_bytes=4)
    assert page is not None
    assert (page.body, page.next) == ("ab", 2)


def test_long_sources_are_abridged_on_a_character_boundary(conn: sqlite3.Connection) -> None:
    source = "é" * 300  # 600 bytes
    with database.transaction(conn):
        memory_id = memories.insert(conn, "body", source, None)
    page = pages.read_page(conn, memory_id, (), offset=0, page_bytes=100)
    assert page is not None
    assert page.sourceabridged
    assert page.source == "é" * 120


def test_sql_selects_only_the_requested_slice(conn: sqlite3.Connection) -> None:
    body = "x" * 500_000
    memory_id = stored(conn, body)
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    page = pages.read_page(conn, memory_id, (), offset=10, page_bytes=100)
    conn.set_trace_callback(None)
    assert page is not None and page.body == "x" * 100
    assert any("substr(CAST(body AS BLOB)" in statement for statement in seen)


def test_hidden_and_missing_ids_read_as_null(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    kept = svc.remember("kept", here).id
    gone = svc.remember("superseded one", here).id
    svc.remember("its correction", here, supersedes=gone)
    forgotten = svc.remember("forgotten one", here).id
    svc.forget(forgotten, here)
    assert svc.read(kept, here) is not None
    assert svc.read(gone, here) is None
    assert svc.read(forgotten, here) is None
    assert svc.read(9999, here) is None
    # Errors about offsets never reveal a memory that is not visible.
    assert svc.read(gone, here, offset=10_000) is None


def test_project_check_reads_only_that_projects_memory(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    own = svc.remember("project fact", here).id
    shared = svc.remember("global fact", here, is_global=True).id
    assert svc.read(own, here, project=here.project, check_project=True) is not None
    assert svc.read(own, here, project="/elsewhere", check_project=True) is None
    assert svc.read(shared, here, project=here.project, check_project=True) is None


def test_ids_and_offsets_beyond_64_bits_are_handled(conn: sqlite3.Connection) -> None:
    memory_id = stored(conn, "short")
    assert pages.read_page(conn, 10**20, (), offset=0, page_bytes=100) is None
    with pytest.raises(BadInput, match="past the end"):
        pages.read_page(conn, memory_id, (), offset=10**20, page_bytes=100)
    assert memories.get(conn, 10**20, ()) is None
