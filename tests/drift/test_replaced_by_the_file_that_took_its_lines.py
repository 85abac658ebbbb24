"""Files deleted with their lines carried into one file their commit added beside them,
too changed for git to pair (docs/drift.md, "Replaced, not renamed"): two workflows
merged into `ci.yml`, a stylesheet rewritten into `style.css` while the vendored one
beside it goes. Real histories written by `git fast-import`, checked through the real
path history index and the real `synapse` command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import run_cli
from test_path_history import History, checkout, commit_of

from synapse_git.drift import carried


def block(word: str, count: int) -> list[str]:
    """`count` lines of a file, each its own, none trivial."""
    return [f"  - run: bundle exec rake {word}_task_{n} --trace" for n in range(count)]


def text(*parts: list[str]) -> str:
    return "\n".join(line for part in parts for line in part)


REDIS = block("redis", 20)
DRAGONFLY = block("dragonfly", 20)
APP = [f".app-{n} {{ margin: {n}px auto; }}" for n in range(30)]
BOOTSTRAP = [f".btn-{n} {{ padding: {n}px; color: #{n:03x}; }}" for n in range(60)]
HELPERS = block("helpers", 20)
WORKER = block("worker", 20)
PAGE = [f"Set the flag --stamp-{n} to read a timestamp" for n in range(20)]
# Past LARGEST_COMPARED: never read, whatever it shares.
BIG = block("fixture", carried.LARGEST_COMPARED // 40)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """(repository, the commit the memories were written at)."""
    path = tmp_path_factory.mktemp("carried") / "repo"
    h = History()
    h.commit(
        "main",
        [
            f"M .github/workflows/redis.yml {text(['name: Redis'], REDIS)}",
            f"M .github/workflows/dragonfly.yml {text(['name: Dragonfly'], DRAGONFLY)}",
            f"M web/css/app.css {text(APP)}",
            f"M web/css/bootstrap.css {text(BOOTSTRAP)}",
            f"M lib/helpers.rb {text(HELPERS)}",
            f"M lib/worker.rb {text(WORKER)}",
            f"M docs/examples/timestamp-flag.md {text(PAGE)}",
            f"M bin/tool.dat \0ELF\n{text(block('tool', 30))}",
            f"M data/big/fixtures.json {text(BIG)}",
            f"M data/small/fixtures.json {text(block('fixture', 30))}",
        ],
    )
    anchor = h.commit("main", ["M README.md the project"])
    # Two workflows become one: each keeps 12 of its 20 steps there, too few of
    # ci.yml's lines for git to pair either with it.
    ci = text(["name: CI"], REDIS[:12], DRAGONFLY[:12], block("matrix", 10))
    h.commit(
        "main",
        [
            "D .github/workflows/redis.yml",
            "D .github/workflows/dragonfly.yml",
            f"M .github/workflows/ci.yml {ci}",
        ],
    )
    # The stylesheet is rewritten into style.css; Bootstrap goes with nothing of it kept.
    style = text(APP[:20], [f".page-{n} {{ gap: {n}em; }}" for n in range(60)])
    h.commit(
        "main",
        ["D web/css/app.css", "D web/css/bootstrap.css", f"M web/css/style.css {style}"],
    )
    # Two files each take most of the helpers: no one successor.
    h.commit(
        "main",
        [
            "D lib/helpers.rb",
            f"M lib/format.rb {text(HELPERS[:15], block('format', 40))}",
            f"M lib/render.rb {text(HELPERS[:15], block('render', 40))}",
        ],
    )
    # One of two added files takes most of the worker: that one.
    h.commit(
        "main",
        [
            "D lib/worker.rb",
            f"M lib/job.rb {text(WORKER[:15], block('job', 40))}",
            f"M lib/queue.rb {text(block('queue', 40))}",
        ],
    )
    # A page gathered into a page of a new folder: a new layout, not beside it.
    h.commit(
        "main",
        [
            "D docs/examples/timestamp-flag.md",
            f"M docs/examples/flags/basics.md {text(PAGE, block('basics', 60))}",
        ],
    )
    # A binary file and one too large to read, each whose lines all went on.
    h.commit(
        "main",
        ["D bin/tool.dat", f"M bin/runner.dat \0ELF\n{text(block('tool', 30), block('run', 90))}"],
    )
    h.commit(
        "main",
        [
            "D data/big/fixtures.json",
            f"M data/big/all.json {text(BIG, block('other', 3 * len(BIG)))}",
            "D data/small/fixtures.json",
            f"M data/small/all.json {text(block('fixture', 30), block('other', 90))}",
        ],
    )
    h.write(path)
    yield path, commit_of(path, anchor)


def test_workflows_merged_into_one_are_each_replaced_by_it(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    paths = checkout(path)
    for old in (".github/workflows/redis.yml", ".github/workflows/dragonfly.yml"):
        state = paths.check(old, anchor)
        assert (state.status, state.renamed_to) == ("stale", None), old
        assert state.replaced_by == ".github/workflows/ci.yml", old
        assert state.replaced_in is not None and state.replaced_in == state.deleted, old


def test_a_vendored_file_deleted_beside_the_rewrite_gets_nothing(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    assert paths.check("web/css/app.css", anchor).replaced_by == "web/css/style.css"
    bootstrap = paths.check("web/css/bootstrap.css", anchor)
    assert bootstrap.status == "stale" and bootstrap.deleted is not None
    assert (bootstrap.replaced_by, bootstrap.renamed_to) == (None, None)


def test_two_added_files_holding_its_lines_name_none(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    paths = checkout(path)
    state = paths.check("lib/helpers.rb", anchor)
    assert state.status == "stale" and state.deleted is not None
    assert (state.replaced_by, state.renamed_to) == (None, None)
    # One of the two holding them: that one.
    assert paths.check("lib/worker.rb", anchor).replaced_by == "lib/job.rb"


def test_a_file_of_another_folder_replaces_nothing(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    state = checkout(path).check("docs/examples/timestamp-flag.md", anchor)
    assert state.status == "stale" and state.deleted is not None
    assert (state.replaced_by, state.renamed_to) == (None, None)


def test_a_binary_file_and_one_too_large_to_read_are_not_compared(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    for old in ("bin/tool.dat", "data/big/fixtures.json"):
        state = paths.check(old, anchor)
        assert state.status == "stale" and state.deleted is not None, old
        assert state.replaced_by is None, old
    # The same shape, small enough: named.
    small = paths.check("data/small/fixtures.json", anchor)
    assert small.replaced_by == "data/small/all.json"


def test_only_lines_that_say_something_count() -> None:
    assert carried.lines(b"def a\n  end\n}\n\n</div>\n  class   Worker\n") == frozenset(
        {"class Worker"}
    )
    assert carried.lines(b"\0ELF\nclass Worker\n") == frozenset()


def test_drift_names_the_replacement_and_settle_leaves_the_memory(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    body = "CI runs the Redis tests in .github/workflows/redis.yml."
    line = json.dumps({"body": body, "project": str(path), "head_commit": anchor}) + "\n"
    assert run_cli("memory", "import", "-", cwd=path, stdin=line).returncode == 0
    drift = run_cli("memory", "drift", "--json", cwd=path)
    [finding] = [f for f in json.loads(drift.stdout)["findings"] if f["kind"] == "stale"]
    replaced = finding["replaced"][".github/workflows/redis.yml"]
    assert replaced["by"] == ".github/workflows/ci.yml"
    assert "redis.yml replaced by .github/workflows/ci.yml (added in" in finding["detail"]
    assert "renamed" not in finding
    # Not the same text: the memory is not rewritten with the new name.
    assert "ci.yml" not in finding["suggest"]
