"""A tool's arguments checked against its input schema (mcp/tools.json) without
pydantic, with the outcome and the words the SDK's checks give.

The SDK validates arguments with a pydantic model in lax mode: a JSON string
holding a list or object is parsed first (for a field that is not plain text),
`"12"` is taken for a whole number, `"yes"` for a boolean; each failure is
reported in field order with pydantic's message. The schemas of Synapse's tools
use few forms (a string, a whole number, a boolean, an enum, an array of
strings, each possibly null, with a minimum or a maximum length) and this
module knows exactly those; tests/mcp/test_mcp_arguments.py holds it to the
SDK's own checks.
"""

from __future__ import annotations

import json
from typing import Any

# pydantic's lax booleans (lower-cased), and the strings it refuses as too long to read.
TRUE_WORDS = frozenset({"1", "on", "t", "true", "y", "yes"})
FALSE_WORDS = frozenset({"0", "off", "f", "false", "n", "no"})
MISSING = object()


class Problem(Exception):
    """One field's failure: where, the message, and the value that failed."""

    def __init__(self, where: str, message: str, given: Any) -> None:
        super().__init__(message)
        self.where, self.message, self.given = where, message, given
        self.all = [self]


def checked(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments with defaults filled in and values converted as the SDK does,
    or ValueError with the one-line report of every field that failed."""
    fields: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    values: dict[str, Any] = {}
    problems: list[str] = []
    for name, field in fields.items():
        given = arguments.get(name, MISSING)
        if given is MISSING:
            if name in required:
                problems.append(f"{name} is missing")
            else:
                values[name] = field.get("default")
            continue
        # The SDK reads JSON out of a string for any field not typed plain `str`; a
        # choice of words (`scope`) is a Literal, so "null" given there is None.
        if isinstance(given, str) and (field.get("type") != "string" or "enum" in field):
            given = _pre_parsed(given)
        try:
            values[name] = _value(field, given, name)
        except Problem as problem:
            problems.extend(_said(each) for each in problem.all)
    if problems:
        raise ValueError("bad arguments: " + "; ".join(problems))
    return values


def _pre_parsed(text: str) -> Any:
    """A string holding JSON for a field that is not plain text: what the SDK makes of it
    (clients prone to sending a list as its JSON text)."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return text if isinstance(parsed, str | int | float) else parsed


def _said(problem: Problem) -> str:
    given = repr(problem.given)
    given = given if len(given) <= 60 else given[:57] + "..."
    return f"{problem.where}: {problem.message} (got {given})"


def _value(field: dict[str, Any], given: Any, where: str) -> Any:
    options = field.get("anyOf")
    if options is not None:
        if given is None and {"type": "null"} in options:
            return None
        [field] = [option for option in options if option != {"type": "null"}]
    if "enum" in field:
        if given in field["enum"] and isinstance(given, str):
            return given
        quoted = [repr(choice) for choice in field["enum"]]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
        raise Problem(where, f"Input should be {listed}", given)
    kind = field.get("type")
    if kind == "string":
        return _text(field, given, where)
    if kind == "integer":
        return _whole(field, given, where)
    if kind == "boolean":
        return _boolean(given, where)
    if kind == "array":
        return _array(field, given, where)
    raise AssertionError(f"the input schema of {where} has a form this module does not know")


def _text(field: dict[str, Any], given: Any, where: str) -> str:
    if not isinstance(given, str):
        raise Problem(where, "Input should be a valid string", given)
    most = field.get("maxLength")
    if most is not None and len(given) > most:
        raise Problem(where, f"String should have at most {most} characters", given)
    return given


def _whole(field: dict[str, Any], given: Any, where: str) -> int:
    # mcp/checks.py's strict checks ran first: an int, or a string of a whole number's digits.
    if isinstance(given, bool) or not isinstance(given, int | str):
        raise Problem(where, "Input should be a valid integer", given)
    number = int(given)
    least = field.get("minimum")
    if least is not None and number < least:
        raise Problem(where, f"Input should be greater than or equal to {least}", given)
    return number


def _boolean(given: Any, where: str) -> bool:
    if isinstance(given, bool):
        return given
    if isinstance(given, int | float) and given in (0, 1):
        return bool(given)
    if isinstance(given, str) and given.lower() in TRUE_WORDS | FALSE_WORDS:
        return given.lower() in TRUE_WORDS
    # pydantic reads a number as a 64-bit whole number first: one that is not (0.5, 2**64)
    # is no boolean at all; one that is, but neither 0 nor 1, cannot be interpreted.
    whole = isinstance(given, int) or (isinstance(given, float) and given.is_integer())
    if isinstance(given, str) or (whole and -(2**63) <= given < 2**63):
        raise Problem(where, "Input should be a valid boolean, unable to interpret input", given)
    raise Problem(where, "Input should be a valid boolean", given)


def _array(field: dict[str, Any], given: Any, where: str) -> list[Any]:
    if not isinstance(given, list):
        raise Problem(where, "Input should be a valid list", given)
    most = field.get("maxItems")
    if most is not None and len(given) > most:
        raise Problem(
            where,
            f"List should have at most {most} items after validation, not {len(given)}",
            given,
        )
    items, failed = [], []
    for n, item in enumerate(given):
        try:
            items.append(_value(field["items"], item, f"{where}.{n}"))
        except Problem as problem:
            failed.extend(problem.all)
    if failed:
        failed[0].all = failed
        raise failed[0]
    return items
