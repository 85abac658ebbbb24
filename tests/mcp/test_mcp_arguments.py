"""The stdio server's argument checks (mcp/arguments.py, from mcp/tools.json) take,
convert and refuse exactly what the SDK's pydantic checks do, in the same words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from synapse_git.mcp import arguments
from synapse_git.mcp.checks import argument_errors, strict_errors
from synapse_git.mcp.server import build
from synapse_git.mcp.stdio_server import definitions
from synapse_git.settings import Config

SCHEMAS = {tool["name"]: tool["inputSchema"] for tool in definitions()["tools"]}
WORDS = ["", "lean", "full", "project", "global", "yes", "OFF", "t", "2", "-1", "0", "12"]
JSON_TEXT = ["null", "[]", '["a", "b"]', '["a", 1]', "{}", '{"a": 1}', "true", "1.5", "[[["]
value: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-5, max_value=5),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([0.0, 1.0, 2.0]),
        st.sampled_from(WORDS + JSON_TEXT),
        st.text(max_size=8),
        st.text(max_size=300, min_size=250),
    ),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def sdk_tools(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("arguments")
    server = build(Config(Path(folder)), project=folder)
    return {name: server._tool_manager.get_tool(name) for name in SCHEMAS}


def sdk_outcome(tool: Any, given: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "taken", tool.fn_metadata.validate_arguments(given)
    except ValidationError as exc:
        return "refused", argument_errors(exc)


def own_outcome(name: str, given: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "taken", arguments.checked(SCHEMAS[name], given)
    except ValueError as exc:
        return "refused", str(exc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_arguments_are_checked_as_the_sdk_checks_them(
    sdk_tools: dict[str, Any], data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(SCHEMAS)))
    fields = list(SCHEMAS[name]["properties"])
    keys = data.draw(st.lists(st.sampled_from(fields), unique=True))
    given = {key: data.draw(value) for key in keys}
    # What the strict checks refuse never reaches either (both servers run them first).
    if strict_errors(SCHEMAS[name], given):
        return
    assert own_outcome(name, given) == sdk_outcome(sdk_tools[name], given), (name, given)


@pytest.mark.parametrize(
    ("name", "given"),
    [
        ("recall", {"alternatives": ["a", 1, "b", "c", "d"]}),
        ("recall", {"alternatives": ["a", 1, 2]}),
        ("recall", {"alternatives": '["a", "b"]', "budget": "null"}),
        ("recall", {"at": "x" * 257, "limit": "0"}),
        ("remember", {"body": "b", "share": "YES", "everywhere": 1.0, "scope": '"global"'}),
        ("remember", {"share": 2, "everywhere": "maybe", "scope": ["global"]}),
        # A choice of words is read as JSON too: "null" there is None, "[1]" a list.
        ("remember", {"body": "b", "scope": "null"}),
        ("remember", {"body": "b", "scope": "[1]"}),
        ("remember", {"share": 2.0**63, "everywhere": 0.5, "body": "b"}),
        ("remember", {"share": 2**64, "everywhere": -1.0, "body": "b"}),
        ("readmemory", {"id": "12", "project": 5, "offset": -1}),
        ("supersede", {"id": 1, "body": ["x"], "source": None}),
    ],
)
def test_edges_of_the_argument_checks(sdk_tools: dict[str, Any], name: str, given: Any) -> None:
    assert own_outcome(name, given) == sdk_outcome(sdk_tools[name], given)
