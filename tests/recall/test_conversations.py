"""Conversation-shaped memories (docs/recall.md, "Conversations"): a prefix many
memories share ("Alice: ...") carries little weight, and an explicit limit at the
full budget returns up to that many hits, the extra ones marked weak."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli

from synapse_git.service import Synapse

DIALOGUE = [
    "Alice: I finally adopted a dog last weekend, a beagle called Pepper.",
    "Bob: That's great! I went hiking in the Alps with my sister in May.",
    "Alice: Pepper chews everything, even my running shoes.",
    "Bob: My sister wants a cat, but her landlord says no pets.",
    "Alice: I started a pottery class on Tuesday evenings.",
    "Bob: I am learning to bake sourdough bread at home.",
    "Alice: My brother is moving to Lisbon for a new job.",
    "Bob: The Alps trip was cold; we slept in a mountain hut.",
    "Alice: The pottery teacher says my bowls are lopsided.",
    "Bob: I bought a new bike for commuting to the office.",
    "Alice: I am reading a novel about a lighthouse keeper.",
    "Bob: My sister got engaged to her partner last month.",
    "Alice: Work has been busy; we ship a release every Friday.",
    "Bob: I adopted two goldfish for my daughter.",
]


def _seed() -> Synapse:
    svc = Synapse()
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in DIALOGUE)
    return svc


def _recall(outside: Path, *args: str) -> dict[str, object]:
    done = run_cli("memory", "recall", *args, "--json", cwd=outside)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_an_explicit_limit_at_full_returns_that_many_hits_the_extra_ones_weak(
    outside: Path,
) -> None:
    _seed()
    question = "when did Alice adopt her dog"
    plain = _recall(outside, question, "--budget", "full")
    hits = plain["hits"]
    assert isinstance(hits, list) and len(hits) < 10
    assert "Pepper" in hits[0]["body"] and not hits[0].get("weak")
    deep = _recall(outside, question, "--budget", "full", "--limit", "10")
    deeper = deep["hits"]
    assert isinstance(deeper, list) and len(deeper) == 10
    assert [hit["id"] for hit in deeper[: len(hits)]] == [hit["id"] for hit in hits]
    assert all(hit.get("weak") for hit in deeper[len(hits) :])
    # Without an explicit limit, or at another budget, the floor and the weak cap hold.
    for budget in ("lean", "balanced"):
        capped = _recall(outside, question, "--budget", budget, "--limit", "10")["hits"]
        assert isinstance(capped, list) and len(capped) == len(hits)


def _long_dialogue() -> list[str]:
    """A conversation of 120 turns, each speaker's name opening 60 of them."""
    topics = [
        "the weather",
        "a film",
        "the garden",
        "a recipe",
        "the train",
        "a concert",
        "the budget",
        "a podcast",
        "the neighbours",
        "a museum",
    ]
    turns = []
    for n in range(60):
        topic = topics[n % len(topics)]
        turns.append(f"Alice: I keep thinking about {topic}, number {n}.")
        turns.append(f"Bob: I told my cousin about {topic}, part {n}.")
    return turns


def test_a_speaker_label_many_turns_open_with_carries_little_weight(outside: Path) -> None:
    """ "when did Alice go hiking": Bob's turn saying Alice went hiking answers it, not
    Alice's turn about her brother hiking, though `Alice:` opens that one."""
    svc = Synapse()
    turns = [
        *_long_dialogue(),
        "Alice: My brother went hiking in the Alps last May.",
        "Bob: In June Alice went hiking with me; she loved the Alps.",
    ]
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in turns)
    found = _recall(outside, "when did Alice go hiking", "--explain")
    hits = found["hits"]
    assert isinstance(hits, list)
    assert hits[0]["body"].startswith("Bob: In June Alice went hiking"), hits
    explained = {c["id"]: c for c in found["explain"]}  # type: ignore[attr-defined]
    assert explained[hits[0]["id"]]["coverage"] > explained[hits[1]["id"]]["coverage"]


def test_a_label_few_memories_share_keeps_its_weight(outside: Path) -> None:
    """A ticket's notes opening with its name are about it: asked by the name alone,
    each is an answer, not weak."""
    svc = Synapse()
    notes = [
        *_long_dialogue(),
        "PAY-7731: refunds over 500 EUR need a second approver.",
        "PAY-7731: the approver is picked from the finance rota.",
    ]
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in notes)
    hits = _recall(outside, "PAY-7731")["hits"]
    assert isinstance(hits, list) and len(hits) == 2
    assert not any(hit.get("weak") for hit in hits)
