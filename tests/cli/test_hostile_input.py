"""Every input gets an answer in bounded memory: one line on stderr, exit 2, and the
store byte for byte as it was."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import GIT_ENV, make_repo, run_cli

SYNAPSE = str(Path(sys.executable).with_name("synapse"))


def fingerprint(data: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(data.iterdir())
        # The locks beside the store hold nothing.
        if path.is_file() and not path.name.endswith(("-long-write", "-team-files"))
    }


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    # Outside a project, a note may come first.
    lines = [line for line in done.stderr.splitlines() if not line.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith("synapse: "), done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0]


@pytest.fixture
def seeded(isolated_store: Path, outside: Path) -> Path:
    done = run_cli("memory", "remember", "--global", "the port is 5433", cwd=outside)
    assert done.returncode == 0, done.stderr
    return isolated_store


def feed(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    with open(stdin, "rb") as source:
        done = subprocess.run(
            [SYNAPSE, *args], stdin=source, capture_output=True, cwd=cwd, timeout=60, check=False
        )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


@pytest.mark.parametrize(
    "args",
    [["memory", "remember", "--global", "-"], ["memory", "import", "-"]],
)
def test_endless_standard_input_is_refused_at_the_limit(
    seeded: Path, outside: Path, args: list[str]
) -> None:
    before = fingerprint(seeded)
    refused(feed(args, "/dev/zero", outside), "over")
    assert fingerprint(seeded) == before


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "list"],
        ["memory", "list", "--json"],
        ["memory", "read", "1"],
        ["memory", "export"],
        ["memory", "recall", "port"],
        ["hook", "session"],
    ],
)
def test_output_to_a_full_device_is_one_line(seeded: Path, outside: Path, args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [SYNAPSE, *args], stdout=full, stderr=subprocess.PIPE, cwd=outside, check=False
        )
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.splitlines()[-1] == "synapse: cannot write the output: No space left on device"
    assert "Traceback" not in stderr and "Exception ignored" not in stderr


BAD_LINES = {
    "year 1 with an offset": {"body": "a", "created_at": "0001-01-01T00:00:00+05:00"},
    "year 9999 with an offset": {"body": "a", "created_at": "9999-12-31T23:59:59-05:00"},
    "source false": {"body": "a", "source": False},
    "updated before created": {
        "body": "a",
        "created_at": "2024-05-01T00:00:00+00:00",
        "updated_at": "2023-05-01T00:00:00+00:00",
    },
    "zero-width body": {"body": "\u200b\u200d\u2060\ufeff"},
}


@pytest.mark.parametrize("line", [json.dumps(doc) for doc in BAD_LINES.values()], ids=BAD_LINES)
def test_import_refuses_what_it_used_to_take_or_crash_on(
    seeded: Path, outside: Path, line: str
) -> None:
    before = fingerprint(seeded)
    refused(run_cli("memory", "import", "-", stdin=line + "\n", cwd=outside), "line 1")
    assert fingerprint(seeded) == before


def test_import_refuses_huge_numbers_deep_nesting_and_a_file_as_project(
    seeded: Path, outside: Path
) -> None:
    a_file = outside / "notes.txt"
    a_file.write_text("x")
    before = fingerprint(seeded)
    for line in (
        '{"body": "a", "n": ' + "9" * 5000 + "}",
        '{"body": "a", "n": ' + "[" * 100_000 + "]" * 100_000 + "}",
        json.dumps({"body": "a", "project": str(a_file)}),
    ):
        refused(run_cli("memory", "import", "-", stdin=line + "\n", cwd=outside), "line 1")
    assert fingerprint(seeded) == before


def test_recall_limit_beyond_any_integer_is_refused(seeded: Path, outside: Path) -> None:
    refused(run_cli("memory", "recall", "port", "--limit", str(2**63), cwd=outside), "limit")
    refused(run_cli("memory", "forget", str(2**63), cwd=outside))


def test_list_refuses_a_filter_with_words_it_would_ignore(seeded: Path, outside: Path) -> None:
    words = " ".join(f"word{n}" for n in range(33))
    refused(run_cli("memory", "list", words, cwd=outside), "33 distinct words")


def test_list_of_a_long_query_that_matches_nothing_says_back_only_its_start(
    seeded: Path, outside: Path
) -> None:
    # 32 distinct words of 2,000 characters each: past what any note holds, within the
    # word limit, and the whole of it used to be printed back.
    query = " ".join(f"w{n:02d}" + "x" * 2000 for n in range(32))
    done = run_cli("memory", "list", query, cwd=outside)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("no memories match 'w00xxx")
    assert done.stdout.rstrip().endswith("\u2026")
    assert len(done.stdout) < 300


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('budget = ["lean"]', "budget"),
        ("budgets = 5", "budgets"),
        (f"[budgets.lean]\npage_bytes = {2**63}", "budgets.lean.page_bytes"),
        ("[budgets.lean]\nhits = true", "budgets.lean.hits"),
        ("budegt = 'lean'", "budegt"),
    ],
)
def test_config_is_checked_key_by_key(seeded: Path, outside: Path, text: str, key: str) -> None:
    (seeded / "config.toml").write_text(text)
    refused(run_cli("memory", "read", "1", cwd=outside), key)


def test_config_that_is_not_utf8_is_one_line(seeded: Path, outside: Path) -> None:
    (seeded / "config.toml").write_bytes(b'budget = "\xff"\n')
    refused(run_cli("memory", "list", cwd=outside), "not valid UTF-8")


@pytest.mark.parametrize(
    ("doc", "word"),
    [({"metrics": 5}, "metrics"), ({"top1": 0.5, "epsilon": -0.1}, "epsilon")],
)
def test_eval_refuses_a_baseline_it_cannot_use(
    seeded: Path, tmp_path: Path, doc: dict[str, object], word: str
) -> None:
    cases = tmp_path / "cases.toml"
    cases.write_text('[[case]]\nquery = "port"\nexpect = "5433"\n')
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(doc))
    refused(run_cli("memory", "eval", str(cases), "--baseline", str(baseline)), word)


def test_a_relative_synapse_data_is_refused(outside: Path) -> None:
    for args in (["memory", "remember", "--global", "x"], ["hook", "session"]):
        refused(run_cli(*args, cwd=outside, env={"SYNAPSE_DATA": "store"}), "relative")
    assert list(outside.iterdir()) == []


def test_read_only_commands_create_no_store(isolated_store: Path, outside: Path) -> None:
    assert run_cli("memory", "check", cwd=outside).returncode == 0
    assert run_cli("memory", "forget", "1", cwd=outside).returncode == 2
    assert run_cli("memory", "restore", "1", cwd=outside).returncode == 2
    assert run_cli("memory", "edit", "1", "new", cwd=outside).returncode == 2
    assert run_cli("memory", "import", "-", stdin="\n\n", cwd=outside).returncode == 0
    assert run_cli("hook", "session", cwd=outside).returncode == 0
    assert list(isolated_store.iterdir()) == []


def test_hook_session_in_a_folder_whose_name_is_not_utf8(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    subprocess.run(["git", "init", "-q", folder], check=True, env={**os.environ, **GIT_ENV})
    done = subprocess.run(
        [SYNAPSE, "hook", "session"], cwd=folder, capture_output=True, check=False
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stderr
    assert stderr.startswith("synapse: reading memories for this session failed (this folder")
    assert "Traceback" not in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("damage", ["dangling HEAD", "missing objects"])
def test_a_damaged_repository_is_one_line(seeded: Path, tmp_path: Path, damage: str) -> None:
    repo = make_repo(tmp_path / "repo")
    if damage == "dangling HEAD":
        (repo / ".git" / "refs" / "heads" / "main").write_text("12" * 20 + "\n")
    else:
        for folder in (repo / ".git" / "objects").glob("??"):
            shutil.rmtree(folder)
    before = fingerprint(seeded)
    refused(run_cli("memory", "remember", "a fact", cwd=repo), "git fsck")
    assert fingerprint(seeded) == before


def test_read_only_commands_leave_nothing_beside_a_store_they_cannot_open(
    isolated_store: Path, outside: Path
) -> None:
    store = isolated_store / "memory.db"
    store.write_bytes(b"SQLite format 3\x00" + b"\x00" * 4000)
    for args in (["memory", "check"], ["memory", "forget", "1"], ["memory", "list"]):
        refused(run_cli(*args, cwd=outside), "damaged")
    assert run_cli("hook", "session", cwd=outside).returncode == 0
    assert sorted(path.name for path in isolated_store.iterdir()) == ["memory.db"]


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "eval", "cases\nsynapse: fine, nothing was refused"],
        ["memory", "import", "notes\r\n.jsonl"],
        ["memory", "eval", "CASES", "--baseline", "old\tbase\n.json"],
    ],
)
def test_an_error_quoting_a_name_with_line_breaks_is_one_line(
    seeded: Path, outside: Path, tmp_path: Path, args: list[str]
) -> None:
    cases = tmp_path / "cases.toml"
    cases.write_text('[[case]]\nquery = "port"\nexpect = "5433"\n')
    before = fingerprint(seeded)
    done = run_cli(*[str(cases) if arg == "CASES" else arg for arg in args], cwd=outside)
    refused(done)
    assert "\\x0a" in done.stderr
    assert fingerprint(seeded) == before
