"""An unmarked correction is flagged wherever recall returns the memory it corrects."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conflict_cases import CONFLICTS
from support import make_repo

from synapse_git.drift.conflicts import contradicts
from synapse_git.service import Synapse


def _named(response: dict[str, Any], newer: int) -> bool:
    """The newer memory is in the response: a finding names it or quotes it."""
    for finding in response["drift"]:
        if finding["kind"] == "conflict" and newer in finding["ids"]:
            return True
        if (finding.get("quote") or {}).get("id") == newer:
            return True
    return False


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_recall_names_or_quotes_the_newer_half_of_every_true_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    pairs = []
    for older, newer in CONFLICTS:
        old_id = svc.remember(older, scope).id
        pairs.append((older, newer, old_id))
    # Every correction arrives later, unmarked (no --supersedes).
    ids = [(older, newer, old_id, svc.remember(newer, scope).id) for older, newer, old_id in pairs]
    returned = flagged = 0
    missed = []
    for older, newer, old_id, new_id in ids:
        # Ask with the older memory's own words, then with only the words the newer
        # lacks (so the newer does not match the query and must be quoted).
        own = _words(older) - _words(newer)
        for query in filter(None, (older, " ".join(sorted(own)))):
            response = svc.recall(query, scope).as_json()
            if old_id not in [hit["id"] for hit in response["hits"]]:
                continue
            returned += 1
            if _named(response, new_id):
                flagged += 1
            else:
                missed.append((older, newer))
    undetected = {(a, b) for a, b in CONFLICTS if contradicts(a, b) is None}
    with capsys.disabled():
        print(
            f"\nrecall returned the older half {returned} times; the newer was named or "
            f"quoted {flagged} times; {len(undetected)} pairs the detector misses"
        )
    assert returned >= len(CONFLICTS)
    # Recall never loses a conflict the detector finds (candidates, budget, quoting);
    # the only misses are the pairs the detector itself does not flag.
    assert set(missed) <= undetected
    assert flagged / returned >= 0.9
