"""`synapse demo` and the README's first command: the example store is asked a question in a
temporary store, and nothing of it reaches the user's store or any other repository."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from support import GIT_ENV, checkout_copy, make_repo

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RUN_CLI = "import sys; from synapse_git.cli.entry import main; sys.exit(main())"


def first_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1]
    return re.findall(r"```sh\n(.*?)\n```", quick, re.S)[0].strip()


def shell(command: str, cwd: Path, home: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """`command` for a new user: a fresh HOME, no SYNAPSE_DATA or XDG_DATA_HOME."""
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(tmp), **GIT_ENV}
    return subprocess.run(
        ["sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_the_readme_first_command_leaves_no_trace(tmp_path: Path) -> None:
    command = first_command()
    setup, _, run = command.rpartition(" && ")
    assert setup == "python3 -m venv .venv && .venv/bin/pip install -q -e ."
    assert run.startswith(".venv/bin/synapse demo ")
    # The install is the test run's own; what the command then runs is run as written.
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    done = shell(run.replace(".venv/bin/", ""), ROOT, home, tmp)
    assert done.returncode == 0, done.stderr
    assert "Deploys go out from main with `make deploy`" in done.stdout
    assert "111 example memories" in done.stdout
    assert not (home / ".local" / "share" / "synapse").exists(), "the user's store was made"
    assert not list(tmp.iterdir()), "the temporary store was left behind"

    elsewhere = make_repo(tmp_path / "unrelated")
    recall = shell("synapse memory recall deploy --json", elsewhere, home, tmp)
    assert recall.returncode == 0, recall.stderr
    assert json.loads(recall.stdout)["hits"] == []
    session = shell("synapse hook session", elsewhere, home, tmp)
    assert "Deploys" not in session.stdout
    assert not (home / ".local" / "share" / "synapse").exists()


def test_demo_json_and_another_examples_file(tmp_path: Path) -> None:
    examples = tmp_path / "mine.jsonl"
    examples.write_text('{"body": "Lunch is at noon", "project": null}\n', encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    done = shell(f"synapse demo lunch --json --examples {examples}", tmp_path, home, tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["imported"] == 1 and answer["searched"] == 1
    assert [hit["body"] for hit in answer["hits"]] == ["Lunch is at noon"]


def test_demo_without_examples_says_where_to_look(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.jsonl"
    done = shell(f"synapse demo --examples {missing}", tmp_path, tmp_path, tmp_path)
    assert done.returncode == 2
    assert done.stderr == f"synapse: cannot read {missing}: No such file or directory\n"
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"body": "caf\xe9"}\n')
    done = shell(f"synapse demo --examples {latin}", tmp_path, tmp_path, tmp_path)
    assert done.returncode == 2
    assert done.stderr == f"synapse: cannot read {latin}: not UTF-8 (byte 13)\n"


# A real wheel build and install.
@pytest.mark.slow
def test_demo_runs_from_a_built_wheel_outside_a_clone(tmp_path: Path) -> None:
    """`pip install .` (not editable) must carry the example notes: built as pip builds it,
    unpacked, and run from a folder that is no clone."""
    wheels, source = tmp_path / "wheels", checkout_copy(tmp_path / "source")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "HOME": str(tmp_path / "pip-home")},
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("synapse_git-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", RUN_CLI, "demo"],
        cwd=elsewhere,
        env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home), "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "111 example memories" in done.stdout
    assert str(site) in done.stdout  # the packaged notes, not a clone's
