"""Short names that named several files at the memory's commit, and files replaced by
another of their name in another format (docs/drift.md, "Short names that name several
files" and "Replaced, not renamed"): real histories written by `git fast-import`,
checked through the real path history index and the real `synapse` command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import git, run_cli
from test_path_history import BODY, History, checkout, commit_of

from synapse_git.drift.meant import Said

DAY = 24 * 3600
LONG = "\n".join(f"line {n} of the module" for n in range(300))
SHORT = "\n".join(f"line {n}" for n in range(40))


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """(repository, the commit the memories were written at)."""
    path = tmp_path_factory.mktemp("short") / "repo"
    h = History()
    h.commit(
        "main",
        [
            # Four exceptions.py: the project's own (300 lines, defines BuildError) and
            # three vendored ones (40 lines each).
            f"M src/app/exceptions.py class BuildError(Exception):\n{LONG}",
            f"M src/app/_vendor/http/exceptions.py {SHORT}",
            f"M src/app/_vendor/pack/exceptions.py {SHORT}",
            f"M src/app/_vendor/retry/exceptions.py {SHORT}",
            # A root MANIFEST.in, and test data carrying their own.
            f"M MANIFEST.in {BODY['a']}",
            f"M tests/data/one/MANIFEST.in {BODY['b']}",
            f"M tests/data/two/MANIFEST.in {BODY['c']}",
            # A README at the root and one in a folder of pins.
            f"M README.md {BODY['d']}",
            f"M pins-extra/README.md {BODY['e']}",
            "M pins-extra/tests-min.in pytest==7",
            # Two notes.txt, nothing to tell them apart.
            f"M alpha/notes.txt {BODY['f']}",
            f"M beta/notes.txt {BODY['g']}",
            # Five test projects with their own build.py: a kind of file.
            *(f"M tests/data/p{n}/build.py build {n}" for n in range(5)),
            # Documents and images to be replaced, and their neighbours.
            f"M CHANGES.rst {BODY['h']}",
            "M docs/_static/icon.png PNGDATA",
            "M docs/_static/logo.png PNGLOGO",
            "M setup.py from setuptools import setup",
            "M guide.rst the guide",
            "M guide.md already here beside it",
            "M old/notes.rst old notes",
            # A package entry at the root and a file of that name deep in the source.
            f"M main.js {BODY['a']}",
            f"M src/handlers/main.js {BODY['b']}",
            "M LICENSE MIT",
            # Templates of one kind.
            "M templates/page.hbs {{title}}",
            "M templates/list.hbs {{items}}",
            # Go files to be split into files of longer names.
            f"M parse.go package cli\n{LONG}",
            "M command.go package cli",
            f"M src/utils.js {BODY['c']}",
            f"M lib/render.go {BODY['d']}",
        ],
    )
    anchor = h.commit("main", ["M src/app/cli.py print()"])
    h.commit("main", ["M src/app/cli.py print(1)"])
    # The project's exceptions.py becomes a package; the vendored ones stay.
    h.commit(
        "main",
        ["D src/app/exceptions.py", f"M src/app/exceptions/__init__.py class BuildError:\n{LONG}"],
    )
    h.commit("main", ["D MANIFEST.in"])
    h.commit("main", ["D pins-extra/README.md", "D pins-extra/tests-min.in"])
    h.commit("main", ["D alpha/notes.txt", "D tests/data/p0/build.py"])
    # The changelog is deleted in one commit and written as Markdown in the next.
    h.commit("main", ["D CHANGES.rst"])
    h.commit("main", [f"M CHANGES.md {BODY['h'].upper()}"])
    # An icon replaced by a vector one in the same commit.
    h.commit("main", ["D docs/_static/icon.png", "M docs/_static/icon.svg <svg/>"])
    # Not replacements: another kind of file, a sibling there all along, one added months later.
    h.commit("main", ["D setup.py", "M setup.cfg [metadata]"])
    h.commit("main", ["D guide.rst"])
    h.commit("main", ["D old/notes.rst"])
    h.when += 90 * DAY
    h.commit("main", ["M old/notes.md new notes, long after"])
    h.commit("main", ["D docs/_static/logo.png"])
    # The parser's code goes into a new command_parse.go, too changed for git to pair.
    h.commit(
        "main",
        [
            "D parse.go",
            f"M command_parse.go package cli\n{SHORT}",
            "M command_run.go package cli // run",
        ],
    )
    # Split in two: no one successor. Deleted, and a longer name added a commit later.
    h.commit("main", ["D src/utils.js", "M src/file_utils.js f", "M src/text_utils.js t"])
    h.commit("main", ["D lib/render.go"])
    h.commit("main", ["M lib/render_html.go package lib"])
    h.commit("main", ["D src/handlers/main.js"])
    h.write(path)
    yield path, commit_of(path, anchor)


def said(body: str, *others: str) -> Said:
    return Said(body, others)


def test_a_line_number_and_a_quoted_identifier_pick_the_file_meant(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    by_line = paths.check("exceptions.py", anchor, said=said("Errors are at exceptions.py:250."))
    assert by_line.status == "stale"
    assert by_line.renamed_to == "src/app/exceptions/__init__.py"
    by_word = paths.check("exceptions.py", anchor, said=said("BuildError is in exceptions.py."))
    assert (by_word.status, by_word.renamed_to) == ("stale", "src/app/exceptions/__init__.py")
    # Its folder words name a vendored one, still there.
    vendored = paths.check(
        "exceptions.py", anchor, said=said("The retry exceptions.py is vendored.")
    )
    assert vendored.status == "present"


def test_a_root_file_is_what_its_bare_name_meant(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    state = checkout(path).check("MANIFEST.in", anchor, said=said("MANIFEST.in lists the sdist."))
    assert state.status == "stale" and state.deleted is not None


def test_a_folder_the_memory_names_picks_the_file_inside_it(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    text = "pins-extra/ holds optional pins; see its README.md."
    state = checkout(path).check("README.md", anchor, said=said(text, "pins-extra/", "README.md"))
    assert state.status == "stale"
    # Without that folder, the root README.md it names is still there.
    assert checkout(path).check("README.md", anchor, said=said("See README.md.")).status == (
        "present"
    )


def test_a_short_name_still_ambiguous_is_said_so_not_guessed(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    state = checkout(path).check("notes.txt", anchor, said=said("Keep notes.txt short."))
    assert state.status == "unverified"
    assert state.note is not None
    assert "alpha/notes.txt, beta/notes.txt" in state.note
    assert "alpha/notes.txt of them is gone" in state.note


def test_a_file_replaced_in_another_format_is_named_with_its_commit(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    changes = paths.check("CHANGES.rst", anchor)
    assert changes.status == "stale" and changes.renamed_to is None
    assert changes.replaced_by == "CHANGES.md"
    added = git(path, "log", "--format=%H %cs", "--diff-filter=A", "--", "CHANGES.md").split()
    assert changes.replaced_in == f"{added[0][:10]} ({added[1]})"
    icon = paths.check("docs/_static/icon.png", anchor)
    assert (icon.status, icon.replaced_by) == ("stale", "docs/_static/icon.svg")


def test_a_file_whose_code_went_to_a_longer_name_in_its_commit_is_replaced_by_it(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    state = checkout(path).check("parse.go", anchor)
    assert (state.status, state.renamed_to) == ("stale", None)
    assert state.replaced_by == "command_parse.go"


def test_no_replacement_without_git_history_to_support_it(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    paths = checkout(path)
    for named in (
        "setup.py",
        "guide.rst",
        "old/notes.rst",
        "docs/_static/logo.png",
        "src/utils.js",
        "lib/render.go",
    ):
        state = paths.check(named, anchor)
        assert state.status == "stale", named
        assert (state.replaced_by, state.renamed_to) == (None, None), named


def test_drift_says_replaced_by_and_finds_the_short_names(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    bodies = [
        "The changelog is CHANGES.rst.",
        "Errors are at exceptions.py:250.",
        "MANIFEST.in lists the sdist.",
        "Keep notes.txt short.",
    ]
    lines = "".join(
        json.dumps({"body": body, "project": str(path), "head_commit": anchor}) + "\n"
        for body in bodies
    )
    done = run_cli("memory", "import", "-", cwd=path, stdin=lines)
    assert done.returncode == 0, done.stderr
    drift = run_cli("memory", "drift", "--json", cwd=path)
    findings = json.loads(drift.stdout)["findings"]
    stale = {f["paths"][0]: f for f in findings if f["kind"] == "stale"}
    assert set(stale) == {"CHANGES.rst", "exceptions.py", "MANIFEST.in"}
    replaced = stale["CHANGES.rst"]["replaced"]["CHANGES.rst"]
    assert replaced["by"] == "CHANGES.md"
    assert (
        f"CHANGES.rst replaced by CHANGES.md (added in {replaced['added']})"
        in (stale["CHANGES.rst"]["detail"])
    )
    assert "renamed" not in stale["CHANGES.rst"]
    assert stale["exceptions.py"]["renamed"] == {"exceptions.py": "src/app/exceptions/__init__.py"}
    [unsure] = [f for f in findings if f["kind"] == "unverified"]
    assert "which it meant is not known" in unsure["detail"]


def test_a_name_many_files_share_is_a_kind_of_file(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    state = checkout(path).check("build.py", anchor, said=said("Each build.py is tiny."))
    assert state.status == "present"


def test_a_folder_in_a_list_does_not_take_the_root_file_of_that_name(
    repo: tuple[Path, str],
) -> None:
    path, anchor = repo
    paths = checkout(path)
    listed = "The package ships LICENSE, main.js and src/."
    state = paths.check("main.js", anchor, said=said(listed, "LICENSE", "main.js", "src/"))
    assert state.status == "present"
    # The folders between are named: the handlers' main.js, gone.
    inside = "Under src/ the handlers main.js dispatches requests."
    state = paths.check("main.js", anchor, said=said(inside, "src/", "main.js"))
    assert state.status == "stale" and state.deleted is not None
    # Right inside a folder the memory names: gone.
    direct = "src/handlers/ holds main.js."
    state = paths.check("main.js", anchor, said=said(direct, "src/handlers/", "main.js"))
    assert state.status == "stale"


def test_an_extension_alone_of_files_here_is_a_kind_of_file(repo: tuple[Path, str]) -> None:
    path, anchor = repo
    paths = checkout(path)
    assert paths.check(".hbs", anchor).status == "skipped"
    # No file here ends so: still a dotfile git never saw.
    assert paths.check(".npmrc", anchor).status == "unverified"
