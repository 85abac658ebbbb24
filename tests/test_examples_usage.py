"""Every script in examples/ answers `--help` with its usage and a bad argument with a
short error, before it builds a store, starts a server or runs a benchmark. The
scripts are found by name, so a new one is held to the same."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A script runs as `__main__`; a module that only serves the scripts (arguments.py) does not.
SCRIPTS = sorted(
    path
    for path in (ROOT / "examples").glob("*.py")
    if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)
# Values of the right shape that a script cannot run with, one a script.
OUT_OF_RANGE = {
    "branch_bench": ["--files", "0"],
    "ci_bench": ["5"],
    "drift_bench": ["1", "1", "0"],
    "drift_real": [".", "no-such-set"],
    "large_bodies_bench": ["--sizes", "64,x"],
    "path_classes": [".", "no-such-commit"],
    "semantic_bench": ["10", "0"],
    "semantic_profile": ["no-such-folder", "."],
    "stress": ["--writers", "0"],
    "ui_bench": ["100"],
}

Answer = tuple[Path, Path, subprocess.CompletedProcess[str]]


def _run(script: Path, args: list[str], folder: Path) -> Answer:
    """The script in a folder of its own, with a home, a data folder and a temporary
    folder that must stay as they were: empty, and the data folder not made at all."""
    for name in ("home", "tmp"):
        (folder / name).mkdir(parents=True)
    env = {
        **os.environ,
        "HOME": str(folder / "home"),
        "SYNAPSE_DATA": str(folder / "data"),
        "TMPDIR": str(folder / "tmp"),
    }
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return script, folder, done


def _run_all(calls: dict[Path, list[str]], work: Path) -> list[Answer]:
    """The scripts, a few at once: each is a Python start-up and little more."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda call: _run(*call, work / call[0].stem), calls.items()))


def _left(folder: Path) -> list[str]:
    left = [
        f"{name} holds {sorted(p.name for p in (folder / name).iterdir())}"
        for name in ("home", "tmp")
        if any((folder / name).iterdir())
    ]
    return left + (["a data folder was made"] if (folder / "data").exists() else [])


def _summary(script: Path) -> str:
    """The opening words of the script's docstring, which says what it measures."""
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split()[:6])


def _not_refused(answers: list[Answer]) -> dict[str, list[str]]:
    """What is wrong with each answer to a bad command line: it must be the usage line
    and one line of error on stderr, exit status 2, and nothing else."""
    wrong: dict[str, list[str]] = {}
    for script, folder, done in answers:
        problems = _left(folder)
        if done.returncode != 2 or "Traceback" in done.stderr:
            problems.append(f"exit {done.returncode}: {done.stderr[-1000:]}")
        if done.stdout:
            problems.append(f"printed {done.stdout[:300]!r}")
        if not done.stderr.startswith("usage:") or len(done.stderr.splitlines()) > 6:
            problems.append(f"no short usage error: {done.stderr[:1000]!r}")
        if problems:
            wrong[script.name] = problems
    return wrong


def test_every_script_is_found() -> None:
    found = {script.stem for script in SCRIPTS}
    assert {"startup_bench", "ci_bench", "semantic_profile", "retrieval"} <= found
    assert "arguments" not in found
    assert set(OUT_OF_RANGE) <= found


def test_help_prints_the_usage_and_does_nothing_else(tmp_path: Path) -> None:
    wrong: dict[str, list[str]] = {}
    for script, folder, done in _run_all({script: ["--help"] for script in SCRIPTS}, tmp_path):
        problems = _left(folder)
        if done.returncode != 0 or "Traceback" in done.stdout + done.stderr:
            problems.append(f"exit {done.returncode}: {done.stderr[-1000:]}")
        if not done.stdout.startswith(f"usage: {script.name}"):
            problems.append(f"no usage: {done.stdout[:300]!r}")
        if _summary(script) not in " ".join(done.stdout.split()):
            problems.append(f"no description: {_summary(script)!r}")
        if problems:
            wrong[script.name] = problems
    assert wrong == {}


def test_a_bad_argument_is_refused_in_a_line(tmp_path: Path) -> None:
    # `abc` is no count, set, split or repository any script takes, and one argument
    # too many for a script that takes none.
    assert _not_refused(_run_all({script: ["abc"] for script in SCRIPTS}, tmp_path)) == {}


def test_a_value_out_of_range_is_refused_in_a_line(tmp_path: Path) -> None:
    calls = {script: OUT_OF_RANGE[script.stem] for script in SCRIPTS if script.stem in OUT_OF_RANGE}
    assert _not_refused(_run_all(calls, tmp_path)) == {}


def test_the_drift_benchmark_runs_at_its_smallest_sizes(tmp_path: Path) -> None:
    # One file and one memory: the history it makes runs out of files to rename and
    # delete, and a file renamed once is not renamed to its own name again.
    _, folder, done = _run(ROOT / "examples" / "drift_bench.py", ["1", "1", "1"], tmp_path)
    assert done.returncode == 0, done.stderr[-1000:]
    assert '"drift_cpu_s"' in done.stdout and _left(folder) == []


def test_the_semantic_benchmark_refuses_every_count_below_one(tmp_path: Path) -> None:
    # A store of no memory, no call, no size or no CLI run measures nothing.
    script = ROOT / "examples" / "semantic_bench.py"
    given = [
        ["0"],
        ["10", "0"],
        ["--sizes", "1000", "0"],
        ["--cli", "0"],
        ["--rewordings", "-1"],
        ["500", "--sizes", "1000"],
        ["--sizes", "1000", "--calls", "0"],
        ["10", "20", "--calls", "30"],
    ]
    wrong = {}
    for n, args in enumerate(given):
        if problems := _not_refused([_run(script, args, tmp_path / str(n))]):
            wrong[" ".join(args)] = problems
    assert wrong == {}
