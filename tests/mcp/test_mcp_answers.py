"""What an MCP client receives: both copies of an answer within the budget's cap, and tool
descriptions and schemas as a model and a strict client read them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from mcp_harness import Session, mcp_session
from support import make_repo

from synapse_git.service import Synapse
from synapse_git.settings import BUDGET_NAMES, BUDGETS, Config


def size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False))


@pytest.fixture(scope="module")
def stuffed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """Many large multibyte bodies full of characters JSON escapes, all answering one question."""
    base = tmp_path_factory.mktemp("answers")
    data = base / "data"
    repo = make_repo(base / "repo")
    svc = Synapse(Config(data_dir=data))
    scope = svc.scope(repo)
    for n in range(30):
        body = f"budget probe {n} quota\n" + ('é数\t"\\\x01 ' * (n * 200 + 80)) + f" tail {n}"
        svc.remember(body, scope, source=("ソース" * 600)[: 1365 - n], is_global=n % 2 == 0)
    with mcp_session(data, cwd=base, args=["--project", str(repo)]) as session:
        yield session


@pytest.mark.parametrize("budget", BUDGET_NAMES)
def test_text_and_structured_answers_both_fit_the_budget(stuffed: Session, budget: str) -> None:
    cap = BUDGETS[budget].response_chars
    for arguments in (
        {"query": "budget probe quota", "budget": budget, "limit": 100},
        {"query": "", "budget": budget},
    ):
        result = stuffed.call("recall", arguments)
        assert not result.is_error and result.structured_content is not None
        assert result.structured_content["hits"], "the answer is not empty"
        assert size(result.structured_content) <= cap
        texts = [getattr(block, "text", "") for block in result.content]
        assert len(texts) == 1
        assert len(texts[0]) <= cap
        assert json.loads(texts[0]) == result.structured_content


def test_tool_descriptions_carry_no_docstring_indentation(stuffed: Session) -> None:
    for tool in stuffed.list_tools():
        lines = (tool.description or "").splitlines()
        assert lines, tool.name
        assert not any(line.startswith(" ") for line in lines), tool.name


def test_offsets_and_limits_declare_their_minimum(stuffed: Session) -> None:
    schemas = {tool.name: tool.input_schema["properties"] for tool in stuffed.list_tools()}
    assert schemas["readmemory"]["offset"]["minimum"] == 0
    limit = schemas["recall"]["limit"]
    assert [arm.get("minimum") for arm in limit["anyOf"] if arm.get("type") == "integer"] == [1]


def test_readmemory_counts_a_first_page_as_recalled(tmp_path: Path) -> None:
    data, repo = tmp_path / "data", make_repo(tmp_path / "repo")
    svc = Synapse(Config(data_dir=data))
    memory = svc.remember("x" * 9000, svc.scope(repo), is_global=True).id
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        for _ in range(2):
            read = {"id": memory, "project": None, "budget": "lean"}
            page = session.ok("readmemory", read)["memory"]
            session.ok("readmemory", {**read, "offset": page["next"]})  # not another read
    # Counted in batches, written at the latest when the server stops.
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        assert conn.execute("SELECT recalled FROM memories").fetchall() == [(2,)]
