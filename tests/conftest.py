"""Shared fixtures: a temporary store for every test, and real git repositories."""

from __future__ import annotations

import compileall
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support import (
    GIT_ENV,
    checkout_copy,
    git,
    make_repo,
    old_store,
    run_cli,
    run_cli_process,
    run_git,
)

import synapse_git
from synapse_git import settings
from synapse_git.store import database

# Before any test module is collected: the semantic tests import onnxruntime at
# collection (`importorskip`), before the fixtures below point HOME elsewhere, and
# onnxruntime's telemetry would write in the user's home (docs/semantic.md). Synapse
# sets it before its own import (semantic/model.onnxruntime_module); this is the tests'.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

# Re-exported, so that a test written as `from conftest import …` still runs; new
# tests import from `support`.
__all__ = [
    "GIT_ENV",
    "checkout_copy",
    "git",
    "make_repo",
    "old_store",
    "run_cli",
    "run_cli_process",
    "run_git",
]

_REAL_DATA = settings.data_dir().resolve()
_REAL_DB = _REAL_DATA / "memory.db"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Byte-code for the package's modules, written once by the controlling process.
    Where `PYTHONDONTWRITEBYTECODE` is set, an editable install never gets any, and
    every `synapse` process a test starts compiled its modules again (about 80 ms
    a process; the suite starts over a thousand)."""
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller has done it
    package = Path(synapse_git.__file__).parent
    compileall.compile_dir(package, quiet=2, workers=0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules holding a slow test first, each kept whole and in its order: with
    `--dist worksteal` the long tests start at once, and the idle worker takes the
    short ones from the end of the other's queue, so no long test is left for last."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


def _stamp(path: Path) -> tuple[bool, float]:
    return (path.exists(), path.stat().st_mtime if path.exists() else 0.0)


@pytest.fixture(scope="session")
def shared_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Caches the tests' tools fill (pre-commit's hook environments, virtualenv's seed
    wheels, pip's downloads): one temporary folder for the whole run, never the
    user's, and filled once rather than once per test."""
    return tmp_path_factory.mktemp("caches")


@pytest.fixture(autouse=True)
def isolated_store(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    shared_caches: Path,
) -> Iterator[Path]:
    """Point SYNAPSE_DATA at a fresh folder, and HOME and every cache at temporary
    ones; fail any test that opens the real store."""
    before = _stamp(_REAL_DB)
    data = tmp_path_factory.mktemp("synapse-data")
    monkeypatch.setenv("SYNAPSE_DATA", str(data))
    # A second line of defence: a command run with SYNAPSE_DATA emptied still lands in a
    # temporary folder, never in the user's.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))
    # Nothing a test runs writes in the user's home: not Synapse, not git, not the
    # tools the pre-commit tests start (tests/test_no_trace.py).
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared_caches / "xdg"))
    monkeypatch.setenv("PRE_COMMIT_HOME", str(shared_caches / "pre-commit"))
    monkeypatch.setenv("VIRTUALENV_OVERRIDE_APP_DATA", str(shared_caches / "virtualenv"))
    monkeypatch.setenv("PIP_CACHE_DIR", str(shared_caches / "pip"))
    # The installs tests make (pre-commit's hook environments, the demo's wheel) leave
    # each module to be compiled when it is first imported, not all of them at install.
    monkeypatch.setenv("PIP_COMPILE", "0")
    # Recall stays lexical where the semantic extra is installed; tests/semantic turns it on.
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    real_connect = database.connect

    def guarded(path: Path, **kwargs: object) -> object:
        if Path(path).resolve().is_relative_to(_REAL_DATA):
            pytest.fail(f"a test opened the user's real store at {path}")
        return real_connect(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(database, "connect", guarded)
    real_long_write = database.long_write

    def guarded_long_write(path: Path) -> object:
        # The long-write lock sits beside the store and is taken before it is opened.
        if Path(path).resolve().is_relative_to(_REAL_DATA):
            pytest.fail(f"a test opened the user's real store at {path}")
        return real_long_write(path)

    monkeypatch.setattr(database, "long_write", guarded_long_write)
    yield data
    assert _stamp(_REAL_DB) == before, "a test touched the user's real store"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


@pytest.fixture
def repo_factory(tmp_path: Path) -> Callable[..., Path]:
    def build(name: str, files: dict[str, str] | None = None, commit: bool = True) -> Path:
        return make_repo(tmp_path / name, files, commit=commit)

    return build


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside any git repository."""
    folder = tmp_path / "plain"
    folder.mkdir()
    return folder
