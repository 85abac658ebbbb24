"""Team memory against a hostile teammate: every byte of `.synapse/`, the team file and
`.gitattributes` comes from someone else's commit (docs/team.md, "A hostile clone").
Real git, a bare remote and two clones, each with its own store and hooks."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from support import run_cli
from team_harness import TEAM_FILE, Clone, make_team

from synapse_git.team import records
from synapse_git.team.merge import merge_files
from synapse_git.team.records import Record

STAMP = "2025-01-02T03:04:05.000000+00:00"


@pytest.fixture
def team(tmp_path: Path) -> tuple[Clone, Clone]:
    alice, bob = make_team(tmp_path)
    return alice, bob


def rows(clone: Clone, sql: str, *args: object) -> list[tuple[object, ...]]:
    db = clone.data / "memory.db"
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return list(conn.execute(sql, args))


def store_state(clone: Clone) -> list[tuple[object, ...]]:
    """Every memory and shared row, to tell that a refusal changed nothing."""
    return rows(clone, "SELECT id, body, state, superseded_by FROM memories ORDER BY id") + rows(
        clone, "SELECT memory_id, uid, author, origin, line FROM shared ORDER BY memory_id"
    )


def line(uid: str, body: str, **fields: object) -> str:
    data: dict[str, object] = {
        "id": uid,
        "body": body,
        "source": "",
        "author": "Mallory <m@example.com>",
        "created_at": STAMP,
        "updated_at": STAMP,
        "supersedes": None,
        "state": "live",
    }
    data.update(fields)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def hostile_commit(clone: Clone, message: str) -> None:
    """A commit as a hostile teammate makes it: past any check of theirs."""
    clone.git("add", "-A")
    clone.git("commit", "-q", "--no-verify", "-m", message)


def other_repo(tmp_path: Path) -> Path:
    """A sibling repository whose team file holds a memory that must stay its own."""
    other = tmp_path / "other"
    (other / ".synapse").mkdir(parents=True)
    (other / TEAM_FILE).write_text(line("0ther", "The other project's private fact.") + "\n")
    return other


# -- 1. team paths are regular files inside the worktree --------------------------------


LINKS = {
    "file to a sibling repository": (TEAM_FILE, "../../other/.synapse/memories.jsonl"),
    "file to an absolute path": (TEAM_FILE, "{other}/.synapse/memories.jsonl"),
    "file to /dev/zero": (TEAM_FILE, "/dev/zero"),
    "file to /proc/self/pagemap": (TEAM_FILE, "/proc/self/pagemap"),
    "folder to a sibling repository": (".synapse", "../other/.synapse"),
}


@pytest.mark.parametrize("case", list(LINKS))
def test_a_committed_symlink_is_never_followed(
    team: tuple[Clone, Clone], tmp_path: Path, case: str
) -> None:
    alice, bob = team
    other = other_repo(tmp_path)
    before = (other / TEAM_FILE).read_bytes()
    where, target = LINKS[case]
    link = alice.path / where
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(target.format(other=other))
    if where == TEAM_FILE:
        # Alice's own commit check refuses it; a hostile teammate skips the check.
        alice.git("add", "-A")
        blocked = alice.git("commit", "-q", "-m", "A link", check=False)
        assert blocked.returncode != 0 and "symlink" in blocked.stdout + blocked.stderr
    hostile_commit(alice, "A link")
    alice.git("push", "-q", "origin", "main")
    mine = bob.remember("Bob's own note about the build cache.")
    state = store_state(bob)

    pulled = bob.git("pull", "-q", "origin", "main")  # the hook syncs: refused, pull goes on
    assert "team memory not synced" in pulled.stderr and "symlink" in pulled.stderr
    synced = bob.cli("memory", "sync", ok=False)
    assert synced.returncode == 2
    assert synced.stderr.count("\n") == 1 and "symlink" in synced.stderr
    assert str(bob.path / where) in synced.stderr
    for attempt in (
        ("memory", "share", str(mine)),
        ("memory", "remember", "A new fact to share.", "--share"),
    ):
        refused = bob.cli(*attempt, ok=False)
        assert refused.returncode == 2 and "symlink" in refused.stderr, refused.stderr
    assert store_state(bob) == state
    assert (other / TEAM_FILE).read_bytes() == before
    assert not rows(bob, "SELECT 1 FROM memories WHERE body LIKE '%other project%'")


def test_gitattributes_linked_outside_is_never_written(
    team: tuple[Clone, Clone], tmp_path: Path
) -> None:
    alice, bob = team
    config = tmp_path / "config.toml"
    config.write_text("[recall]\n")
    (alice.path / ".gitattributes").symlink_to(config)
    hostile_commit(alice, "A link")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    mine = bob.remember("Bob's note on the release checklist.")
    state = store_state(bob)
    refused = bob.cli("memory", "share", str(mine), ok=False)
    assert refused.returncode == 2 and ".gitattributes: a symlink" in refused.stderr
    # The share failed as a whole: no team file, no shared row, the target unchanged.
    assert config.read_text() == "[recall]\n"
    assert not (bob.path / TEAM_FILE).exists()
    assert store_state(bob) == state


def test_special_files_are_refused_without_waiting(tmp_path: Path) -> None:
    (alice,) = make_team(tmp_path, ("Alice",))
    (alice.path / ".synapse").mkdir()
    os.mkfifo(alice.path / TEAM_FILE)
    synced = subprocess.run(
        [*_synapse(), "memory", "sync"],
        cwd=alice.path,
        env={**os.environ, **alice.env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert synced.returncode == 2 and "a FIFO" in synced.stderr
    (alice.path / TEAM_FILE).unlink()
    (alice.path / TEAM_FILE).mkdir()
    refused = alice.cli("memory", "remember", "A fact.", "--share", ok=False)
    assert refused.returncode == 2 and "memories.jsonl" in refused.stderr
    assert not rows(alice, "SELECT 1 FROM memories")


def _synapse() -> list[str]:
    import sys

    exe = Path(sys.executable).with_name("synapse")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]


def test_an_oversized_team_file_is_refused(tmp_path: Path) -> None:
    (alice,) = make_team(tmp_path, ("Alice",))
    (alice.path / ".synapse").mkdir()
    with (alice.path / TEAM_FILE).open("wb") as out:
        out.truncate(records.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    synced = alice.cli("memory", "sync", ok=False)
    assert synced.returncode == 2 and "bytes allowed" in synced.stderr


# -- 2. one validator ------------------------------------------------------------------

BAD_LINES = {
    "lone surrogate in the body": (line("b1", "x").replace('"x"', '"\\ud800"'), "body"),
    "lone surrogate in the author": (line("b2", "ok", author="\ud800"), "author"),
    "lone surrogate in the id": (line("x", "ok").replace('"id":"x"', '"id":"\\udfff"'), "id"),
    "created_at not a time": (line("b4", "ok", created_at="garbage"), "created_at"),
    "created_at in year 9999": (
        line(
            "b5",
            "ok",
            created_at="9999-01-01T00:00:00+00:00",
            updated_at="9999-01-01T00:00:00+00:00",
        ),
        "in the future",
    ),
    "a body over the limit": (line("b6", "y" * (1024 * 1024 + 1)), "the limit is"),
    "an id with spaces": (line("not an id", "ok"), "id must be"),
    "an author on two lines": (line("b8", "ok", author="A\nB"), "author"),
    # A reviewer of the diff reads the first body; a parser would store the second.
    "a key given twice": (
        line("b9", "The reviewed fact.").replace(
            '"body":"The reviewed fact."', '"body":"The reviewed fact.","body":"Another fact."'
        ),
        '"body" is given twice',
    ),
}


def test_one_bad_line_blocks_nothing_and_is_refused_alike_everywhere(
    team: tuple[Clone, Clone], tmp_path: Path
) -> None:
    alice, bob = team
    good = [line("g1", "The good fact one."), line("g2", "The good fact two.")]
    bad = [text for text, _ in BAD_LINES.values()]
    (alice.path / ".synapse").mkdir()
    body = "\n".join([good[0], *bad, good[1]]) + "\n"
    cesu = line("r1", "S").replace('"S"', '"\ud800"').encode("utf-8", "surrogatepass")
    overlong = line("r2", "over/long").encode().replace(b"/", b"\xc0\xaf")
    raw = b"\xff\xfe\n" + cesu + b"\n" + overlong
    (alice.path / TEAM_FILE).write_bytes(body.encode("utf-8", "surrogatepass") + raw + b"\n")
    # The commit check refuses each bad line, by number.
    alice.git("add", "-A")
    blocked = alice.git("commit", "-q", "-m", "bad", check=False)
    assert blocked.returncode != 0
    said = blocked.stdout + blocked.stderr
    reasons = {}
    for number, (case, (_, expected)) in enumerate(BAD_LINES.items(), start=2):
        found = [s for s in said.splitlines() if f"{TEAM_FILE}:{number}:" in s]
        assert found and expected in found[0], (case, said)
        reasons[case] = found[0].split(f"{TEAM_FILE}:{number}: ", 1)[1]
    # Other encodings that are not UTF-8: stray bytes, a surrogate encoded raw
    # (CESU-8), an overlong "/".
    for number in range(len(bad) + 3, len(bad) + 6):
        assert f"{TEAM_FILE}:{number}: not UTF-8" in said
    alice.git("commit", "-q", "--no-verify", "-m", "bad")
    alice.git("push", "-q", "origin", "main")

    # Bob's pull adds the good lines; each bad one is named and skipped.
    pulled = bob.git("pull", "-q", "origin", "main")
    assert "2 added" in pulled.stdout + pulled.stderr
    assert {b for (b,) in rows(bob, "SELECT body FROM memories")} == {
        "The good fact one.",
        "The good fact two.",
    }
    # A fresh store's sync says the same, line by line, and exits 1.
    fresh = tmp_path / "fresh-data"
    fresh.mkdir()
    synced = run_cli("memory", "sync", cwd=bob.path, env={**bob.env, "SYNAPSE_DATA": str(fresh)})
    assert synced.returncode == 1
    for number, case in enumerate(BAD_LINES, start=2):
        assert f"{TEAM_FILE}:{number}: {reasons[case]}" in synced.stderr
    # Bob's own sharing still works; the bad lines stay for their author to fix.
    mine = bob.remember("Bob's fact about the deploy window.", "--share")
    bob.cli("memory", "edit", str(mine), "Bob's fact about the deploy window, edited.")
    after = (bob.path / TEAM_FILE).read_bytes()
    assert all(text.encode("utf-8", "surrogatepass") in after for text in bad)
    assert b"edited." in after
    bob.cli("memory", "unshare", str(mine))

    # The merge driver refuses to merge these lines by id, with the same words.
    for path, text in (("base", good[0]), ("ours", good[0]), ("theirs", body.rstrip("\n"))):
        (tmp_path / path).write_bytes(text.encode("utf-8", "surrogatepass") + b"\n")
    _, merged = merge_files(tmp_path / "base", tmp_path / "ours", tmp_path / "theirs", TEAM_FILE)
    for number, case in enumerate(BAD_LINES, start=2):
        assert f"their version, line {number}: {reasons[case]}" in merged
    # Import refuses the fields it shares with a team line with the same words.
    for case in (
        "lone surrogate in the body",
        "created_at not a time",
        "created_at in year 9999",
        "a body over the limit",
    ):
        record = json.loads(BAD_LINES[case][0])
        doc = {
            "body": record["body"],
            "created_at": record["created_at"],
            "updated_at": record["updated_at"],
            "project": None,
        }
        done = run_cli(
            "memory",
            "import",
            "-",
            cwd=bob.path,
            env=bob.env,
            stdin=json.dumps(doc).encode("utf-8", "surrogatepass"),
        )
        assert done.returncode == 2 and reasons[case] in done.stderr, (case, done.stderr)


def test_supersession_cycles_from_team_lines_are_refused(team: tuple[Clone, Clone]) -> None:
    alice, bob = team
    (alice.path / ".synapse").mkdir()
    (alice.path / TEAM_FILE).write_text(
        "\n".join(
            [
                line("a1", "The cache lives in Redis.", supersedes="b1"),
                line("b1", "The cache lives in Memcached.", supersedes="a1"),
                line("c1", "The queue is RabbitMQ."),
            ]
        )
        + "\n"
    )
    alice.git("add", "-A")
    blocked = alice.git("commit", "-q", "-m", "cycle", check=False)
    assert blocked.returncode != 0 and "cycle" in blocked.stdout + blocked.stderr
    alice.git("commit", "-q", "--no-verify", "-m", "cycle")
    alice.git("push", "-q", "origin", "main")
    pulled = bob.git("pull", "-q", "origin", "main")
    said = pulled.stdout + pulled.stderr
    assert f"{TEAM_FILE}:1: its supersessions form a cycle" in said
    assert f"{TEAM_FILE}:2: its supersessions form a cycle" in said
    assert rows(bob, "SELECT body, state FROM memories") == [("The queue is RabbitMQ.", "live")]


# -- 3. a branch switch never unshares, duplicates or re-authors ------------------------


def _shared_on_feature(alice: Clone) -> tuple[int, str]:
    """Main has one shared memory; feature shares a second. Returns its id and uid."""
    alice.remember("Main's shared fact: the CI runs on every push.", "--share")
    alice.commit_all("Share on main")
    alice.git("push", "-q", "origin", "main")
    alice.git("checkout", "-q", "-b", "feature")
    mine = alice.remember("Feature's shared fact: the parser is incremental.", "--share")
    alice.commit_all("Share on feature")
    (uid,) = [str(r["id"]) for r in alice.team_lines() if "parser" in str(r["body"])]
    return mine, uid


def _assert_intact(alice: Clone, mine: int, uid: str) -> None:
    copies = rows(alice, "SELECT id, state FROM memories WHERE body LIKE '%parser%'")
    assert copies == [(mine, "live")]
    assert rows(alice, "SELECT uid, author, origin FROM shared WHERE memory_id = ?", mine) == [
        (uid, "Alice <alice@example.com>", "here")
    ]


MOVES = {
    "checkout": (("checkout", "-q", "main"), ("checkout", "-q", "feature")),
    "switch": (("switch", "-q", "main"), ("switch", "-q", "feature")),
    "reset --hard": (("reset", "-q", "--hard", "main"), ("reset", "-q", "--hard", "ORIG_HEAD")),
    "rebase": (("checkout", "-q", "main"), ("rebase", "-q", "main", "feature")),
}


@pytest.mark.parametrize("move", list(MOVES))
def test_moving_head_away_and_back_keeps_a_shared_memory_whole(
    team: tuple[Clone, Clone], move: str
) -> None:
    alice, _ = team
    mine, uid = _shared_on_feature(alice)
    away, back = MOVES[move]
    alice.git(*away)
    if move == "rebase":
        (alice.path / "NEWS").write_text("news\n")
        alice.commit_all("Main moves on")
    alice.cli("memory", "sync")  # reset runs no hook: the next one syncs
    # From main: her own memory stays hers and live, but main's file does not hold it.
    _assert_intact(alice, mine, uid)
    assert not [r for r in alice.team_lines() if r["id"] == uid]
    alice.git(*back)
    synced = json.loads(alice.cli("memory", "sync", "--json").stdout)
    assert synced.get("added", []) == []
    _assert_intact(alice, mine, uid)
    assert [r["id"] for r in alice.team_lines() if r["id"] == uid] == [uid]
    # Later edits reach the line again.
    alice.cli("memory", "edit", str(mine), "Feature's shared fact: the parser is streaming.")
    (edited,) = [r for r in alice.team_lines() if r["id"] == uid]
    assert "streaming" in str(edited["body"])


def test_stash_and_a_second_worktree_keep_a_shared_memory_whole(
    team: tuple[Clone, Clone], tmp_path: Path
) -> None:
    alice, _ = team
    alice.remember("Main's shared fact: the CI runs on every push.", "--share")
    alice.commit_all("Share on main")
    mine = alice.remember("An uncommitted share: the lexer is hand written.", "--share")
    (uid,) = [str(r["id"]) for r in alice.team_lines() if "lexer" in str(r["body"])]
    alice.git("stash", "-q")
    alice.cli("memory", "sync")
    alice.git("stash", "pop", "-q")
    alice.cli("memory", "sync")
    assert rows(alice, "SELECT id FROM memories WHERE body LIKE '%lexer%'") == [(mine,)]
    alice.commit_all("Share the lexer")
    alice.git("branch", "-q", "old", "HEAD~1")
    other = tmp_path / "alice-old"
    alice.git("worktree", "add", "-q", str(other), "old")  # its post-checkout syncs there
    alice.cli("memory", "sync")
    assert rows(alice, "SELECT id, state FROM memories WHERE body LIKE '%lexer%'") == [
        (mine, "live")
    ]
    assert [r["id"] for r in alice.team_lines() if "lexer" in str(r["body"])] == [uid]
    assert rows(alice, "SELECT author FROM shared WHERE memory_id = ?", mine) == [
        ("Alice <alice@example.com>",)
    ]


def test_a_teammates_memory_on_an_unmerged_branch_is_hidden_from_main(
    team: tuple[Clone, Clone],
) -> None:
    alice, bob = team
    _shared_on_feature(alice)
    alice.git("push", "-q", "origin", "feature")
    bob.git("pull", "-q", "origin", "main")
    bob.git("fetch", "-q", "origin")
    bob.git("checkout", "-q", "-b", "feature", "origin/feature")
    (theirs,) = rows(bob, "SELECT id FROM memories WHERE body LIKE '%parser%'")
    assert bob.recall("parser incremental")
    bob.git("checkout", "-q", "main")
    assert not bob.recall("parser incremental")
    bob.git("checkout", "-q", "feature")
    assert rows(bob, "SELECT id, state FROM memories WHERE body LIKE '%parser%'") == [
        (theirs[0], "live")
    ]
    hit = bob.recall("parser incremental")[0]
    assert hit["author"] == "Alice <alice@example.com>"


# -- 4. the merge driver ---------------------------------------------------------------


def test_a_hostile_attribute_cannot_make_the_driver_swallow_source_files(
    team: tuple[Clone, Clone],
) -> None:
    alice, bob = team
    (alice.path / ".gitattributes").write_text("*.py merge=synapse\n")
    alice.commit_all("Route python to the driver")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    (alice.path / "src/app.py").write_text("x = 2\n")
    alice.commit_all("Alice's x")
    alice.git("push", "-q", "origin", "main")
    (bob.path / "src/app.py").write_text("x = 3\n")
    bob.commit_all("Bob's x")
    merged = bob.git("pull", "-q", "--no-edit", "origin", "main", check=False)
    assert merged.returncode != 0
    text = (bob.path / "src/app.py").read_text()
    assert "<<<<<<<" in text and "x = 2" in text and "x = 3" in text


def test_a_file_the_driver_cannot_merge_by_id_keeps_both_sides(
    team: tuple[Clone, Clone],
) -> None:
    alice, bob = team
    alice.remember("A shared fact everyone has.", "--share")
    alice.commit_all("Share")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    with (alice.path / TEAM_FILE).open("a") as out:
        out.write('{"broken": true}\n')
    alice.git("add", "-A")
    alice.git("commit", "-q", "--no-verify", "-m", "A broken line")
    alice.git("push", "-q", "origin", "main")
    bob.remember("Bob's shared fact about the linter.", "--share")
    bob.commit_all("Bob shares")
    merged = bob.git("pull", "-q", "--no-edit", "origin", "main", check=False)
    text = (bob.path / TEAM_FILE).read_text()
    # Never "ours" alone: Alice's line is there, in markers when the sides collide.
    assert '{"broken": true}' in text and "linter" in text
    # Then either git's markers, or a clean line merge that the commit check stops
    # from being committed (the broken line is still Alice's to fix).
    said = merged.stdout + merged.stderr
    assert merged.returncode != 0
    assert "<<<<<<<" in text or "would break it for the team" in said


# -- 5. a failed share leaves neither the store nor the file changed --------------------


def test_a_failed_share_changes_neither_store_nor_file(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    first = alice.remember("A fact shared before.", "--share")
    del first
    before = (alice.path / TEAM_FILE).read_bytes()
    (alice.path / ".gitattributes").unlink()
    (alice.path / ".gitattributes").mkdir()
    mine = alice.remember("A fact to share now.")
    state = store_state(alice)
    refused = alice.cli("memory", "share", str(mine), ok=False)
    assert refused.returncode == 2 and ".gitattributes" in refused.stderr
    assert (alice.path / TEAM_FILE).read_bytes() == before
    assert store_state(alice) == state


def test_a_latin1_gitattributes_is_kept_byte_for_byte(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    (alice.path / ".gitattributes").write_bytes(b"# caf\xe9\n*.txt text\n")
    alice.remember("A fact shared beside a Latin-1 file.", "--share")
    data = (alice.path / ".gitattributes").read_bytes()
    assert data == b"# caf\xe9\n*.txt text\n" + records.ATTRIBUTES_LINE.encode() + b"\n"
    assert len(alice.team_lines()) == 1


# -- 6. secrets on every path that writes a line, and authors of each version -----------


def test_editing_a_shared_memory_checks_for_secrets(team: tuple[Clone, Clone]) -> None:
    alice, _ = team
    mine = alice.remember("The deploy key is kept in the vault.", "--share")
    before = (alice.path / TEAM_FILE).read_bytes()
    state = store_state(alice)
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for attempt in (
        ("memory", "edit", str(mine), f"The deploy key is {token}"),
        ("memory", "edit", str(mine), "--source", f"https://bot:{token}@example.com/x"),
        ("memory", "supersede", str(mine), f"The deploy key is {token}"),
    ):
        refused = alice.cli(*attempt, ok=False)
        assert refused.returncode == 2 and "seems to hold" in refused.stderr, attempt
    assert (alice.path / TEAM_FILE).read_bytes() == before
    assert store_state(alice) == state


def test_remembering_a_secret_to_share_names_no_memory(team: tuple[Clone, Clone]) -> None:
    """Nothing is stored, so the refusal speaks of the text: it named the id the memory
    would have had ("memory 2 … edit it") and a --force `remember` does not take."""
    alice, _ = team
    alice.remember("A fact kept to myself.")
    state = store_state(alice)
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    refused = alice.cli("memory", "remember", f"The deploy key is {token}", "--share", ok=False)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(
        "synapse: the text seems to hold a GitHub token: nothing was remembered"
    )
    assert "memory 2" not in refused.stderr
    assert "`synapse memory share ID --force`" in refused.stderr
    assert store_state(alice) == state
    assert not (alice.path / TEAM_FILE).exists()


def test_an_edit_is_signed_by_whoever_made_it(team: tuple[Clone, Clone]) -> None:
    alice, bob = team
    alice.remember("The style guide allows 100 columns.", "--share")
    alice.commit_all("Share")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    (theirs,) = rows(bob, "SELECT id FROM memories")
    bob.cli("memory", "forget", str(theirs[0]))
    (forgotten,) = bob.team_lines()
    assert forgotten["author"] == "Alice <alice@example.com>"  # a forget is no new text
    bob.cli("memory", "restore", str(theirs[0]))
    bob.cli("memory", "edit", str(theirs[0]), "The style guide allows 120 columns.")
    (edited,) = bob.team_lines()
    assert edited["author"] == "Bob <bob@example.com>"
    assert bob.recall("style guide columns")[0]["author"] == "Bob <bob@example.com>"


def test_records_accept_known_optional_fields() -> None:
    record = Record("a", "b", "", "A <a@x>", STAMP, STAMP, None, "live")
    assert records.parse_line(record.line()) == record
    extra = json.loads(record.line()) | {"anchor": "abc"}
    with pytest.raises(ValueError, match="unknown anchor"):
        records.parse_line(json.dumps(extra))
    records.OPTIONAL["anchor"] = lambda value: None
    try:
        assert records.parse_line(json.dumps(extra)) == record
    finally:
        del records.OPTIONAL["anchor"]
