"""Start-up: each hot command imports only what it uses (an import budget per command,
never a timing), and building only the command that runs changes nothing a user sees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import make_repo, run_cli

from synapse_git.cli import app as app_module
from synapse_git.semantic import probe
from synapse_git.service import Synapse

HEAVY = ("typer", "click", "pygit2", "pydantic", "pydantic_core", "mcp", "mcp_types")
# Never on a reading command's path: set-up, hooks, team memory, evaluation, the server.
NOT_FOR_READING = (
    "synapse_git.clients",
    "synapse_git.git.hook_scripts",
    "synapse_git.team.sync",
    "synapse_git.team.git_side",
    "synapse_git.recall.evaluation",
    "synapse_git.service.demo",
    "synapse_git.mcp",
    "synapse_git.ui",
)
# Nor what only other commands use: hashlib (it loads OpenSSL's digests), subprocess
# (git runs only for a memory of this project naming a path), what loading the model
# needs (its checksum's stamp, its cache, and the cache's shutil and tempfile, which
# import the compression modules), and the modules and result types of showing,
# importing, backing up, purging and drift history.
NOT_ON_START = (
    "hashlib",
    "subprocess",
    "shutil",
    "tempfile",
    "synapse_git.semantic.model_stamp",
    "synapse_git.semantic.model_cache",
    "synapse_git.service.memory_show",
    "synapse_git.store.integrity",
    "synapse_git.store.transfer",
    "synapse_git.store.batches",
    "synapse_git.store.purging",
    "synapse_git.session.drift_log",
)


def _imported(args: list[str], cwd: Path, out: Path) -> set[str]:
    """The modules a real process holds after the console script's `main(args)`."""
    code = (
        "import sys, json; from synapse_git.cli.entry import main; code = main(sys.argv[2:]);"
        " open(sys.argv[1], 'w').write(json.dumps(sorted(sys.modules))); sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(out), *args], cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text(encoding="utf-8")))


def _ours(modules: set[str], prefix: str) -> set[str]:
    return {m for m in modules if m == prefix or m.startswith(prefix + ".")}


@pytest.fixture
def seeded(repo: Path) -> tuple[Path, int]:
    svc = Synapse()
    scope = svc.scope(repo)
    first = svc.remember("The deploy script lives in scripts/deploy.sh.", scope).id
    svc.remember("Integration tests need make db-up first; they use port 5433.", scope)
    svc.remember("Global note: the editor is vim.", scope, is_global=True)
    return repo, first


def test_version_imports_nothing_but_the_package(tmp_path: Path) -> None:
    loaded = _imported(["--version"], tmp_path, tmp_path / "m.json")
    assert _ours(loaded, "synapse_git") == {
        "synapse_git",
        "synapse_git.cli",
        "synapse_git.cli.entry",
    }
    assert not {m for m in HEAVY if m in loaded}
    assert "sqlite3" not in loaded


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "read", "{id}"],
        ["memory", "read", "{id}", "--json", "--offset=3"],
        ["memory", "list", "-C", "{other}"],
        ["memory", "list", "port", "--limit", "1", "-C", "{other}"],
        # A hit naming a path (scripts/deploy.sh) is checked against the checkout with
        # pygit2; these name none.
        ["memory", "recall", "port for integration tests"],
        ["memory", "recall", "editor", "--also", "vim", "--json", "--explain"],
    ],
)
def test_reading_commands_load_no_typer_nor_git_library_nor_other_commands(
    seeded: tuple[Path, int], tmp_path: Path, args: list[str]
) -> None:
    repo, first = seeded
    other = make_repo(tmp_path / "other")
    argv = [a.format(id=first, other=other) for a in args]
    loaded = _imported(argv, repo, tmp_path / "m.json")
    # Their fast path (cli/quick.py) parses the options: no typer, click or pydantic.
    assert not {m for m in HEAVY if m in loaded}
    assert not {m for m in loaded if m.startswith(("typer.", "click.", "pydantic."))}
    assert not {m for prefix in NOT_FOR_READING for m in _ours(loaded, prefix)}
    assert not {m for m in NOT_ON_START if m in loaded}
    if args[1] != "list":
        # Reading and recalling make none of the service's result types.
        assert "synapse_git.service.results" not in loaded
    cli = {m.removeprefix("synapse_git.cli.") for m in _ours(loaded, "synapse_git.cli")}
    assert cli - {"synapse_git.cli"} == {"entry", "quick", "reading", "output", "colour"}
    if args[1] == "list":
        # None of the listed memories is of this project: no branch can be told of.
        assert not _ours(loaded, "synapse_git.drift.findings")
    if args[1] == "read" or args[2] == "-C":
        # Reading a page and listing the newest rank nothing.
        assert not _ours(loaded, "synapse_git.recall")
    assert not _ours(loaded, "synapse_git.session.snapshots")
    # Semantic recall is off here (tests/conftest.py): the engine is not asked.
    assert not _ours(loaded, "synapse_git.semantic.engine")


def test_listing_a_project_with_memories_of_its_own_loads_no_git_library(
    tmp_path: Path,
) -> None:
    # A listing compares the project's first commit with the one stored (a new
    # repository at the same path): found once with pygit2, then kept for the HEAD it
    # was found at. Its memories name no path: no other branch can hold them.
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    svc.remember("Integration tests need make db-up first; they use port 5433.", svc.scope(repo))
    _imported(["memory", "list"], repo, tmp_path / "first.json")
    loaded = _imported(["memory", "list"], repo, tmp_path / "m.json")
    assert not {m for m in HEAVY if m in loaded}
    assert not {m for m in NOT_ON_START if m in loaded}
    assert not _ours(loaded, "synapse_git.drift.findings")
    done = run_cli("memory", "list", cwd=repo)
    assert "Integration tests need make db-up first" in done.stdout


