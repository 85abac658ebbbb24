"""`synapse mcp` end to end: the SDK's real client over stdio against the installed command.

One server process serves the whole module (it starts in ~1.5 s); tests that need
other roots or another configuration start their own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from mcp_harness import SYNAPSE, Session, in_env, mcp_session
from support import make_repo, run_cli

from synapse_git.session.guidance import READING_HINT as HINT
from synapse_git.session.guidance import instructions
from synapse_git.settings import Config


class World(dict[str, Path]):
    """The store's folder, the repository and a plain folder, by name; and the mode."""

    def __init__(self, *, mode: str, **folders: Path) -> None:
        super().__init__(folders)
        self.mode = mode


SNAPSHOT = Path(__file__).parent / "snapshots" / "mcp_tools.json"
UPDATE = "SYNAPSE_UPDATE_SNAPSHOT"

LONG_BODY = "".join(
    f"{n:04d}\tnaïve café — 日本語のテキスト 🧠 x = {{'k': [1, 2]}}\x00\n" for n in range(400)
)


@pytest.fixture(scope="module", params=["auto", "legacy"])
def world(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> World:
    """A store and a repository per protocol era: `auto` opens with server/discover
    (served by the SDK), `legacy` with initialize (the standard-library stdio server)."""
    base = tmp_path_factory.mktemp("mcp")
    data = base / "data"
    data.mkdir()
    return World(data=data, repo=make_repo(base / "repo"), plain=base, mode=request.param)


@pytest.fixture(scope="module")
def session(world: World) -> Iterator[Session]:
    """No roots offered: the server serves --project."""
    args = ["--project", str(world["repo"])]
    with mcp_session(world["data"], cwd=world["plain"], args=args, mode=world.mode) as s:
        yield s


def snapshot_of(session: Session) -> list[dict[str, object]]:
    return [{"name": tool.name, "inputSchema": tool.input_schema} for tool in session.list_tools()]


def test_tool_list_matches_the_released_snapshot(session: Session) -> None:
    current = snapshot_of(session)
    if os.environ.get(UPDATE) == "1":
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(json.dumps(current, indent=2, ensure_ascii=False) + "\n", "utf-8")
    released = json.loads(SNAPSHOT.read_text("utf-8"))
    assert current == released, (
        "the MCP tools or their input schemas changed. Clients and models rely on them: if the "
        f"change is deliberate, rerun with {UPDATE}=1 and commit {SNAPSHOT.name} with it"
    )


def test_read_only_tools_say_so(session: Session) -> None:
    hints = {tool.name: tool.annotations for tool in session.list_tools()}
    assert set(hints) == {"recall", "readmemory", "remember", "supersede", "forget"}
    for name in ("recall", "readmemory"):
        assert hints[name].read_only_hint is True
    for name in ("remember", "supersede", "forget"):
        assert hints[name].read_only_hint is False
    assert hints["forget"].destructive_hint is True


def test_every_tool_documents_itself_with_an_example(session: Session) -> None:
    for tool in session.list_tools():
        assert tool.description and "Example" in tool.description, tool.name


def test_default_instructions_carry_the_reading_hint(session: Session) -> None:
    text = session.instructions or ""
    assert "recall" in text
    assert "readmemory" in text and "offset 0" in text and "until next is null" in text


def test_remember_recall_then_readmemory_pages_reassemble_a_long_multibyte_body(
    session: Session, world: dict[str, Path]
) -> None:
    made = session.ok("remember", {"body": LONG_BODY, "source": "notes/unicode.md"})
    assert made["project"] == str(world["repo"].resolve()) and made["duplicate_of"] is None
    found = session.ok("recall", {"query": "naïve café 日本語のテキスト", "budget": "lean"})
    assert set(found) == {"query", "project", "budget", "hits", "drift", "searched", "cut"}
    assert found["project"] == made["project"] and found["budget"] == "lean"
    hit = next(hit for hit in found["hits"] if hit["id"] == made["id"])
    total = len(LONG_BODY.encode("utf-8"))
    assert hit["abridged"] is True and hit["bytes"] == total
    assert len(json.dumps(found, ensure_ascii=False)) <= 4000
    pages = 0
    pieces: list[bytes] = []
    offset: int | None = 0
    while offset is not None:
        page = session.ok(
            "readmemory",
            {"id": hit["id"], "project": hit["project"], "offset": offset, "budget": "lean"},
        )["memory"]
        assert page["offset"] == offset and page["total"] == total
        assert len(page["body"].encode("utf-8")) <= 2800
        pieces.append(page["body"].encode("utf-8"))
        offset = page["next"]
        pages += 1
    assert pages > 5
    assert b"".join(pieces).decode("utf-8") == LONG_BODY


def test_an_empty_query_recalls_the_newest_memories(session: Session) -> None:
    made = session.ok("remember", {"body": "The newest memory of all, for now."})
    found = session.ok("recall", {})
    assert found["hits"][0]["id"] == made["id"]


def test_recall_accounts_for_what_it_cut(session: Session) -> None:
    for n in range(4):
        session.ok("remember", {"body": f"Flaky test number {n} is quarantined in CI."})
    found = session.ok("recall", {"query": "flaky quarantined", "limit": 2})
    assert len(found["hits"]) == 2 and found["cut"]["limit"] >= 2
    assert found["searched"] >= 4


def test_recall_fuses_the_alternatives_a_caller_passes(session: Session) -> None:
    made = session.ok("remember", {"body": "Access tokens expire after 15 minutes (OAuth2)."})
    # ("how long" alone would find it: it asks for a duration, recall/vocabulary.py)
    question = {"query": "when must a login be renewed", "budget": "lean"}
    alone = session.ok("recall", question)
    assert made["id"] not in [hit["id"] for hit in alone["hits"]]
    reworded = session.ok(
        "recall", {**question, "alternatives": ["access token expiry", "OAuth2 token lifetime"]}
    )
    assert reworded["hits"][0]["id"] == made["id"]
    assert "weak" not in reworded["hits"][0] and reworded["cut"]["weak"] >= 0
    too_many = session.error("recall", {**question, "alternatives": ["a", "b", "c", "d", "e"]})
    assert "4" in too_many


def test_remember_twice_returns_the_first_memory(session: Session) -> None:
    first = session.ok("remember", {"body": "The linter is ruff, line length 100."})
    again = session.ok("remember", {"body": "the linter is ruff,   line length 100."})
    assert again["id"] == first["id"] and again["duplicate_of"] == first["id"]


def test_global_memory_has_no_project(session: Session) -> None:
    made = session.ok("remember", {"body": "The user prefers tabs in Go.", "scope": "global"})
    assert made["project"] is None
    page = session.ok("readmemory", {"id": made["id"], "project": None})["memory"]
    assert page["body"] == "The user prefers tabs in Go." and page["next"] is None


def test_readmemory_of_a_missing_id_is_null(session: Session) -> None:
    assert session.ok("readmemory", {"id": 99999, "project": None}) == {"memory": None}


def test_supersede_with_a_body_hides_the_old_memory(session: Session) -> None:
    old = session.ok("remember", {"body": "Deploys go out from main."})
    new = session.ok("supersede", {"id": old["id"], "body": "Deploys go out from release."})
    assert new["supersedes"] == old["id"] and new["project"] == old["project"]
    assert session.ok("readmemory", {"id": old["id"], "project": old["project"]}) == {
        "memory": None
    }
    page = session.ok("readmemory", {"id": new["id"], "project": new["project"]})["memory"]
    assert page["body"] == "Deploys go out from release."


def test_supersede_by_an_existing_memory(session: Session) -> None:
    old = session.ok("remember", {"body": "CI runs on Jenkins."})
    new = session.ok("remember", {"body": "CI runs on GitHub Actions."})
    done = session.ok("supersede", {"id": old["id"], "by": new["id"]})
    assert done["id"] == new["id"] and done["supersedes"] == old["id"]
    assert session.ok("readmemory", {"id": old["id"], "project": old["project"]})["memory"] is None


def test_whole_numbers_sent_as_their_digits_are_taken(session: Session) -> None:
    """A client that sends every typed-in value as a string (a form-based inspector) can
    still pass ids and limits; any other string stays refused."""
    old = session.ok("remember", {"body": "Nightly builds run on the ARM runner."})
    new = session.ok("remember", {"body": "Nightly builds run on the x86 runner."})
    page = session.ok("readmemory", {"id": str(new["id"]), "project": new["project"]})
    assert page["memory"]["body"] == "Nightly builds run on the x86 runner."
    found = session.ok("recall", {"query": "nightly builds runner", "limit": "1"})
    assert len(found["hits"]) == 1
    done = session.ok("supersede", {"id": str(old["id"]), "by": str(new["id"])})
    assert done["supersedes"] == old["id"]
    for sent in ("01", " 1", "1.0", "1e3", "+1", "0x1"):
        message = session.error("recall", {"query": "nightly", "limit": sent})
        assert "must be a whole number, sent as a JSON number" in message, message


def test_remember_reports_a_contradiction_that_supersede_resolves(session: Session) -> None:
    old = session.ok("remember", {"body": "The payments API timeout is 30 s."})
    new = session.ok("remember", {"body": "The payments API timeout is 60 s."})
    conflicts = [f for f in new["drift"] if f["kind"] == "conflict"]
    assert conflicts and {old["id"], new["id"]} <= set(conflicts[0]["ids"])
    done = session.ok("supersede", {"id": old["id"], "by": new["id"]})
    assert done["supersedes"] == old["id"]
    found = session.ok("recall", {"query": "payments API timeout"})
    assert [hit["id"] for hit in found["hits"]] == [new["id"]]
    assert not [f for f in found["drift"] if old["id"] in f.get("ids", [])]


def test_forget_hides_a_memory_and_then_it_is_unknown(session: Session) -> None:
    made = session.ok("remember", {"body": "Temporary note to forget."})
    assert session.ok("forget", {"id": made["id"]})["state"] == "forgotten"
    assert session.ok("readmemory", {"id": made["id"], "project": made["project"]}) == {
        "memory": None
    }
    assert "no memory" in session.error("forget", {"id": made["id"]})


# -- bad arguments: a clear tool error, nothing written, and the server keeps serving --------


def count_memories(world: dict[str, Path]) -> tuple[int, int]:
    """Rows and history entries, read straight from the store file. The server makes
    its store on the first call that needs one: with no file yet, nothing is written
    (a test may be the first of its module a worker runs, on a fresh world)."""
    path = world["data"] / "memory.db"
    if not path.exists():
        return 0, 0
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        changes = conn.execute("SELECT count(*) FROM history").fetchone()[0]
    return rows, changes


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("readmemory", {"id": "twelve", "project": None}, "id must be a whole number"),
        ("readmemory", {"id": 1.5, "project": None}, "id must be a whole number"),
        ("forget", {"id": "1; DROP TABLE memories"}, "id must be a whole number"),
        (
            "readmemory",
            {"id": 1, "project": None, "offset": -1},
            "offset: Input should be greater than or equal to 0",
        ),
        ("readmemory", {"id": 1}, "project is missing"),
        ("readmemory", {"id": 1, "project": None, "budget": "huge"}, "budget: Input should be"),
        ("remember", {"body": "x" * (1024 * 1024 + 1)}, "the limit is 1048576 bytes"),
        ("remember", {"body": "  \n\t "}, "body is empty"),
        ("remember", {"body": "fine", "scope": "team"}, "scope: Input should be"),
        ("supersede", {"id": 1}, "give either body"),
        ("recall", {"query": "x", "budget": "everything"}, "budget: Input should be"),
        ("recall", {"query": "x", "limit": 0}, "limit: Input should be greater than or equal to 1"),
        ("recall", {"query": ["not", "text"]}, "query: Input should be a valid string"),
        ("supersede", {"id": 1, "body": "a", "by": 2}, "give either body"),
    ],
)
def test_bad_arguments_give_a_tool_error_and_the_server_keeps_serving(
    session: Session, world: dict[str, Path], tool: str, arguments: dict[str, object], expected: str
) -> None:
    before = count_memories(world)
    message = session.error(tool, arguments)
    assert expected in message and "\n" not in message
    assert count_memories(world) == before
    assert session.ok("readmemory", {"id": 99999, "project": None}) == {"memory": None}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--budget", "huge"], "unknown budget 'huge'"),
        (["--project", "/no/such"], "not a folder"),
        (["--bogus"], "No such option: --bogus"),
    ],
)
def test_bad_server_options_exit_2_with_one_line(args: list[str], expected: str) -> None:
    done = run_cli("mcp", *args, stdin="")
    assert done.returncode == 2 and expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_server_start_loads_neither_git_nor_the_store_nor_the_cli() -> None:
    # `synapse mcp` starts through cli/entry.py; what it imports before the first call
    # is the cold start every agent session pays.
    probe = (
        "import sys, synapse_git.cli.entry, synapse_git.mcp.server; "
        "print(sorted(m for m in ('pygit2', 'sqlite3', 'typer', 'synapse_git.service', "
        "'synapse_git.cli.app') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_help_and_the_equals_form_of_options_work(world: dict[str, Path]) -> None:
    done = run_cli("mcp", "--help")
    assert done.returncode == 0 and "--project" in done.stdout
    done = run_cli("mcp", f"--project={world['repo']}", "--budget=lean", stdin="")
    assert done.returncode == 0, done.stderr


def test_offset_inside_a_character_or_past_the_end_is_a_tool_error(session: Session) -> None:
    made = session.ok("remember", {"body": "é" * 10})
    project = made["project"]
    inside = session.error("readmemory", {"id": made["id"], "project": project, "offset": 1})
    assert "inside a UTF-8 character" in inside
    past = session.error("readmemory", {"id": made["id"], "project": project, "offset": 21})
    assert "past the end" in past
    end = session.ok("readmemory", {"id": made["id"], "project": project, "offset": 20})
    assert end["memory"]["body"] == "" and end["memory"]["next"] is None


def test_a_concurrent_cli_writer_never_locks_the_server_out(
    session: Session, world: dict[str, Path]
) -> None:
    def cli_writer(n: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SYNAPSE), "memory", "remember", f"CLI fact number {n}", "-C", str(world["repo"])],
            env=in_env(world["data"]),
            capture_output=True,
            text=True,
            check=False,
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        writers = [pool.submit(cli_writer, n) for n in range(3)]
        calls = 0
        # Keep writing and reading through the server for as long as the CLI writes.
        while calls < 10 or not all(writer.done() for writer in writers):
            made = session.ok("remember", {"body": f"MCP fact number {calls}"})
            assert session.ok("readmemory", {"id": made["id"], "project": made["project"]})
            calls += 1
        for writer in writers:
            done = writer.result()
            assert done.returncode == 0, done.stderr


# -- instructions -----------------------------------------------------------------------------


def instructions_with(config: str, tmp_path: Path, data: Path) -> str | None:
    (data / "config.toml").write_text(config, "utf-8")
    with mcp_session(data, cwd=tmp_path) as s:
        return s.instructions


def test_configured_instructions_are_kept_and_the_hint_appended(
    tmp_path: Path, isolated_store: Path
) -> None:
    own = "Only remember facts about the payment service.\nAsk before you forget anything."
    text = instructions_with(f"instructions = '''{own}'''\n", tmp_path, isolated_store)
    assert text == own + "\n\n" + HINT


def test_configured_instructions_that_hold_the_hint_are_used_as_written(
    isolated_store: Path,
) -> None:
    own = "Recall before coding.\n" + HINT.replace(", starting", ",\n  starting").upper()
    assert instructions(Config(isolated_store, instructions=own)) == own
