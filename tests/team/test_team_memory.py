"""Team memory through git itself: two clones of one bare remote, each with its own
store and its installed hooks, sharing memories through `.synapse/memories.jsonl`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from team_harness import TEAM_FILE, Clone, make_team


@pytest.fixture
def team(tmp_path: Path) -> tuple[Clone, Clone]:
    alice, bob = make_team(tmp_path)
    return alice, bob


@pytest.mark.slow
def test_shared_memories_travel_with_the_repository(team: tuple[Clone, Clone]) -> None:
    alice, bob = team
    first = alice.remember("Deploys go out from the release branch every Tuesday.", "--share")
    second = alice.remember("The payment service retries webhooks three times.")
    third = alice.remember("Integration tests need the staging database on port 5433.")
    private = alice.remember("My own scratch note about the flaky laptop fan.")
    alice.cli("memory", "share", str(second), str(third))
    lines = alice.team_lines()
    assert len(lines) == 3
    assert {line["author"] for line in lines} == {"Alice <alice@example.com>"}
    assert [line["id"] for line in lines] == sorted(line["id"] for line in lines)
    assert "scratch note" not in (alice.path / TEAM_FILE).read_text("utf-8")
    assert TEAM_FILE in (alice.path / ".gitattributes").read_text("utf-8")
    del first, private
    alice.commit_all("Share three memories")
    alice.git("push", "-q", "origin", "main")

    pulled = bob.git("pull", "-q", "origin", "main")
    assert "3 added" in pulled.stdout + pulled.stderr
    hits = bob.recall("when do deploys go out")
    assert hits and "release branch" in str(hits[0]["body"])
    assert hits[0]["author"] == "Alice <alice@example.com>"
    shown = bob.cli("memory", "recall", "when do deploys go out").stdout
    assert "(shared by Alice <alice@example.com>)" in shown
    assert bob.recall("webhook retries") and bob.recall("staging database port")
    # A second sync finds nothing new: the hook's work is idempotent.
    again = json.loads(bob.cli("memory", "sync", "--json").stdout)
    assert again["added"] == again["updated"] == []


def test_a_correction_reaches_the_teammate(team: tuple[Clone, Clone]) -> None:
    alice, bob = team
    alice.remember("Releases are cut from the develop branch.", "--share")
    alice.commit_all("Share")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    old = bob.recall("which branch are releases cut from")[0]
    fixed = bob.cli(
        "memory", "supersede", str(old["id"]), "Releases are cut from the main branch.", "--json"
    )
    new_id = json.loads(fixed.stdout)["id"]
    states = {line["body"]: line for line in bob.team_lines()}
    corrected = states["Releases are cut from the main branch."]
    assert states["Releases are cut from the develop branch."]["state"] == "superseded"
    assert corrected["supersedes"] == states["Releases are cut from the develop branch."]["id"]
    assert corrected["author"] == "Bob <bob@example.com>"
    assert new_id
    bob.commit_all("Correct the release branch")
    bob.git("push", "-q", "origin", "main")

    alice.git("pull", "-q", "origin", "main")
    hits = alice.recall("which branch are releases cut from")
    assert hits[0]["body"] == "Releases are cut from the main branch."
    assert all("develop" not in str(hit["body"]) for hit in hits)


def test_two_teammates_sharing_at_once_merge_without_conflict_markers(
    team: tuple[Clone, Clone],
) -> None:
    alice, bob = team
    alice.remember("The cache expires after ten minutes.", "--share")
    alice.commit_all("Alice shares")
    bob.remember("Feature flags live in config/flags.yaml.", "--share")
    bob.commit_all("Bob shares")
    alice.git("push", "-q", "origin", "main")
    merged = bob.git("pull", "-q", "--no-edit", "origin", "main")
    text = (bob.path / TEAM_FILE).read_text("utf-8")
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    assert len(bob.team_lines()) == 2
    assert "1 added" in merged.stdout + merged.stderr
    bob.git("push", "-q", "origin", "main")
    alice.git("pull", "-q", "origin", "main")
    assert alice.recall("feature flags file")


@pytest.mark.slow
def test_both_editing_one_shared_memory_keeps_a_chain_and_drift_reports_it(
    team: tuple[Clone, Clone],
) -> None:
    alice, bob = team
    shared = alice.remember("The API timeout is 30 seconds.", "--share")
    alice.commit_all("Share the timeout")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    bobs = int(bob.recall("API timeout")[0]["id"])  # type: ignore[call-overload]
    bob.cli("memory", "edit", str(bobs), "The API timeout is 60 seconds.")
    bob.commit_all("Bob's timeout")
    alice.cli("memory", "edit", str(shared), "The API timeout is 45 seconds.")
    alice.commit_all("Alice's timeout")  # the later change
    alice.git("push", "-q", "origin", "main")
    merged = bob.git("pull", "-q", "--no-edit", "origin", "main")
    assert "changed on both sides" in merged.stdout + merged.stderr
    text = (bob.path / TEAM_FILE).read_text("utf-8")
    assert "<<<<<<<" not in text
    lines = {str(line["body"]): line for line in bob.team_lines()}
    later = lines["The API timeout is 45 seconds."]
    earlier = lines["The API timeout is 60 seconds."]
    # One chain, never a lost version: the later edit is current and supersedes the other.
    assert (later["state"], later["supersedes"]) == ("live", earlier["id"])
    assert earlier["state"] == "superseded"
    hits = {str(hit["body"]) for hit in bob.recall("API timeout seconds")}
    assert "The API timeout is 45 seconds." in hits
    assert "The API timeout is 60 seconds." not in hits
    drift = bob.cli("memory", "drift", "--json", "--kind", "conflict", ok=False)
    assert drift.returncode == 1
    (pair,) = [f for f in json.loads(drift.stdout)["findings"] if len(f["ids"]) == 2]
    current, older = pair["newer"], pair["older"]
    assert current == bobs  # Bob's memory now holds the current text, and his in history
    assert "60 seconds" in bob.cli("memory", "history", str(older)).stdout
    # Each version is labelled with who wrote it: the earlier text is Bob's edit.
    assert pair["authors"] == {
        str(current): "Alice <alice@example.com>",
        str(older): "Bob <bob@example.com>",
    }
    assert "shared by Alice <alice@example.com>" in bob.cli("memory", "drift", ok=False).stdout
    assert pair["suggest"] == f"synapse memory forget {older}"

    # Alice pulls the merge: the same chain and the same finding on her clone.
    bob.git("push", "-q", "origin", "main")
    alice.git("pull", "-q", "origin", "main")
    hers = json.loads(alice.cli("memory", "drift", "--json", "--kind", "conflict", ok=False).stdout)
    (mirror,) = [f for f in hers["findings"] if len(f["ids"]) == 2]
    assert mirror["newer"] == shared
    # Looking and settling it: forgetting the earlier version clears it for the team.
    alice.cli("memory", "forget", str(mirror["older"]))
    assert alice.cli("memory", "drift", "--kind", "conflict").returncode == 0
    alice.commit_all("Settle the timeout")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    assert bob.cli("memory", "drift", "--kind", "conflict").returncode == 0


def test_a_secret_shaped_memory_is_refused(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    secret = alice.remember(f"The CI bot uses the token {token} for releases.")
    refused = alice.cli("memory", "share", str(secret), ok=False)
    assert refused.returncode == 2
    assert "GitHub token" in refused.stderr
    assert not (alice.path / TEAM_FILE).exists()
    also = alice.cli("memory", "remember", f"Deploy key: {token}", "--share", ok=False)
    assert also.returncode == 2
    assert "Deploy key" not in alice.cli("memory", "list").stdout
    forced = alice.cli("memory", "share", str(secret), "--force")
    assert "shared" in forced.stdout


def test_global_memories_are_never_shared(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    mine = alice.remember("I prefer tabs in my editor.", "--global")
    refused = alice.cli("memory", "share", str(mine), ok=False)
    assert refused.returncode == 2
    assert not (alice.path / TEAM_FILE).exists()


def test_a_malformed_line_is_reported_and_skipped(team: tuple[Clone, Clone]) -> None:
    alice, bob = team
    alice.remember("Logs rotate daily at midnight.", "--share")
    path = alice.path / TEAM_FILE
    path.write_text(path.read_text("utf-8") + '{"id": "broken", "body": 5}\n', "utf-8")
    alice.git("add", "-A")
    alice.git("commit", "-q", "--no-verify", "-m", "A bad line slips in")
    alice.git("push", "-q", "origin", "main")
    pulled = bob.git("pull", "-q", "origin", "main")
    said = pulled.stdout + pulled.stderr
    assert f"{TEAM_FILE}:2" in said and "1 added" in said
    assert bob.recall("log rotation midnight")


def test_the_commit_hook_blocks_a_broken_team_file(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    alice.remember("Metrics are scraped every 15 seconds.", "--share")
    path = alice.path / TEAM_FILE
    line = path.read_text("utf-8")
    path.write_text(line + line, "utf-8")  # the same id twice
    alice.git("add", "-A")
    blocked = alice.git("commit", "-q", "-m", "Duplicate id", check=False)
    assert blocked.returncode != 0
    assert "repeated" in blocked.stdout + blocked.stderr
    path.write_text(line, "utf-8")
    alice.git("add", "-A")
    alice.git("commit", "-q", "-m", "Fixed")


def test_unshare_takes_a_memory_out_of_the_file_only(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    kept = alice.remember("Nightly builds publish to the internal index.", "--share")
    alice.cli("memory", "unshare", str(kept))
    assert alice.team_lines() == []
    assert alice.recall("nightly builds publish")


def test_remembering_with_share_warns_about_a_home_path(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    home = os.environ["HOME"].rstrip("/")
    said = alice.cli("memory", "remember", f"Scratch data sits in {home}/scratch.", "--share")
    assert "warning: memory 1 names a path under your home folder" in said.stderr
    answer = json.loads(
        alice.cli("memory", "remember", f"Logs sit in {home}/logs.", "--share", "--json").stdout
    )
    assert answer["warnings"] and "home folder" in answer["warnings"][0]
    assert len(alice.team_lines()) == 2
    plain = json.loads(alice.cli("memory", "remember", "Nothing personal.", "--json").stdout)
    assert "warnings" not in plain


def test_the_commit_hook_blocks_a_secret_or_a_malformed_line_in_the_team_file(
    team: tuple[Clone, Clone],
) -> None:
    alice, _ = team
    alice.remember("Backups run at two in the morning.", "--share")
    path = alice.path / TEAM_FILE
    good = path.read_text("utf-8")
    leaked = json.loads(good)
    leaked["id"] = "zz-leak"
    leaked["body"] = "The release bot token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for bad, reason in (
        (json.dumps(leaked, sort_keys=True), "seems to hold a GitHub token"),
        ('{"id": "zz-broken"', "not JSON"),
    ):
        path.write_text(good + bad + "\n", "utf-8")
        alice.git("add", "-A")
        blocked = alice.git("commit", "-q", "-m", "A bad line", check=False)
        assert blocked.returncode != 0
        assert reason in blocked.stdout + blocked.stderr
    path.write_text(good, "utf-8")
    alice.commit_all("Only the good line")
