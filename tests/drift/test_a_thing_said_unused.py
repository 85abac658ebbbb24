"""A named thing one note says is not used, against a note that uses it
(docs/drift.md, conflicts): `the Homebrew oniguruma is never used` against `Use
the system oniguruma from Homebrew`, where the thing is no tool the rules know
(the rule of dropped tools needs one). Every word of the name must be in the
using clause, and that clause must say `use`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# An autotools project with a regex library as a submodule, as the first notes were written at it.
FILES = {
    "configure.ac": "AC_INIT([tool], [1.0])\nAC_CONFIG_SUBDIRS([modules/regex])\n",
    "Makefile.am": "SUBDIRS = modules/regex\nbin_PROGRAMS = tool\n",
    "src/main.c": "int main(void) { return 0; }\n",
    "src/wrap.h": "#define TOOL_MUTEX int\n",
}
NOTES_FIRST = [
    "Use the system oniguruma from Homebrew on macOS.",
    "Use the TOOL_MUTEX wrapper from wrap.h to guard shared state.",
    "Use the bundled zlib on Windows.",
]
NOTES_SECOND = [
    "On macOS build with the builtin copy; the Homebrew oniguruma is never used.",
    "Plain mutexes are fine everywhere; the TOOL_MUTEX wrapper is not used any more.",
    "The bundled zlib is not used on Linux.",
]


@pytest.mark.slow
def test_a_thing_said_unused_against_a_note_using_it_is_a_conflict(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "tool", FILES)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    (repo / "Makefile.am").write_text("bin_PROGRAMS = tool\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "regex from the system")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    pairs = conflict_pairs(repo)
    assert pairs == {
        (ids[NOTES_SECOND[0]], ids[NOTES_FIRST[0]]),
        (ids[NOTES_SECOND[1]], ids[NOTES_FIRST[1]]),
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Use the system oniguruma from Homebrew.", "The Homebrew oniguruma is never used."),
        ("Use the AxumMutex wrapper.", "The AxumMutex wrapper is not used any more."),
    ],
)
def test_a_thing_said_unused_contradicts_its_use(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The unused clause says more than that it is unused: where.
        ("Use the bundled zlib on Windows.", "The bundled zlib is not used on Linux."),
        # The other clause does not say it uses the thing.
        (
            "The Homebrew oniguruma is installed on the build box.",
            "The Homebrew oniguruma is never used.",
        ),
        # A part of the name only.
        ("Use the system oniguruma.", "The Homebrew oniguruma is never used."),
        # Both say it is unused.
        ("Never use the Homebrew oniguruma.", "The Homebrew oniguruma is never used."),
    ],
)
def test_use_and_unused_of_other_things_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
