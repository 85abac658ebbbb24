"""A Gradle-shaped history (docs/drift.md, "Short names that name several files" and
"Replaced, not renamed"): one class file in two source sets, `src/main/java` and
`src/main/java16`, of which only one moves, and a JSON configuration moved into
`.github/` and then rewritten as JSON5. Written by `git fast-import`, checked
through the real path history index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_path_history import BODY, History, checkout, commit_of

from synapse_git.drift.meant import Said


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """(repository, the commit the memories were written at)."""
    path = tmp_path_factory.mktemp("gradle") / "repo"
    h = History()
    h.commit(
        "main",
        [
            f"M lib/src/main/java/com/acme/RecordAdapter.kt {BODY['a']}",
            f"M lib/src/main/java16/com/acme/RecordAdapter.kt {BODY['b']}",
            f"M lib/src/main/java/com/acme/Reader.kt {BODY['c']}",
            f"M lib/src/main/java/com/acme/Scope.kt {BODY['e']}",
            f"M lib/src/main/java16/com/acme/Scope.kt {BODY['f']}",
            "M lib/build.gradle.kts plugins {}",
            f"M renovate.json {BODY['d']}",
        ],
    )
    anchor = h.commit("main", ["M lib/src/main/java/com/acme/Reader.kt reader"])
    # Only the java16 copy moves into an internal package; the stub stays.
    h.commit(
        "main",
        [
            "D lib/src/main/java16/com/acme/RecordAdapter.kt",
            f"M lib/src/main/java16/com/acme/internal/RecordAdapter.kt {BODY['b']}",
        ],
    )
    # Both Scope.kt move into internal packages of their source sets.
    h.commit(
        "main",
        [
            "D lib/src/main/java/com/acme/Scope.kt",
            f"M lib/src/main/java/com/acme/internal/Scope.kt {BODY['e']}",
            "D lib/src/main/java16/com/acme/Scope.kt",
            f"M lib/src/main/java16/com/acme/internal/Scope.kt {BODY['f']}",
        ],
    )
    # The Renovate configuration moves into .github/, then is rewritten as JSON5.
    h.commit("main", ["D renovate.json", f"M .github/renovate.json {BODY['d']}"])
    h.commit("main", ["D .github/renovate.json", "M .github/renovate.json5 {extends: []}"])
    h.write(path)
    yield path, commit_of(path, anchor)


def test_a_json_file_rewritten_as_json5_is_named_as_its_replacement(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    state = checkout(path).check("renovate.json", anchor)
    assert state.status == "stale" and state.renamed_to is None
    assert state.replaced_by == ".github/renovate.json5"


def said(body: str, *others: str) -> Said:
    return Said(body, others)


def test_the_word_right_before_a_short_name_picks_its_source_set(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    text = "The code to read is the java16 RecordAdapter.kt; the one in src/main/java never runs."
    state = paths.check("RecordAdapter.kt", anchor, said=said(text, "src/main/java"))
    assert state.status == "stale"
    assert state.renamed_to == "lib/src/main/java16/com/acme/internal/RecordAdapter.kt"
    # A word that is no folder leaves the other clues to decide: the stub, still here.
    stub = "The stub RecordAdapter.kt in src/main/java returns null."
    assert paths.check("RecordAdapter.kt", anchor, said=said(stub, "src/main/java")).status == (
        "present"
    )


def test_where_every_file_a_short_name_named_moved_the_memory_says_whose_new_name(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    text = "The code to read is the java16 Scope.kt; the one in src/main/java is a stub."
    state = paths.check("Scope.kt", anchor, said=said(text, "src/main/java"))
    assert state.status == "stale"
    assert state.renamed_to == "lib/src/main/java16/com/acme/internal/Scope.kt"
