"""The C or C++ standard a project is written in, corrected (docs/drift.md,
conflicts): `The code is C99` against `The code may use C11`, as notes of an
autotools project put it. A standard is one token (`C99`, `gnu11`, `C++17`), a
value of the language as `Python 3.12` is; two of them for one thing conflict,
two things each with its own do not."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# An autotools project in C with a C++ fuzz target, as the first notes were written at it.
FILES = {
    "configure.ac": "AC_INIT([tool], [1.0])\nAC_PROG_CC\n",
    "Makefile.am": "bin_PROGRAMS = tool\ntool_SOURCES = src/main.c\n",
    "src/main.c": "int main(void) { return 0; }\n",
    "tests/fuzz.cpp": "int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n",
}
NOTES_FIRST = [
    "The code is C99; no C11 features such as _Atomic.",
    "The fuzz target builds as C++17.",
    "The library is C99.",
]
NOTES_SECOND = [
    "The code may use C11; _Thread_local is used for the number context.",
    "The fuzz target builds as C++20 now.",
    "The fuzz targets under tests/ are C++17.",
]


@pytest.mark.slow
def test_a_language_standard_corrected_is_a_conflict(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "tool", FILES)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    (repo / "configure.ac").write_text(
        "AC_INIT([tool], [1.1])\nAC_PROG_CC\nAX_CHECK_COMPILE_FLAG([-std=c11])\n", encoding="utf-8"
    )
    git(repo, "commit", "-q", "-am", "C11")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    pairs = conflict_pairs(repo)
    assert pairs == {
        (ids[NOTES_SECOND[0]], ids[NOTES_FIRST[0]]),
        (ids[NOTES_SECOND[1]], ids[NOTES_FIRST[1]]),
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The code is C99.", "The code may use C11."),
        ("Compile the sources as gnu99.", "Compile the sources as c99."),
        ("The fuzz target builds as C++17.", "The fuzz target builds as C++20."),
    ],
)
def test_two_standards_of_one_thing_contradict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # One standard written twice, in two cases.
        ("The code is C99.", "The code is c99."),
        # Two things, each with its standard.
        ("The library is C99.", "The fuzz targets under tests/ are C++17."),
        # Not a standard: a name that ends in digits.
        ("Cell c12 of the sheet holds the total.", "Cell c13 of the sheet holds the total."),
    ],
)
def test_one_standard_or_two_things_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
