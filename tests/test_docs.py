"""The docs stay honest: docs/cli.md matches the real CLI, links resolve, and the code
points only at docs pages that exist."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from synapse_git.cli.app import app
from synapse_git.hooks.commit import pre_commit_main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CLI_MD = DOCS / "cli.md"
DRIFT_HOOK = "synapse-drift-hook"
# Paths of this repository that prose names in backquotes; anything else in
# backquotes (a memory's made-up source, a path in a user's project) is an example.
REPO_PATH = re.compile(r"(?<![\w./-])((?:tests|examples|hooks|synapse_git)/[\w./-]*\w)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def commands() -> Iterator[tuple[str, Any]]:
    """Every command and group of `synapse`, as its full name, with its click command."""

    def walk(command: Any, name: str) -> Iterator[tuple[str, Any]]:
        yield name, command
        for word, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, f"{name} {word}")

    yield from walk(typer.main.get_command(app), "synapse")


def real_names(command: Any) -> set[str]:
    """The argument names (upper case) and option spellings `--help` shows."""
    names: set[str] = set()
    for param in command.params:
        if param.param_type_name == "argument":
            # As cli/help_text.py shows it: `ID...` for an argument taking many.
            many = "..." if param.nargs != 1 else ""
            names.add((param.metavar or param.name).upper() + many)
        else:
            names.update(param.opts, param.secondary_opts)
    return names - {"--help"}


def documented() -> dict[str, set[str]]:
    """docs/cli.md as {command: names listed}: each `### synapse …` heading, and the
    list items under it that start with backquoted names."""
    found: dict[str, set[str]] = {}
    current: str | None = None
    for line in CLI_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            assert current not in found, f"{current} is documented twice"
            found[current] = set()
        elif line.startswith("## "):
            current = None
        elif current is not None and (item := re.match(r"- ((?:`[^`]+`(?:, )?)+)", line)):
            found[current].update(re.findall(r"`([^`]+)`", item.group(1)))
    return found


@pytest.mark.parametrize(("name", "command"), list(commands()), ids=lambda v: str(v))
def test_every_command_and_option_is_documented(name: str, command: Any) -> None:
    docs = documented()
    assert name in docs, f"docs/cli.md has no '### {name}' heading"
    missing = real_names(command) - docs[name]
    assert not missing, f"docs/cli.md does not list {sorted(missing)} under {name}"


def test_everything_documented_exists() -> None:
    real = dict(commands())
    for name, names in documented().items():
        if name == DRIFT_HOOK:
            continue
        assert name in real, f"docs/cli.md documents {name}, which is no command"
        extra = names - real_names(real[name])
        assert not extra, f"docs/cli.md lists {sorted(extra)} under {name}; it has no such"


def test_the_drift_hook_is_documented_as_its_help_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert pre_commit_main(["--help"]) == 0
    options = set(re.findall(r"(?<![\w-])--[\w-]+", capsys.readouterr().out)) - {"--help"}
    assert options
    assert documented().get(DRIFT_HOOK) == options


def test_cli_md_says_its_format_at_the_top() -> None:
    lines = CLI_MD.read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines[1:] if line.strip())
    assert first.startswith("Format:") and "### synapse" in first


def package_texts() -> Iterator[tuple[Path, str]]:
    """Every source file of the package (compiled caches are not ours to read)."""
    for path in sorted((ROOT / "synapse_git").rglob("*")):
        # The model's vocabulary is data: every character the model knows, § included.
        if path.name == "vocab.txt":
            continue
        # The example notes are a made-up shop's memories, about its own docs.
        if path.name == "memories.jsonl":
            continue
        if path.is_file() and "__pycache__" not in path.parts:
            yield path, path.read_text(encoding="utf-8")


def test_no_module_cites_a_specification_outside_the_repository() -> None:
    for path, text in package_texts():
        for mark in ("SPEC", "§"):
            assert mark not in text, f"{path.relative_to(ROOT)} mentions {mark!r}"


def test_every_docs_page_the_code_points_at_exists() -> None:
    pointed = 0
    for path, text in package_texts():
        # A quoted "docs/….md" is a memory's source in an example, not a pointer.
        for page in re.findall(r"(?<![\"\w/])docs/([\w-]+\.md)", text):
            pointed += 1
            assert (DOCS / page).is_file(), f"{path.relative_to(ROOT)} points at docs/{page}"
    assert pointed


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def anchors(page: Path) -> set[str]:
    """The heading anchors GitHub makes for `page`."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if heading := re.match(r"#{1,6} (.+)", line):
            text = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(text.replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: p.name)
def test_every_link_to_a_repository_file_resolves(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        assert linked.exists(), f"{page.name} links to {target}, which does not exist"
        assert linked.is_relative_to(ROOT), f"{page.name} links outside the repository"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name} links to a missing heading {target}"
    for named in REPO_PATH.findall(text):
        assert (ROOT / named).exists(), f"{page.name} names {named}, which does not exist"


def test_docs_pages_are_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in readme, f"README.md does not link docs/{page.name}"


def test_the_package_map_names_every_module() -> None:
    plan = (DOCS / "architecture.md").read_text(encoding="utf-8")
    modules = sorted(ROOT.joinpath("synapse_git").rglob("*.py"))
    unnamed = [
        str(path.relative_to(ROOT))
        for path in modules
        if path.name != "__init__.py" and f"`{path.relative_to(ROOT)}`" not in plan
    ]
    assert not unnamed, f"docs/architecture.md does not map {unnamed}"


def test_the_readme_stays_an_introduction() -> None:
    # The reference lives in docs/; the README says what Synapse is and links there.
    size = len((ROOT / "README.md").read_bytes())
    assert size <= 8 * 1024, f"README.md is {size} bytes; move the detail into docs/"
