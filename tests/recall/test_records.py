"""recall/records.py: copies of recall's records equal what dataclasses gives."""

from __future__ import annotations

import dataclasses

import pytest

from synapse_git.recall.ranking import Candidate
from synapse_git.recall.records import changed, made, widened
from synapse_git.semantic.fusion import Blended


def _fields(record: object) -> dict[str, object]:
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}


def test_changed_is_replace() -> None:
    c = Candidate(7, 1, None, 0.5, ("deploy",), share=0.4, literal=("deploy",))
    for values in ({}, {"verdict": "limit"}, {"score": 1.5, "alike": True, "vouched": True}):
        copy = changed(c, **values)
        assert type(copy) is Candidate
        assert _fields(copy) == _fields(dataclasses.replace(c, **values))
    assert c.verdict == "kept" and not c.alike  # the original is left as it was
    b = Blended(3, None, 2, 0.1, (), dense=4, cosine=0.2, near=0.5, reworded=True)
    assert _fields(changed(b, near=0.1)) == _fields(dataclasses.replace(b, near=0.1))
    assert changed(b, near=0.1).weak == dataclasses.replace(b, near=0.1).weak


def test_widened_is_the_subclass_called_with_the_fields() -> None:
    c = Candidate(7, 1, 3, 0.5, ("deploy",), verdict="budget", evidence=0.3, agreed=True)
    made = widened(c, Blended, score=0.9, dense=2, near=0.6)
    assert type(made) is Blended
    assert _fields(made) == _fields(Blended(**{**_fields(c), "score": 0.9}, dense=2, near=0.6))
    assert made.cosine is None and made.reworded is False  # Blended's own defaults


def test_made_is_the_class_called() -> None:
    values = {"id": 4, "porter": 2, "trigram": None, "score": 0.7, "held": ("a", "b")}
    for more in ({}, {"share": 0.5, "literal": ("a",), "about": 0.25, "offpoint": True}):
        record = made(Candidate, **values, **more)
        assert type(record) is Candidate
        assert _fields(record) == _fields(Candidate(**values, **more))
    with pytest.raises(TypeError, match="needs"):
        made(Candidate, id=1, porter=None, trigram=None, score=0.0)  # no `held`


def test_a_name_that_is_no_field_is_refused() -> None:
    c = Candidate(1, 1, None, 0.5, ())
    with pytest.raises(TypeError, match="no field"):
        changed(c, verdcit="limit")
    with pytest.raises(TypeError, match="no field"):
        made(Candidate, id=1, porter=None, trigram=None, score=0.0, held=(), shares=1.0)
    with pytest.raises(TypeError):
        widened(c, Blended, densest=1)
    with pytest.raises(TypeError):
        widened(Blended(1, None, None, 0.0, ()), Candidate)  # not a wider class


def test_ranking_makes_candidates_of_every_field(outside: object) -> None:
    """ranking.search fills a candidate's fields itself (no check a candidate): each
    has every field of Candidate, as calling the class gives, and no other."""
    import json
    from pathlib import Path

    from synapse_git.service import Synapse

    svc = Synapse()
    notes = ["Deploys go out on Tuesdays.", "The deploy script lives in ops/.", "Lunch at noon."]
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in notes)
    found = svc.recall("deploy tuesdays", svc.scope(Path(str(outside))), explain=True)
    assert found.candidates
    for c in found.candidates:
        assert type(c) is Candidate
        assert set(c.__dict__) == {f.name for f in dataclasses.fields(Candidate)}
