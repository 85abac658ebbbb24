"""A Ruby gem's history (docs/drift.md, paths): a top-level `web/` folder of
templates beside `lib/app/web/`, the code of the web app. A memory writing
`web/application.rb` names `lib/app/web/application.rb`, as `app/db.py` names
`src/app/db.py`: git never held a `web/application.rb` at the root, so its first
folder being a top-level folder says nothing of where it is. A path git did hold
at the root names that place only, as before. Written by `git fast-import`,
checked through the real path history index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_path_history import BODY, History, checkout, commit_of


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """(repository, the commit the memories were written at)."""
    path = tmp_path_factory.mktemp("gem") / "repo"
    h = History()
    h.commit(
        "main",
        [
            f"M lib/app/web/application.rb {BODY['a']}",
            f"M lib/app/web/router.rb {BODY['b']}",
            f"M lib/app/web/csrf.rb {BODY['c']}",
            f"M web/views/layout.erb {BODY['d']}",
            f"M web/helpers.rb {BODY['e']}",
            "M app.gemspec Gem::Specification.new",
        ],
    )
    anchor = h.commit("main", ["M app.gemspec Gem::Specification.new {}"])
    # The CSRF code goes; the helpers at the root of web/ move under lib/.
    h.commit("main", ["D lib/app/web/csrf.rb"])
    h.commit("main", ["D web/helpers.rb", f"M lib/app/web/helpers.rb {BODY['e']}"])
    h.write(path)
    yield path, commit_of(path, anchor)


def test_a_tail_whose_first_folder_is_a_top_folder_names_the_longer_file(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    assert checkout(path).check("web/application.rb", anchor).status == "present"
    assert checkout(path).check("web/router.rb", anchor).status == "present"


def test_such_a_tail_is_stale_when_the_longer_file_is_deleted(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    state = checkout(path).check("web/csrf.rb", anchor)
    assert state.status == "stale" and state.renamed_to is None


def test_a_path_git_held_at_the_root_names_that_place_only(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    # `web/helpers.rb` was a root file and moved: stale with its new name, though a
    # longer path ends with it now.
    state = checkout(path).check("web/helpers.rb", anchor)
    assert state.status == "stale" and state.renamed_to == "lib/app/web/helpers.rb"
    # Never anywhere: still unverified (a file to be written).
    assert checkout(path).check("web/views/new.erb", anchor).status == "unverified"
