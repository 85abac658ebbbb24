"""A tool's answer as the SDK's output check hands it on, for the stdio server: each
object with the keys its schema names, in the schema's order (others dropped),
floats as floats.

The walk is worked out once for each output schema (mcp/tools.json) rather than
for every answer: a field whose value passes as it is (text, a whole number, a
boolean) is copied without a call, and `$ref` and `anyOf` are looked up once.
Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    Shape = Callable[[Any], Any]


def shaper(schema: dict[str, Any]) -> Shape:
    """What shapes an answer of the output `schema` (whose `$defs` its `$ref`s name)."""
    made = _Shapers(schema).of(schema)
    return made if made is not None else _as_it_is


def _as_it_is(value: Any) -> Any:
    return value


class _Shapers:
    """The shapes of one output schema's parts, each made once."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.made: dict[int, Shape | None] = {}
        self.making: set[int] = set()

    def of(self, schema: dict[str, Any]) -> Shape | None:
        """The shape of values of `schema`, or None when every value passes as it is."""
        schema = self._resolved(schema)
        key = id(schema)
        if key in self.made:
            return self.made[key]
        if key in self.making:
            # A schema holding itself: its shape is looked up once it is made.
            return lambda value: (self.made[key] or _as_it_is)(value)
        self.making.add(key)
        made = self.made[key] = self._made(schema)
        self.making.discard(key)
        return made

    def _resolved(self, schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref")
        if ref is not None:
            schema = self._defined(ref)
        for option in schema.get("anyOf", ()):
            if option.get("type") == "object" or "$ref" in option:
                schema = option
                if "$ref" in option:
                    schema = self._defined(option["$ref"])
        return schema

    def _defined(self, ref: str) -> dict[str, Any]:
        found: dict[str, Any] = self.root["$defs"][ref.rsplit("/", 1)[1]]
        return found

    def _made(self, schema: dict[str, Any]) -> Shape | None:
        fields = schema.get("properties")
        items = schema.get("items")
        number = schema.get("type") == "number"
        if fields is None and items is None and not number:
            return None
        keys = [] if fields is None else [(key, self.of(part)) for key, part in fields.items()]
        each = None if items is None else self.of(items) or _as_it_is

        def shaped(value: Any) -> Any:
            if fields is not None and isinstance(value, dict):
                return {
                    key: value[key] if shape is None else shape(value[key])
                    for key, shape in keys
                    if key in value
                }
            if each is not None and isinstance(value, list):
                return [each(item) for item in value]
            if number and type(value) is int:
                return float(value)  # a float field's whole number is written 1.0, as pydantic does
            return value

        return shaped
