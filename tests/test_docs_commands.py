"""Every documented command runs as written.

A fenced block tagged `sh` in README.md or docs/*.md is a list of commands a reader
types: each runs here, in order, as a new user would run it (an empty HOME, no
SYNAPSE_DATA, a fresh git repository cloned from a remote), and must succeed. A block
tagged `sh illustration` shows a command that cannot run as written (a placeholder, a
benchmark of minutes) and is not run; a `console` or `text` block is a transcript.
Install lines and pre-commit `rev:` values are checked against what exists, since
they cannot run here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support import GIT_ENV, git

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)(.*)$")
# Run elsewhere exactly as written: the first by tests/cli/test_demo.py, the second
# is the command .ci/run takes from the README and runs.
QUICK_START = "## Quick start"


def fenced(page: Path) -> list[tuple[int, str, str]]:
    """(line number, info string, body) of every fenced block of `page`."""
    blocks, info, start, body = [], None, 0, []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        mark = FENCE.match(line)
        if info is None and mark:
            info, start, body = (mark.group(1) + mark.group(2)).strip(), number, []
        elif info is not None and line.startswith("```"):
            blocks.append((start, info, "\n".join(body)))
            info = None
        elif info is not None:
            body.append(line)
    assert info is None, f"{page.name}: the block opened at line {start} is never closed"
    return blocks


def commands(body: str) -> list[str]:
    """The command lines of a block: continuation lines joined, blank lines skipped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    return [line.strip() for line in joined.splitlines() if line.strip()]


