"""Every CLI command and every MCP tool, fuzzed with hostile input at the edges:
each call gets an answer (exit 0, 1 or 2), a failure is one line, and a refused
call leaves the store byte for byte as it was."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_harness import Session, mcp_session
from support import make_repo

from synapse_git.cli.entry import main
from synapse_git.service import Synapse

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Control characters, escape sequences, bidi overrides, zero-width characters and
# a lone surrogate among ordinary text.
hostile_char = st.one_of(
    st.sampled_from(
        ["\x1b", "\x9b", "\x00", "\r", "\u202e", "\u200b", "\ufeff", "\x7f", "é", "🚀"]
    ),
    st.characters(codec="utf-8"),
)
hostile_text = st.one_of(
    st.text(hostile_char, max_size=40),
    st.sampled_from(["\x1b]52;c;eA==\x07", "\x1b[2J", "\ud800", "..", "~nobody", "1e9999"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text("9", min_size=300, max_size=400),
).filter(lambda text: text != "-" and not text.startswith("-"))
number_text = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from([" 1", "1.0", "true", "0x10", "1_000", "\u0661"]),
)

# Each command with the places hostile values go (T: text, N: a number as text).
COMMANDS = [
    ("memory", "remember", "T", "--source", "T"),
    ("memory", "remember", "T", "--global"),
    ("memory", "remember", "T", "--supersedes", "N"),
    ("memory", "edit", "N", "T"),
    ("memory", "supersede", "N", "T"),
    ("memory", "supersede", "N", "--by", "N"),
    ("memory", "forget", "N"),
    ("memory", "restore", "N"),
    ("memory", "history", "N"),
    ("memory", "read", "N", "--offset", "N"),
    ("memory", "read", "N", "--budget", "T", "--json"),
    ("memory", "list", "T", "--limit", "N"),
    ("memory", "recall", "T", "--limit", "N", "--json"),
    ("memory", "recall", "T", "--budget", "T", "--explain"),
    ("memory", "drift", "T"),
    ("memory", "drift", "--kind", "T"),
    ("memory", "check"),
    ("memory", "import", "T"),
    ("memory", "export", "T"),
    ("memory", "backup", "T"),
    ("memory", "eval", "T", "--baseline", "T"),
    ("project", "show", "T"),
    ("project", "move", "T", "T"),
    ("hook", "session", "--budget", "T"),
    ("hook", "session", "-C", "T", "--format", "T"),
    ("hook", "post-checkout", "T", "T", "N"),
    ("hook", "install", "--hooks", "T"),
]


def fingerprint(store: Path) -> str:
    return hashlib.sha256(store.read_bytes()).hexdigest() if store.exists() else "none"


@pytest.fixture
def world(tmp_path: Path, isolated_store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = make_repo(tmp_path / "repo", {"src/app.py": "print()\n"})
    svc = Synapse()
    svc.remember("The app starts from src/app.py on port 5433.", svc.scope(repo))
    svc.remember("The user reads diffs side by side.", svc.scope(repo), is_global=True)
    monkeypatch.chdir(repo)
    return repo


@FUZZ
@given(data=st.data())
def test_every_command_answers_hostile_input(
    world: Path, isolated_store: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    template = data.draw(st.sampled_from(COMMANDS))
    args = [
        data.draw(hostile_text) if part == "T" else data.draw(number_text) if part == "N" else part
        for part in template
    ]
    store = isolated_store / "memory.db"
    before = fingerprint(store)
    code = main(args)
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), (args, code, err)
    assert "Traceback" not in err
    if code == 2:
        said = [line for line in err.splitlines() if not line.startswith("note: ")]
        assert len(said) == 1, (args, err)
        assert fingerprint(store) == before, (args, err)


@pytest.fixture(scope="module", params=["auto", "legacy"])
def served(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[Session, Path]]:
    """One server per protocol era (the SDK's and the stdio server's) for the module; its
    store, made here, outlives the per-test one."""
    data = tmp_path_factory.mktemp("fuzz-mcp-data")
    repo = make_repo(tmp_path_factory.mktemp("fuzz-mcp") / "repo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SYNAPSE_DATA", str(data))
        svc = Synapse()
        svc.remember("The app listens on port 5433.", svc.scope(repo))
    with mcp_session(data, cwd=repo, mode=request.param) as session:
        yield session, data / "memory.db"


# The SDK's client cannot send a lone surrogate (tests/mcp/test_mcp_hostile.py does).
mcp_text = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from(
    ["\x1b]52;c;eA==\x07", "\u202e", "\u200b", "x" * 5000]
)
any_value: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    mcp_text,
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
TOOLS = {
    "recall": ("query", "budget", "limit"),
    "readmemory": ("id", "project", "offset", "budget"),
    "remember": ("body", "source", "scope", "supersedes"),
    "supersede": ("id", "body", "by", "source"),
    "forget": ("id",),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_tool_answers_hostile_arguments(
    served: tuple[Session, Path], data: st.DataObject
) -> None:
    session, store = served
    name = data.draw(st.sampled_from(sorted(TOOLS)))
    keys = data.draw(st.lists(st.sampled_from([*TOOLS[name], "bogus"]), unique=True, max_size=5))
    arguments = {key: data.draw(any_value) for key in keys}
    before = fingerprint(store)
    result = session.call(name, arguments)
    if result.is_error:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        assert text and "\n" not in text, (name, arguments, text)
        assert fingerprint(store) == before, (name, arguments, text)
    else:
        assert result.structured_content is not None
