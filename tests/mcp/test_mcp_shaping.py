"""An answer shaped as the SDK's output check hands it on, by the walk worked out once
for each output schema (tests/mcp/test_mcp_wire.py holds whole answers to the SDK's)."""

from __future__ import annotations

import json
from typing import Any

from synapse_git.mcp.shaping import shaper
from synapse_git.mcp.stdio_server import definitions

HIT = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "score": {"type": "number"}},
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "$defs": {"Hit": HIT},
    "properties": {
        "query": {"type": "string"},
        "hits": {"type": "array", "items": {"$ref": "#/$defs/Hit"}},
        "best": {"anyOf": [{"$ref": "#/$defs/Hit"}, {"type": "null"}]},
        "weights": {"type": "array", "items": {"type": "number"}},
    },
}


def test_keys_in_the_schemas_order_others_dropped_whole_floats_written_as_floats() -> None:
    answer = {
        "extra": 1,
        "weights": [1, 0.5],
        "best": {"score": 2, "id": 7, "extra": True},
        "hits": [{"score": 1, "id": 3}],
        "query": "q",
    }
    shaped = shaper(SCHEMA)(answer)
    assert json.dumps(shaped) == json.dumps(
        {
            "query": "q",
            "hits": [{"id": 3, "score": 1.0}],
            "best": {"id": 7, "score": 2.0},
            "weights": [1.0, 0.5],
        }
    )
    assert shaper(SCHEMA)({"best": None, "hits": []}) == {"hits": [], "best": None}


def test_a_schema_that_holds_itself_is_shaped_to_any_depth() -> None:
    node = {
        "type": "object",
        "properties": {
            "weight": {"type": "number"},
            "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
        },
    }
    schema = {"$defs": {"Node": node}, "$ref": "#/$defs/Node"}
    chain = {"next": {"next": {"weight": 3, "next": None}, "weight": 2}, "weight": 1}
    assert json.dumps(shaper(schema)(chain)) == json.dumps(
        {"weight": 1.0, "next": {"weight": 2.0, "next": {"weight": 3.0, "next": None}}}
    )


def test_every_tools_output_schema_has_a_shape() -> None:
    for tool in definitions()["tools"]:
        assert shaper(tool["outputSchema"])({}) == {}
