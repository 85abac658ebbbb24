"""Decoys (docs/recall.md, "Decoys"): a note holding the question's words that does not
answer what it asks is weak; the labeled decoy sets in examples/decoys hold it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_cli

from synapse_git.recall import question_point
from synapse_git.recall.coverage import Words
from synapse_git.recall.question_point import Point
from synapse_git.service import Synapse

DECOYS = Path(__file__).resolve().parents[2] / "examples" / "decoys"


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("how long are backups kept", Point.DURATION),
        ("how many minutes does a rollback take", Point.DURATION),
        ("how many workers does gunicorn run", Point.NUMBER),
        ("what is the maximum upload size", Point.NUMBER),
        ("which port does the dev server use", Point.NUMBER),
        ("how often are certificates renewed", Point.FREQUENCY),
        ("when does the export run", Point.TIME),
        ("who approves refunds", Point.PERSON),
        ("where are feature flags defined", Point.PLACE),
        ("how do we deploy", None),
        ("stripe refund approval", None),
        ("PAY-7731", None),
        ("which tool manages python dependencies", None),
        # A few words ending with a value asked for, as "which version" is.
        ("postgres version", Point.NUMBER),
        ("redis cache ttl", Point.NUMBER),
        ("CACHE_TTL", None),  # an identifier asks for itself
        ("X-App-Version", None),
        ("experimental prices", None),  # in the plural, a topic
        ("version", None),
    ],
)
def test_a_question_says_what_shape_its_answer_has(question: str, wanted: Point | None) -> None:
    assert question_point.point(question) is wanted


@pytest.mark.parametrize(
    ("wanted", "text", "held"),
    [
        (Point.DURATION, "Backups are kept for 35 days.", True),
        (Point.DURATION, "Backups are kept encrypted by the infra team.", False),
        # Digits inside a name are no number.
        (Point.NUMBER, "Deliveries are signed with HMAC-SHA256.", False),
        (Point.NUMBER, "The ticket PAY-7731 needs two approvals.", True),
        # Nor inside a file name: it names the file.
        (Point.TIME, "The tokenizer is loaded from data/vocab/titles-32k.model.", False),
        (Point.NUMBER, "Settings are read from deploy/v2/app-eu1.yaml.", False),
        (Point.DURATION, "Logs rotate after 7 days, see logrotate-v2.conf.", True),
        (Point.TIME, "The export job copies orders at 03:00 UTC.", True),
        (Point.TIME, "Stock is reserved when an order is paid.", True),
        (Point.TIME, "The export must never hold personal data.", False),
        (Point.PERSON, "Refunds over 500 EUR need a second approver.", True),
        (Point.PERSON, "Refunds over 500 EUR are shown in red.", False),
        (Point.PLACE, "Feature flags live in flags.yaml.", True),
        (Point.PLACE, "Pods get their secrets from Vault.", True),
        (Point.PLACE, "Feature flags are defined per team.", False),
    ],
)
def test_a_note_holds_the_shape_or_not(wanted: Point, text: str, held: bool) -> None:
    asked = frozenset({"backups", "kept", "refunds", "500", "eur", "feature", "flags", "export"})
    assert question_point.holds(wanted, Words(text), asked) is held


def test_the_question_s_own_words_are_no_answer_to_it() -> None:
    asked = frozenset({"nightly", "export"})
    assert not question_point.holds(
        Point.FREQUENCY, Words("The nightly export posts a summary."), asked
    )


def test_a_decoy_is_weak_and_the_answer_comes_first(outside: Path) -> None:
    svc = Synapse()
    notes = [
        "Backups are kept encrypted; the key is held by two people in the infra team.",
        "Nightly database dumps are retained for 35 days in cold storage.",
    ]
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in notes)
    done = run_cli(
        "memory", "recall", "how long are backups kept", "--json", "--explain", cwd=outside
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    decoy = next(c for c in found["explain"] if c["id"] == 1)
    assert decoy["weak"] and decoy["offpoint"] and decoy["coverage"] > 0.35
    hits = found["hits"]
    assert hits[-1]["id"] == 1 and hits[-1]["weak"]
    # Asked without a shape, the same note is an answer.
    plain = run_cli("memory", "recall", "backups kept", "--json", cwd=outside)
    assert not json.loads(plain.stdout)["hits"][0].get("weak")


@pytest.mark.parametrize("split", ["dev", "test", "holdout"])
def test_the_labeled_decoy_sets_hold(split: str, outside: Path) -> None:
    """At most 10% of the decoy questions get their decoy first and not weak; every
    answer that exists is found, and a question nothing answers gets at most 0.5
    hits not weak, with the cases as asked."""
    done = run_cli("memory", "eval", str(DECOYS / f"{split}.toml"), "--json", cwd=outside)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["decoyed"] <= 0.10
    assert report["found"] == 1.0
    assert report["kinds"]["decoy, unanswered"]["noise"] <= 0.5
    assert all("decoyed" in case for case in report["cases"])


def test_a_bad_decoy_in_a_cases_file_is_named(tmp_path: Path) -> None:
    cases = tmp_path / "cases.toml"
    cases.write_text('[[case]]\nquery = "a"\ndecoy = ""\n', encoding="utf-8")
    done = run_cli("memory", "eval", str(cases))
    assert done.returncode == 2 and "case 1: 'decoy' must be non-empty" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_a_day_in_the_plural_answers_when() -> None:
    from synapse_git.recall import question_point

    wanted = question_point.point("when do deploys go out?")
    assert wanted is not None
    asked = frozenset({"when", "deploys", "go", "out"})
    assert question_point.holds(
        wanted, Words("Deploys go out with ship.sh, never on Fridays."), asked
    )
