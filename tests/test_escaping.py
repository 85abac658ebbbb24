"""Control characters in memories reach no terminal and no agent raw: every output
shows them escaped, and the stored bytes stay as they were."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import GIT_ENV, git, make_repo

from synapse_git.escaping import escape_json, json_text, visible

# Clear screen, OSC 52 (clipboard), window title, terminal reset, a C1 CSI, DEL,
# a carriage return that hides what came before, bidi overrides and isolates, and
# invisible text: tag characters spelling "run", a zero-width space, a BOM.
TAGS = "\U000e0072\U000e0075\U000e006e"
HOSTILE = (
    "Deploy with scripts/deploy.sh \x1b[2J\x1b[H\x1b]52;c;cm0gLXJmIH4=\x07"
    "\x1b]0;pwned\x1b\\ \x1bc \x9b31m \x7f \rfake \u202eevil\u202c \u2066x\u2069 \u200f\u061c"
    f" {TAGS} zero\u200bwidth\ufeff"
)
RAW = ["\x1b", "\x9b", "\x7f", "\r", "\x07", "\u202e", "\u202c", "\u2066", "\u200f", "\u061c"]
RAW += [*TAGS, "\u200b", "\ufeff"]


def run(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    exe = Path(sys.executable).with_name("synapse")
    return subprocess.run(
        [str(exe), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
        check=False,
    )


def clean(data: bytes) -> None:
    text = data.decode("utf-8")
    found = [repr(ch) for ch in RAW if ch in text]
    assert not found, f"raw control characters {found} in {text[:300]!r}"


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, int]:
    repo = make_repo(tmp_path / "repo", {"scripts/deploy.sh": "echo\n", "a.txt": "a\n"})
    done = run(
        "memory",
        "remember",
        "-",
        "--source",
        "src\x1b]0;t\x07",
        "--json",
        cwd=repo,
        stdin=HOSTILE.encode(),
    )
    assert done.returncode == 0, done.stderr
    return repo, int(json.loads(done.stdout)["id"])


def test_visible_writes_out_every_control_but_layout() -> None:
    assert visible("a\x1b[2Jb\tc\nd\x9b\u202e") == "a\\x1b[2Jb\tc\nd\\x9b\\u202e"
    assert visible("a\tb\n", layout=False) == "a\\x09b\\x0a"
    assert visible(visible(HOSTILE)) == visible(HOSTILE)


@pytest.mark.parametrize("layout", [True, False])
def test_ascii_text_is_escaped_as_the_wide_classes_escape_it(layout: bool) -> None:
    # ASCII text takes a narrower class; every ASCII character must come out as the
    # full class would write it.
    every_ascii = "".join(chr(code) for code in range(128))
    escaped = visible(every_ascii, layout=layout)
    kept = "\t\n" if layout else ""
    expected = "".join(
        c if c in kept or 0x20 <= ord(c) < 0x7F else f"\\x{ord(c):02x}" for c in every_ascii
    )
    assert escaped == expected
    assert visible("plain words", layout=layout) == "plain words"


def test_json_text_escapes_c1_and_bidi_and_reads_back_the_same() -> None:
    out = json_text({"body": HOSTILE})
    assert all(ch not in out for ch in RAW)
    assert json.loads(out) == {"body": HOSTILE}


@pytest.mark.parametrize("extra", ["", "\u00e9", "\u2028"])
def test_escape_json_writes_every_ascii_character_as_the_full_class_does(extra: str) -> None:
    # ASCII text skips the class: DEL is the one ASCII character it must still escape,
    # alone or beside text that is not ASCII.
    every_ascii = json.dumps("".join(chr(code) for code in range(128)), ensure_ascii=False)
    text = every_ascii + extra
    assert escape_json(text) == text.replace("\x7f", "\\u007f").replace("\u2028", "\\u2028")
    assert escape_json("plain words") == "plain words"


SURFACES = [
    ("memory", "list"),
    ("memory", "list", "deploy"),
    ("memory", "recall", "deploy"),
    ("memory", "recall", "deploy", "--explain"),
    ("memory", "list", "--json"),
    ("memory", "recall", "deploy", "--json"),
    ("memory", "read", "{id}", "--json"),
    ("memory", "read", "{id}"),
    ("memory", "history", "{id}"),
    ("memory", "history", "{id}", "--json"),
    ("hook", "session"),
    ("hook", "session", "--format", "claude"),
    ("memory", "drift"),
    ("memory", "export"),
    ("memory", "forget", "{id}"),
]


def test_no_output_carries_raw_control_characters(planted: tuple[Path, int]) -> None:
    repo, memory_id = planted
    run("memory", "remember", "Deploy never with scripts/deploy.sh \x1b[31m", cwd=repo)
    for args in SURFACES:
        if args == ("memory", "drift"):
            # A gone path, so drift has something to say.
            git(repo, "rm", "-q", "scripts/deploy.sh")
            git(repo, "commit", "-q", "-m", "drop deploy")
        done = run(*(arg.format(id=memory_id) for arg in args), cwd=repo)
        assert done.returncode in (0, 1), (args, done.stderr)
        clean(done.stdout)
        clean(done.stderr)
        if args != ("memory", "drift"):  # its table names paths and ids, not bodies
            assert b"\\x1b" in done.stdout or b"\\u001b" in done.stdout, args
        if "--json" in args and "read" in args:
            assert json.loads(done.stdout)["memory"]["body"] == HOSTILE


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "list"),
        ("memory", "recall", "deploy"),
        ("memory", "recall", "deploy", "--explain"),
        ("memory", "read", "{id}"),
        ("memory", "history", "{id}"),
        ("memory", "show", "{id}"),
        ("hook", "session"),
    ],
)
def test_escape_sequences_are_shown_on_a_pipe_not_dropped(
    planted: tuple[Path, int], args: tuple[str, ...]
) -> None:
    # capture_output is a pipe, where click's echo would strip CSI sequences: what a
    # person reads in a file or through `| less` would differ from what is stored.
    repo, memory_id = planted
    done = run(*(arg.format(id=memory_id) for arg in args), cwd=repo)
    assert done.returncode == 0, (args, done.stderr)
    clean(done.stdout)
    assert b"\\x1b[2J\\x1b[H" in done.stdout, (args, done.stdout[:400])


def test_stored_bytes_and_exported_lines_are_unchanged(planted: tuple[Path, int]) -> None:
    repo, _ = planted
    done = run("memory", "export", cwd=repo)
    assert json.loads(done.stdout)["body"] == HOSTILE


def test_errors_that_quote_the_input_show_it_escaped(planted: tuple[Path, int]) -> None:
    repo, _ = planted
    for args in (
        ("memory", "recall", "x", "--budget", "\x1b]52;c;eA==\x07"),
        ("memory", "drift", "--kind", "\u202estale"),
        ("memory", "import", "missing\x1b[2J.jsonl"),
        ("hook", "session", "--budget", "\x9b2J"),
    ):
        done = run(*args, cwd=repo)
        assert done.returncode == 2
        clean(done.stderr)
        assert b"\\x" in done.stderr or b"\\u" in done.stderr


def test_hooks_fired_by_git_commit_and_checkout_show_escapes(planted: tuple[Path, int]) -> None:
    repo, _ = planted
    assert run("hook", "install", cwd=repo).returncode == 0
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "rm", "-q", "scripts/deploy.sh")
    git(repo, "commit", "-q", "-m", "drop deploy", "--no-verify")
    switched = subprocess.run(
        ["git", "checkout", "main"], cwd=repo, capture_output=True, env={**os.environ, **GIT_ENV}
    )
    assert switched.returncode == 0
    back = subprocess.run(
        ["git", "checkout", "side"], cwd=repo, capture_output=True, env={**os.environ, **GIT_ENV}
    )
    # A full check or an incremental one ("re-checked N of M"): either says what it checked.
    assert b"checked" in back.stdout + back.stderr
    assert b"\\x1b" in back.stdout + back.stderr
    clean(back.stdout)
    clean(back.stderr)
    git(repo, "checkout", "-q", "main")
    git(repo, "rm", "-q", "scripts/deploy.sh")
    commit = subprocess.run(
        ["git", "commit", "-m", "drop"],
        cwd=repo,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )
    assert commit.returncode != 0
    assert b"is deleted" in commit.stdout + commit.stderr
    assert b"\\x1b" in commit.stdout + commit.stderr
    clean(commit.stdout)
    clean(commit.stderr)


def test_invisible_text_is_written_out_and_reads_back_the_same() -> None:
    # Tag characters spell ASCII that no one sees but a language model reads.
    assert visible(f"ok{TAGS}") == "ok\\U000e0072\\U000e0075\\U000e006e"
    assert visible("a\u200bb\ufeff\u2060") == "a\\u200bb\\ufeff\\u2060"
    # JSON writes them as surrogate pairs, the one way it spells such a character.
    out = json_text({"body": f"ok{TAGS}"})
    assert out == '{"body": "ok\\udb40\\udc72\\udb40\\udc75\\udb40\\udc6e"}'
    assert json.loads(out) == {"body": f"ok{TAGS}"}
    # Joiners stay: emoji and several scripts are written with them.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u0645\u200c\u06cc"
    assert visible(family) == family and json.loads(json_text(family)) == family


def test_text_that_is_not_utf8_is_shown_escaped_not_a_crash() -> None:
    # An argument or file name that is not UTF-8 arrives as lone surrogates.
    assert visible("caf\udce9") == "caf\\udce9"
    assert json.loads(json_text({"name": "caf\udce9"})) == {"name": "caf\udce9"}
