"""The whole body is searchable, however long: a word past the opening is
recalled, and the excerpt comes from around it."""

from __future__ import annotations

import json
import random
from pathlib import Path

from support import make_repo, run_cli

from synapse_git.service import Synapse

KIB = 1024


def filler(seed: int, size: int, letters: str = "abcdefghijklmnopqrstuvwxyz") -> str:
    rng = random.Random(seed)
    words: list[str] = []
    used = 0
    while used < size:
        words.append("".join(rng.choice(letters) for _ in range(8)))
        used += 9
    return " ".join(words)


def test_a_word_past_the_opening_is_recalled_with_its_excerpt(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    body = f"{filler(1, 900 * KIB)} the zebracorn cache lives in redis {filler(2, 20 * KIB)}"
    mid = svc.remember(body, scope).id
    svc.remember(f"short note about caches {filler(3, 200)}", scope)
    recalled = svc.recall("zebracorn", scope).as_json()
    [hit] = recalled["hits"]
    assert hit["id"] == mid and hit["abridged"] and hit["bytes"] == len(body.encode())
    assert "zebracorn cache lives in redis" in hit["body"]
    assert hit["body"].startswith("…") and hit["body"].endswith("…")
    # Two words, one in the opening only and one past it: both count.
    both = svc.recall("zebracorn redis", scope).as_json()
    assert [h["id"] for h in both["hits"]][:1] == [mid]


def test_another_form_of_a_word_past_the_opening_is_recalled(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    body = f"{filler(4, 40 * KIB)} we redeployed the quuxservice on friday"
    mid = svc.remember(body, scope).id
    [hit] = svc.recall("redeploying quuxservice", scope).as_json()["hits"]
    assert hit["id"] == mid and "redeployed the quuxservice" in hit["body"]


def test_multibyte_text_past_the_opening_gives_a_whole_excerpt(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    body = f"{filler(5, 30 * KIB, 'éàüßøñç')} schlüsselwort éàü {filler(6, 2 * KIB, 'éàüß')}"
    mid = svc.remember(body, scope).id
    [hit] = svc.recall("schlüsselwort", scope).as_json()["hits"]
    assert hit["id"] == mid and "schlüsselwort" in hit["body"]
    assert "\ufffd" not in hit["body"]


def test_list_and_recall_agree_on_a_long_body(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    body = f"{filler(7, 64 * KIB)} the wombatfeed token rotates weekly"
    assert run_cli("memory", "remember", "-", cwd=repo, stdin=body).returncode == 0
    listed = run_cli("memory", "list", "wombatfeed", "--json", cwd=repo)
    recalled = run_cli("memory", "recall", "wombatfeed", "--json", cwd=repo)
    assert listed.returncode == 0 and recalled.returncode == 0, recalled.stderr
    assert [m["id"] for m in json.loads(listed.stdout)["memories"]] == [1]
    assert [h["id"] for h in json.loads(recalled.stdout)["hits"]] == [1]


def test_a_long_memory_is_ranked_by_its_best_window_not_its_length(outside: Path) -> None:
    """A long document holds the question's words far apart; the short note holds them
    in one sentence and answers it. The document is judged by its best window."""
    long_doc = " ".join(
        [
            "Deploy handbook.",
            filler(1, 6 * KIB),
            "The staging cluster is rebuilt on Sundays.",
            filler(2, 6 * KIB),
            "Every approval is logged in the audit table.",
            filler(3, 6 * KIB),
        ]
    )
    note = "For production we need a green staging run and a deploy approval in #release."
    svc = Synapse()
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in (long_doc, note))
    done = run_cli(
        "memory", "recall", "deploy staging approval", "--json", "--explain", cwd=outside
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["hits"][0]["id"] == 2
    shares = {c["id"]: c["coverage"] for c in found["explain"]}
    assert shares[2] == 1.0 and shares[1] < 0.5
    # A word of the document alone is still found, however far into it.
    alone = run_cli("memory", "recall", "audit table approval", "--json", cwd=outside)
    assert json.loads(alone.stdout)["hits"][0]["id"] == 1


def test_a_note_longer_than_a_window_is_judged_by_its_best_one(tmp_path: Path) -> None:
    # A runbook of 1.7 KB names `watchdog` at its start and `gateway` at its end, by
    # chance: no part of it is about both, and it no longer answers as if one were.
    svc = Synapse()
    scope = svc.scope(make_repo(tmp_path / "r"))
    apart = f"The watchdog resets the unit. {filler(4, 1500)} Ask the gateway team."
    together = f"The watchdog of the gateway resets it. {filler(5, 1500)}"
    assert 1200 < len(apart) < 2400 and 1200 < len(together) < 2400
    far = svc.remember(apart, scope).id
    [candidate] = svc.recall("watchdog gateway timeout", scope, explain=True).candidates
    assert candidate.id == far and candidate.weak
    near = svc.remember(together, scope).id
    found = svc.recall("watchdog gateway timeout", scope, explain=True).candidates
    assert [c.id for c in found] == [near, far]
    assert found[0].share > found[1].share and found[1].weak