def quick_start_installs(text: str) -> list[str]:
    """The Quick start's two commands (install and demo, install and test)."""
    if QUICK_START not in text:
        return []
    quick = text.split(QUICK_START, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", quick, re.S)[:2]


def runnable(page: Path) -> list[tuple[int, str]]:
    installs = quick_start_installs(page.read_text(encoding="utf-8"))
    found = []
    for start, info, body in fenced(page):
        if info == "sh" and body not in installs:
            found.extend((start, command) for command in commands(body))
    return found


def test_every_block_says_what_it_is() -> None:
    """An untagged block could hide a command from this test."""
    for page in [*PAGES, ROOT / "CONTRIBUTING.md"]:
        for start, info, _ in fenced(page):
            assert info, f"{page.name}:{start}: tag the block (sh, sh illustration, console, …)"


def test_the_quick_start_is_run_elsewhere_as_written() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = quick_start_installs(readme)
    assert len(blocks) == 2 and all("pip install" in block for block in blocks)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "grep -m1 -E '^[^#].*pytest' README.md" in ci
    first_pytest = next(line for line in readme.splitlines() if re.match(r"^[^#].*pytest", line))
    assert first_pytest == blocks[1].strip()
    demo_test = (ROOT / "tests" / "cli" / "test_demo.py").read_text(encoding="utf-8")
    assert "def test_the_readme_first_command_leaves_no_trace" in demo_test


@pytest.fixture
def newcomer(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository cloned from a remote that has one commit, and the environment of a
    user who has just installed Synapse: nothing in HOME, no data folder chosen."""
    home, remote, work = tmp_path / "home", tmp_path / "remote.git", tmp_path / "seed"
    home.mkdir()
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    (work / "README.md").write_text("# app\n", encoding="utf-8")
    git(work, "add", "README.md")
    git(work, "commit", "-q", "-m", "first")
    git(work, "push", "-q", str(remote), "main")
    git(tmp_path, "clone", "-q", str(remote), str(tmp_path / "app"))
    env = {
        "PATH": f"{BIN}:/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(tmp_path),
        "LANG": "C.UTF-8",
        **GIT_ENV,
    }
    return tmp_path / "app", env


@pytest.mark.slow
@pytest.mark.parametrize("page", [page for page in PAGES if runnable(page)], ids=lambda p: p.name)
def test_the_commands_of_a_page_run_as_written(
    page: Path, newcomer: tuple[Path, dict[str, str]]
) -> None:
    repo, env = newcomer
    for start, command in runnable(page):
        done = subprocess.run(
            ["sh", "-c", command],
            cwd=repo,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        where = f"{page.name}:{start}: {command}"
        assert done.returncode == 0, f"{where}\n{done.stdout}{done.stderr}"
        assert "Traceback" not in done.stderr, f"{where}\n{done.stderr}"


def test_the_documented_local_pre_commit_config_blocks_and_refreshes(
    newcomer: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """docs/hooks.md's `repo: local` configuration, run by the real pre-commit."""
    repo, env = newcomer
    env = {**env, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    (config,) = [
        body
        for _, info, body in fenced(ROOT / "docs" / "hooks.md")
        if info == "yaml" and "repo: local" in body
    ]
    (repo / ".pre-commit-config.yaml").write_text(config + "\n", encoding="utf-8")
    (repo / "deploy.sh").write_text("echo deploy\n", encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args, cwd=repo, env=env, capture_output=True, text=True, check=False, timeout=120
        )

    assert run("git", "add", ".").returncode == 0
    assert run("git", "commit", "-q", "-m", "config").returncode == 0
    hooks = ("pre-commit", "pre-merge-commit", "post-checkout")
    installed = run("pre-commit", "install", *(f"--hook-type={hook}" for hook in hooks))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert run("synapse", "memory", "remember", "Deploys run deploy.sh").returncode == 0
    assert run("git", "rm", "-q", "deploy.sh").returncode == 0
    blocked = run("git", "commit", "-m", "drop the script")
    assert blocked.returncode != 0
    assert "deploy.sh is deleted" in blocked.stdout + blocked.stderr
    assert run("git", "reset", "-q", "--hard").returncode == 0
    switched = run("git", "checkout", "-b", "side")
    assert switched.returncode == 0
    assert "synapse: checked 1 memory" in switched.stdout + switched.stderr


def documented_texts() -> list[tuple[str, str]]:
    pages = [*PAGES, ROOT / "CONTRIBUTING.md"]
    texts = [(page.name, page.read_text(encoding="utf-8")) for page in pages]
    for path in sorted((ROOT / "synapse_git").rglob("*.py")):
        texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return texts


def test_every_documented_install_line_can_work() -> None:
    """Synapse is installed from a clone: `pip install [-e] .` or `.[EXTRAS]` with extras
    the project declares. A distribution name would need a package index to have it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    seen = 0
    for name, text in documented_texts():
        for spec in re.findall(r"pip install (?:-q |-e |--upgrade )*(\S+)", text):
            seen += 1
            target = spec.rstrip("`'\"):;,").strip("'\"`")
            wanted = re.fullmatch(r"\.(?:\[([\w,]+)\])?", target)
            assert wanted, f"{name}: `pip install {spec}` names no installable target here"
            unknown = set((wanted.group(1) or "").split(",")) - extras - {""}
            assert not unknown, f"{name}: `pip install {spec}`: no extra {sorted(unknown)}"
    assert seen


def test_every_documented_pre_commit_rev_exists() -> None:
    for page in PAGES:
        for start, info, body in fenced(page):
            if not info.startswith("yaml"):
                continue
            for rev in re.findall(r"^\s*rev:\s*(.+?)\s*$", body, re.M):
                if rev.startswith("<") and rev.endswith(">"):
                    continue  # a placeholder the text explains
                found = git(ROOT, "rev-parse", "-q", "--verify", f"{rev}^{{commit}}", check=False)
                assert found.strip(), f"{page.name}:{start}: rev {rev} is not in this repository"


def test_documented_status_shows_the_schema_this_synapse_writes() -> None:
    from synapse_git.store.schema import SCHEMA_VERSION

    shown = [
        (page.name, int(number))
        for page in PAGES
        for number in re.findall(r"this Synapse writes (\d+)", page.read_text(encoding="utf-8"))
    ]
    assert shown
    assert all(number == SCHEMA_VERSION for _, number in shown), shown
