"""Copies of recall's records (ranking.Candidate, semantic's Blended) with some
fields changed, at a fraction of what `dataclasses.replace` costs.

A recall copies each candidate a few times (its verdict, its score with the
dense ranking, whether it is alike), dozens of candidates a question: through
`replace`, which looks up the class's fields and runs the frozen class's
`__init__` field by field, that was about a tenth of a warm semantic recall.
These copy the instance's attributes at once. They suit a dataclass with no
`__post_init__`, no `init=False` field and no `__slots__`, as recall's are.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

R = TypeVar("R")

_NAMES: dict[type, frozenset[str]] = {}
_DEFAULTS: dict[type, dict[str, Any]] = {}


def _names(cls: type) -> frozenset[str]:
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return found


def changed(record: R, **values: Any) -> R:
    """`record` with `values` in place of its fields of those names (as
    dataclasses.replace gives it). A name that is no field is a TypeError."""
    cls = type(record)
    if not values.keys() <= _names(cls):
        raise TypeError(f"{cls.__name__} has no field {sorted(values.keys() - _names(cls))}")
    copy: R = object.__new__(cls)
    copy.__dict__.update(record.__dict__)
    copy.__dict__.update(values)
    return copy


def defaults(cls: type) -> dict[str, Any]:
    """`cls`'s fields that have a default, with it (not to be changed)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        given = dataclasses.fields(cls)
        found = _DEFAULTS[cls] = {
            f.name: f.default for f in given if f.default is not dataclasses.MISSING
        }
    return found


def filled(cls: type[R], **values: Any) -> R:
    """`made` without its checks, for a loop making dozens of records a recall whose
    fields a test holds to the class's (ranking's candidates: the checks were a
    twentieth of a recall drawing 50; tests/recall/test_records.py)."""
    record: R = object.__new__(cls)
    record.__dict__.update(_DEFAULTS.get(cls) or defaults(cls), **values)
    return record


def made(cls: type[R], **values: Any) -> R:
    """`cls(**values)` for a dataclass of fields given by name or defaulted, without
    its `__init__`'s cost per field (a frozen class sets each through
    `object.__setattr__`): semantic recall widens each candidate it blends."""
    names = _NAMES.get(cls) or _names(cls)
    record = filled(cls, **values)
    fields = record.__dict__
    if len(fields) != len(names) or not values.keys() <= names:
        unknown = sorted(values.keys() - names)
        said = f"has no field {unknown}" if unknown else f"needs {sorted(names - fields.keys())}"
        raise TypeError(f"{cls.__name__} {said}")
    return record


def widened(record: object, cls: type[R], **values: Any) -> R:
    """A `cls` (a dataclass extending `record`'s class) made of `record`'s fields,
    `values`, and `cls`'s defaults for the rest (as calling `cls` with them gives)."""
    base = type(record)
    if not issubclass(cls, base):
        raise TypeError(f"{cls.__name__} does not widen {base.__name__}")
    return made(cls, **{**record.__dict__, **values})
