"""A named thing one note says is not used, against a note that uses it
(docs/drift.md, conflicts): `the Homebrew oniguruma is never used` against `Use
the system oniguruma from Homebrew`, where the thing is no tool the rules know
(the rule of dropped tools needs one). Every word of the name, and its version,
must be in the using clause, and that clause must say `use`; or the name is
written as no plain word is (`TestServer`, `Hamcrest 2`) and the clause uses it
as a means (`written with TestServer`), or both write it as a flag (`-x`), with
any subjects."""

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


@pytest.mark.slow
def test_a_flag_or_a_named_helper_said_unused_under_another_subject_is_a_conflict(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "tool", FILES)
    first = [
        "`make check` runs the unit tests with -x.",
        "Handler tests are written with TestServer from src/wrap.h.",
    ]
    second = [
        "`make check` runs every test; -x is not used.",
        "Handler tests call the handler directly; TestServer is not used any more.",
    ]
    ids = {body: remember(repo, body) for body in first}
    git(repo, "commit", "-q", "--allow-empty", "-m", "later")
    ids |= {body: remember(repo, body) for body in second}
    assert conflict_pairs(repo) == {(ids[b], ids[a]) for a, b in zip(first, second, strict=True)}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Use the system oniguruma from Homebrew.", "The Homebrew oniguruma is never used."),
        ("Use the AxumMutex wrapper.", "The AxumMutex wrapper is not used any more."),
        # Another subject: the unused clause's subject is the thing itself.
        ("`tox -e py` runs pytest with -x.", "`tox -e py` runs the whole suite; -x is not used."),
        (
            "The integration job stops at the first failure (--fail-fast).",
            "The integration job runs every case; --fail-fast is not used.",
        ),
        (
            "Tests use Hamcrest 2 matchers.",
            "Assertions use AssertK; Hamcrest 2 is not used any more.",
        ),
        (
            "C sources are formatted by fmt-tool-17 in the hook.",
            "C sources are formatted by hand; fmt-tool-17 is not used.",
        ),
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
        # Another version of the thing.
        ("Tests use Hamcrest 3 matchers.", "Hamcrest 2 is not used any more."),
        # The other clause tells of the change.
        ("-x was dropped from the tox command.", "-x is not used."),
        ("TestServer was replaced by direct calls.", "TestServer is not used any more."),
        # Named, but not as what the clause uses: no means, no `use`.
        ("TestServer was written for the old router.", "TestServer is not used any more."),
        # A flag in one clause, a plain word in the other.
        ("The race detector is on in CI.", "-race is not used."),
        # A plain name under another subject.
        ("The nightly image ships the bundled toolchain.", "The bundled toolchain is not used."),
    ],
)
def test_use_and_unused_of_other_things_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
