"""A version of one named thing corrected in a Gradle build (docs/drift.md,
conflicts): the JDK and Kotlin versions written in the sentence shapes a team
uses (`Build with JDK 17: the toolchain asks for it`, `The Kotlin version is
pinned to 2.0.0` / `Build with Kotlin 1.9.24` / `We stay on Kotlin 1.9.24`), and
what is not one value: labels (`Step 3:`) and changes (`We dropped Python 3.8`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# A Gradle build as the first notes were written at it.
FILES = {
    "settings.gradle.kts": 'include(":lib")\n',
    "gradle/libs.versions.toml": '[versions]\njdk = "21"\nkotlin = "2.0.0"\n',
    "lib/build.gradle.kts": 'plugins { kotlin("jvm") }\n',
    ".github/workflows/build.yml": "with:\n  java-version: '21'\n",
}
NOTES_FIRST = [
    "CI builds with JDK 21 on every push.",
    "Step 3: publish the snapshot from the build job.",
    "The Kotlin version is pinned to 2.0.0 in the version catalog.",
    "We dropped Python 3.8 from the docs tooling.",
    "The self version check runs once a week.",
]
NOTES_SECOND = [
    "CI builds with JDK 17: the toolchain asks for it on every push.",
    "Step 4: publish the snapshot from the build job.",
    "Build the library with Kotlin 1.9.24.",
    "The Python version of the docs tooling is 3.12.",
    "We stay on Kotlin 1.9.24 until KSP2 is stable.",
    "Network tests are disabled in CI; they only run nightly.",
]


@pytest.mark.slow
def test_a_version_corrected_in_another_sentence_shape_is_a_conflict(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "gradle", FILES)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    (repo / "gradle/libs.versions.toml").write_text(
        '[versions]\njdk = "17"\nkotlin = "1.9.24"\n', encoding="utf-8"
    )
    git(repo, "commit", "-q", "-am", "JDK 17")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    pairs = conflict_pairs(repo)
    assert pairs == {
        (ids[NOTES_SECOND[0]], ids[NOTES_FIRST[0]]),
        (ids[NOTES_SECOND[2]], ids[NOTES_FIRST[2]]),
        (ids[NOTES_SECOND[4]], ids[NOTES_FIRST[2]]),
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A colon after the value explains it; the value is still one.
        ("Build with JDK 21.", "Build with JDK 17: the toolchain asks for it."),
        # A value after the verb is of the thing the subject names.
        ("The toolchain JDK is 21.", "Build with JDK 17."),
        ("The Kotlin version is pinned to 2.0.0.", "Build with Kotlin 1.9.24."),
        # A first-person subject names the team: the thing comes after the verb.
        ("We use Kotlin 1.9.24.", "The Kotlin version is 2.0.0."),
        ("We stay on Kotlin 1.9.24 until KSP2 is stable.", "The Kotlin version is 2.0.0."),
    ],
)
def test_versions_of_one_thing_contradict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A number heading a clause, or after a labelling noun, is a label.
        ("Step 3: run the tests.", "Step 4: run the tests."),
        ("See issue 42: the cache is cold.", "See issue 43: the cache is cold."),
        # A change to what is held, or a denial, is no statement of the one value.
        ("We dropped Python 3.8.", "The Python version is 3.12."),
        ("The Node version is 20.", "Node 18 is deprecated."),
        ("The toolchain JDK is not 21.", "Build with JDK 17."),
        # Another pronoun stands for a thing named before it; a tested version is
        # one entry of a matrix.
        (
            "The self version check runs once a week.",
            "Network tests are disabled in CI; they only run nightly.",
        ),
        ("We test on Python 3.11.", "The Python version is 3.12."),
    ],
)
def test_labels_and_changes_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
