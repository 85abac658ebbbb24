"""The team file's format and its merge by id, without git: every version kept."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_git.team import records
from synapse_git.team.merge import forked_from, merge, merge_files
from synapse_git.team.records import Record
from synapse_git.team.secrets import home_paths_in, secrets_in


def record(uid: str, body: str, state: str = "live", supersedes: str | None = None) -> Record:
    return Record(uid, body, "", "A <a@x>", "2026-01-01", "2026-01-02", supersedes, state)


def test_lines_are_canonical_and_sorted() -> None:
    text = records.render([record("b", "second"), record("a", "first é")])
    lines = text.splitlines()
    assert lines[0].startswith('{"author"') and '"id":"a"' in lines[0]
    assert "é" in lines[0]
    parsed, errors = records.parse(text)
    assert errors == [] and list(parsed) == ["a", "b"]
    assert records.render(parsed.values()) == text


def test_bad_lines_are_named_with_their_number() -> None:
    good = record("a", "fine").line()
    text = "\n".join([good, "not json", '{"id": "x"}', good, "[1, 2]", "{" * 100000])
    found, errors = records.parse(text)
    assert list(found) == ["a"]
    assert [e.number for e in errors] == [2, 3, 4, 5, 6]
    assert "repeated" in errors[2].reason
    assert "missing" in errors[1].reason


def test_merge_takes_each_sides_change_and_chains_a_double_edit() -> None:
    base = {"a": record("a", "A"), "b": record("b", "B"), "c": record("c", "C")}
    ours = {**base, "a": record("a", "A ours")._replace(updated_at="2026-03-01")}
    ours["n1"] = record("n1", "new ours")
    ours.pop("c")
    theirs = {**base, "b": record("b", "B theirs"), "a": record("a", "A theirs", supersedes="z")}
    theirs["n2"] = record("n2", "new theirs")
    merged = merge(base, ours, theirs)
    assert merged.records["b"].body == "B theirs"
    assert "c" not in merged.records  # deleted on our side, untouched on theirs
    assert {"n1", "n2"} <= merged.records.keys()
    ((kept, fork),) = merged.forks
    assert kept == "a" and forked_from(fork) == "a"
    # The later change keeps the id and supersedes the earlier, kept as a fork
    # that still says what it superseded: one chain z <- a~HASH <- a.
    later, earlier = merged.records["a"], merged.records[fork]
    assert (later.body, later.state, later.supersedes) == ("A ours", "live", fork)
    assert (earlier.body, earlier.state, earlier.supersedes) == ("A theirs", "superseded", "z")
    # Whichever side merges, every clone gets the same file.
    assert merge(base, theirs, ours) == merged


def test_the_later_change_wins_whichever_side_it_is_on() -> None:
    base = {"a": record("a", "A")}
    late = record("a", "late")._replace(updated_at="2026-05-05")
    early = record("a", "early")._replace(updated_at="2026-04-04")
    for ours, theirs in ((late, early), (early, late)):
        merged = merge(base, {"a": ours}, {"a": theirs})
        assert merged.records["a"].body == "late"
        assert [r.body for r in merged.records.values() if r.state == "superseded"] == ["early"]


def test_an_edit_outlives_a_deletion() -> None:
    base = {"a": record("a", "A")}
    assert merge(base, {}, {"a": record("a", "A2")}).records["a"].body == "A2"
    assert merge(base, {"a": record("a", "A3")}, {}).records["a"].body == "A3"


def test_an_edit_outlives_a_forget() -> None:
    base = {"a": record("a", "A")}
    forgot = {"a": record("a", "A", "forgotten")._replace(updated_at="2026-09-09")}
    edited = {"a": record("a", "A2")}
    for ours, theirs in ((forgot, edited), (edited, forgot)):
        merged = merge(base, ours, theirs)
        assert merged.records == {"a": edited["a"]} and merged.forks == []


def test_forks_of_forks_keep_short_valid_ids() -> None:
    uid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    current = {uid: record(uid, "v0")}
    for n in range(1, 12):
        base = current
        ours = {**base, uid: record(uid, f"ours {n}")._replace(updated_at=f"2026-02-{n:02}")}
        theirs = {**base, uid: record(uid, f"theirs {n}")}
        current = merge(base, ours, theirs).records
    text = records.render(current.values())
    parsed, errors = records.parse(text)
    assert errors == [] and len(parsed) == 12
    assert {forked_from(k) or k for k in parsed} == {uid}
    # A teammate's id at the length limit still forks into a valid id.
    long = "x" * records.MAX_ID
    merged = merge({long: record(long, "A")}, {long: record(long, "B")}, {long: record(long, "C")})
    assert records.parse(records.render(merged.records.values()))[1] == []


versions = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e"]),
    st.builds(record, st.just("?"), st.sampled_from(["x", "y", "z"])),
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(versions, versions, versions)
def test_no_side_s_change_is_ever_lost(
    base: dict[str, Record], ours: dict[str, Record], theirs: dict[str, Record]
) -> None:
    fix = lambda side: {k: v._replace(id=k) for k, v in side.items()}  # noqa: E731
    base, ours, theirs = fix(base), fix(ours), fix(theirs)
    merged = merge(base, ours, theirs)
    bodies = {(forked_from(k) or k, v.body) for k, v in merged.records.items()}
    for side in (ours, theirs):
        for uid, rec in side.items():
            if base.get(uid) != rec:
                assert (uid, rec.body) in bodies
    # Merging is symmetric: whichever clone merges, the file is the same.
    assert merge(base, theirs, ours) == merged
    assert all(
        len(
            [
                r
                for r in merged.records.values()
                if r.state == "live" and (forked_from(r.id) or r.id) == uid
            ]
        )
        <= 1
        for uid in base.keys() | ours.keys() | theirs.keys()
    )


def test_merge_files_leaves_malformed_input_to_git(tmp_path: Path) -> None:
    good = record("a", "A").line() + "\n"
    theirs_line = record("b", "B").line() + "\n"
    for name, text in (("base", good), ("ours", good + "oops\n"), ("theirs", good + theirs_line)):
        (tmp_path / name).write_text(text, "utf-8")
    code, said = merge_files(
        tmp_path / "base", tmp_path / "ours", tmp_path / "theirs", ".synapse/memories.jsonl"
    )
    assert code == 1 and "line 2" in said[1]
    # git's own conflict: both sides' lines kept between markers, never "ours" alone.
    merged = (tmp_path / "ours").read_text("utf-8")
    assert "<<<<<<< ours" in merged and "oops" in merged and theirs_line in merged


def test_secret_shapes_and_home_paths() -> None:
    assert secrets_in("AKIA" + "ABCDEFGHIJKLMNOP is the key") == ["an AWS access key id"]
    assert secrets_in("password = hunter2hunter2")
    assert secrets_in("-----BEGIN RSA PRIVATE KEY-----")
    assert secrets_in("postgres://app:s3cret@db:5432/app")
    assert not secrets_in("the password is read from $DB_PASSWORD at start")
    assert not secrets_in("password = ${DB_PASSWORD}")
    assert not secrets_in("Deploys go out on Tuesday; the token is rotated monthly.")
    assert home_paths_in("see /home/alice/notes.txt", {"HOME": "/home/alice"})
    assert not home_paths_in("see /home/alicia/notes.txt", {"HOME": "/home/alice"})
