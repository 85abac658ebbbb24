"""How long a question recall takes (docs/recall.md, "How long a question may be"):
16 KiB of a question and of each rewording. Past it the MCP tool and the command
answer one line and search nothing; the prompt hook searches the prompt's start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_harness import mcp_session
from support import make_repo, run_cli

from synapse_git.recall.query_terms import MAX_QUERY_BYTES
from synapse_git.service import Synapse

pytestmark = pytest.mark.filterwarnings("ignore:The roots capability is deprecated")

FACT = "Deploys go out with scripts/ship.sh, never on Fridays."


def sized(size: int) -> str:
    """A question of `size` bytes: its words first, then filler."""
    text = "how do deploys go out? " + "filler " * (size // 7)
    return text[:size]


@pytest.fixture
def repo(tmp_path: Path, isolated_store: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    svc.remember(FACT, svc.scope(repo))
    return repo


def test_the_command_takes_a_question_up_to_the_bound_and_refuses_one_past_it(repo: Path) -> None:
    done = run_cli("memory", "recall", sized(MAX_QUERY_BYTES), "--json", cwd=repo, process=True)
    assert done.returncode == 0, done.stderr
    assert [hit["body"] for hit in json.loads(done.stdout)["hits"]] == [FACT]
    for args in (
        [sized(MAX_QUERY_BYTES + 1)],
        ["how do deploys go out", "--also", sized(MAX_QUERY_BYTES + 1)],
    ):
        done = run_cli("memory", "recall", *args, "--json", cwd=repo, process=True)
        assert done.returncode == 2 and done.stdout == ""
        what = "query" if len(args) == 1 else "rewording"
        assert done.stderr.splitlines() == [
            f"synapse: the {what} is {MAX_QUERY_BYTES + 1:,} bytes; recall takes at most"
            f" {MAX_QUERY_BYTES:,}: ask in fewer words"
        ]


def test_the_mcp_tool_refuses_a_question_past_the_bound_in_one_line(
    repo: Path, isolated_store: Path
) -> None:
    with mcp_session(isolated_store, cwd=repo) as session:
        found = session.ok("recall", {"query": sized(MAX_QUERY_BYTES)})
        assert [hit["body"] for hit in found["hits"]] == [FACT]
        for arguments in (
            {"query": "x" * (1024 * 1024)},
            {
                "query": "how do deploys go out",
                "alternatives": ["ship", sized(MAX_QUERY_BYTES + 1)],
            },
        ):
            message = session.error("recall", arguments)
            assert f"recall takes at most {MAX_QUERY_BYTES:,}" in message and "\n" not in message
        assert session.ok("recall", {"query": "deploys"})["hits"][0]["body"] == FACT


def test_the_prompt_hook_searches_the_start_of_a_long_prompt(repo: Path) -> None:
    def event(prompt: str) -> str:
        # A session each: a memory given once in a session is not given again.
        return json.dumps({"session_id": str(len(prompt)), "cwd": str(repo), "prompt": prompt})

    # Over the bound, with the question at its start: answered from the start.
    long = sized(4 * MAX_QUERY_BYTES)
    done = run_cli("hook", "prompt", "--format", "text", stdin=event(long), process=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "scripts/ship.sh" in done.stdout
    # Words past the bound are not searched: the same question after 16 KiB of words
    # that name no topic, which alone would be all there is to search.
    late = "the " * (MAX_QUERY_BYTES // 4) + "how do deploys go out with ship.sh?"
    done = run_cli("hook", "prompt", "--format", "text", stdin=event(late), process=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout == ""