def test_a_recall_in_a_store_without_vectors_loads_no_semantic_engine(
    seeded: tuple[Path, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = seeded
    # Semantic recall wanted: with the extra installed recall says that no memory has
    # a vector yet, without it nothing; either way the store's lack of vectors is
    # enough to rank lexically.
    monkeypatch.delenv("SYNAPSE_SEMANTIC")
    done = run_cli("memory", "recall", "port for integration tests", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "Integration tests need make db-up first" in done.stdout
    assert done.stderr in ("", "note: semantic recall off: " + probe.NO_VECTORS + "\n")
    loaded = _imported(
        ["memory", "recall", "port for integration tests"], repo, tmp_path / "m.json"
    )
    assert not _ours(loaded, "synapse_git.semantic.engine")
    assert not {m for m in ("numpy", "onnxruntime") if m in loaded}


def test_session_start_loads_no_cli_nor_git_library(
    seeded: tuple[Path, int], tmp_path: Path
) -> None:
    repo, _ = seeded
    # The first start writes the snapshot (through the service, and pygit2 for HEAD and
    # the paths memories name); a start whose snapshot is current reads it alone.
    _imported(["hook", "session"], repo, tmp_path / "first.json")
    loaded = _imported(["hook", "session"], repo, tmp_path / "m.json")
    assert not {m for m in HEAVY if m in loaded}
    assert _ours(loaded, "synapse_git.cli") == {"synapse_git.cli", "synapse_git.cli.entry"}
    assert not {m for prefix in NOT_FOR_READING for m in _ours(loaded, prefix)}
    # The light part of the service only: `Synapse` is not built for a current snapshot.
    assert _ours(loaded, "synapse_git.service") == {
        "synapse_git.service",
        "synapse_git.service.session_start",
    }


# Each is run through the tree built for it and through the whole tree; what the user
# sees (standard output, standard error, exit code) must be the same.
SAME = [
    ["--version"],
    ["--version", "memory", "read", "1"],
    ["memory", "read", "{id}"],
    ["memory", "read", "{id}", "--json"],
    ["memory", "read", "{id}", "--offset", "5"],
    ["memory", "read", "{id}", "--offset=-5"],
    ["memory", "read", "99999"],
    ["memory", "read", "abc"],
    ["memory", "read"],
    ["memory", "read", "{id}", "--bogus"],
    ["memory", "read", "--help"],
    ["memory", "read", "-h"],
    ["memory", "recall", "deploy"],
    ["memory", "recall", "deploy", "--json", "--explain"],
    ["memory", "recall", "tests port", "--also", "integration", "-n", "1"],
    ["memory", "recall", "--limit", "x", "q"],
    ["memory", "recall", "q", "--budget", "huge"],
    ["memory", "recall", "--help"],
    ["memory", "list"],
    ["memory", "list", "deploy", "--json"],
    ["memory", "list", "--limit", "0"],
    ["memory", "list", "-n"],
    ["memory", "list", "--since", "someday"],
    ["memory", "list", "--scope", "project", "-C", "{repo}"],
    ["memory"],
    ["memory", "reed"],
    ["memory", "--help"],
    ["nonsense"],
    [],
    ["hook", "session", "--help"],
    ["hook", "install", "--bogus"],
    ["project", "show", "--bogus"],
    ["status", "--bogus"],
]


@pytest.mark.parametrize("args", SAME, ids=lambda args: " ".join(args) or "(none)")
def test_the_tree_built_for_a_command_answers_as_the_whole_tree(
    seeded: tuple[Path, int],
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    repo, first = seeded
    monkeypatch.chdir(repo)
    argv = [a.format(id=first, repo=repo) for a in args]
    whole = app_module.build

    answers = []
    for build in (whole, lambda argv=None: whole(None)):
        monkeypatch.setattr(app_module, "build", build)
        code = app_module.main(list(argv))
        out, err = capfd.readouterr()
        answers.append((code, out, err))
    assert answers[0] == answers[1]
    assert answers[0][1] or answers[0][2]


def test_the_fast_version_is_what_the_full_cli_prints(capfd: pytest.CaptureFixture[str]) -> None:
    done = run_cli("--version")
    assert app_module.main(["--version"]) == 0
    out, err = capfd.readouterr()
    assert (done.returncode, done.stdout, done.stderr) == (0, out, err)
    assert out.startswith("synapse ")
    full = open("/dev/full", "w")  # noqa: SIM115  (closed below, after its failed flush)
    try:
        failed = subprocess.run(
            [str(Path(sys.executable).with_name("synapse")), "--version"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        full.close()
    assert failed.returncode == 2
    assert failed.stderr == "synapse: cannot write the output: No space left on device\n"


def test_a_partly_built_tree_leaves_the_command_modules_as_they_were() -> None:
    from synapse_git.cli import memory

    before = list(memory.app.registered_commands)
    app_module.build(["memory", "recall", "x"])
    app_module.build(None)
    assert memory.app.registered_commands == before
    names = [
        info.name
        for info in app_module.build(None).registered_groups[0].typer_instance.registered_commands
    ]
    assert names[-len(app_module.JOINING["memory"]) :] == list(app_module.JOINING["memory"])
