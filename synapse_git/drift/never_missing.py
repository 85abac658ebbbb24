"""The rules for paths Synapse never calls missing (docs/drift.md, paths).

Build output and caches, temp folders, other accounts' homes, and whatever the
checkout's .gitignore files ignore: gitignore-style patterns matched with
`pathspec`, compiled once per checkout.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

# Never called missing, whatever the checkout: build output, caches, environments.
BUILD_PATTERNS = (
    "build/",
    "dist/",
    "target/",
    "out/",
    "coverage/",
    "htmlcov/",
    "node_modules/",
    "bower_components/",
    "__pycache__/",
    "*.pyc",
    "*.pyo",
    ".venv/",
    "venv/",
    ".env/",
    "*.egg-info/",
    ".eggs/",
    ".tox/",
    ".nox/",
    ".pytest_cache/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".hypothesis/",
    ".coverage",
    ".cache/",
    ".next/",
    ".nuxt/",
    ".parcel-cache/",
    ".gradle/",
    ".terraform/",
    ".idea/",
    ".vscode/",
    ".DS_Store",
    ".git/",
    "obj/",
    "*.o",
    "*.so",
)

# Temp folders, as absolute-path prefixes; $TMPDIR is added at run time.
TEMP_PATTERNS = ("/tmp/", "/var/tmp/", "/var/folders/", "/private/var/folders/", "/private/tmp/")


@dataclass(frozen=True)
class NeverMissing:
    """Paths Synapse never calls missing: build output and caches, temp folders,
    other accounts' homes, and whatever the checkout's .gitignore files ignore."""

    checkout: Path | None
    home: str
    builds: pathspec.GitIgnoreSpec
    temps: tuple[str, ...]
    # folder (relative to the checkout, "" for its root) -> its compiled .gitignore;
    # filled on first need from the path's own ancestor folders, the only ones that
    # can affect it, unless the caller listed the .gitignore files up front.
    ignores: dict[str, pathspec.GitIgnoreSpec | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    complete: bool = False

    @classmethod
    def for_checkout(
        cls,
        checkout: Path | None,
        *,
        gitignores: Iterable[str] | None = None,
        home: str | None = None,
    ) -> NeverMissing:
        """Rules for `checkout` (None: no repository, only the machine-wide rules).

        `gitignores` lists the checkout's .gitignore files relative to it (as git's
        index knows them); when absent, each is read when a path below it is asked."""
        temps = list(TEMP_PATTERNS)
        tmpdir = os.environ.get("TMPDIR")
        if tmpdir:
            temps.append(tmpdir.rstrip("/") + "/")
            temps.append(os.path.realpath(tmpdir).rstrip("/") + "/")
        rules = cls(
            checkout,
            os.path.realpath(home or os.path.expanduser("~")),
            _builds(),
            tuple(temps),
            complete=gitignores is not None,
        )
        for name in gitignores or ():
            rules.ignores[posixpath.dirname(name)] = rules._read(posixpath.dirname(name))
        return rules

    def _read(self, folder: str) -> pathspec.GitIgnoreSpec | None:
        if self.checkout is None:
            return None
        try:
            text = (self.checkout / folder / ".gitignore").read_text(
                encoding="utf-8", errors="replace"
            )
        except OSError:
            return None
        return _compile(text.splitlines())

    def _spec(self, folder: str) -> pathspec.GitIgnoreSpec | None:
        if folder not in self.ignores:
            self.ignores[folder] = None if self.complete else self._read(folder)
        return self.ignores[folder]

    def skips(self, path: str) -> bool:
        """True when `path` (as `find_paths` gives it) must never be called missing."""
        if path.startswith("~/"):
            return self._relative_skips(path[2:])
        if path.startswith("/"):
            return self._absolute_skips(path)
        return self._relative_skips(path) or self._ignored(path)

    def _absolute_skips(self, path: str) -> bool:
        probe = path if path.endswith("/") else path + "/"
        if self.checkout is not None:
            # Inside the checkout only its own rules apply, even when it sits in /tmp.
            root = str(self.checkout).rstrip("/") + "/"
            if probe.startswith(root):
                inner = path[len(root) :]
                return bool(inner) and (self._relative_skips(inner) or self._ignored(inner))
        if probe.startswith(self.temps):
            return True
        parts = [part for part in path.split("/") if part]
        if len(parts) >= 2 and parts[0] in ("home", "Users"):
            own = self.home.rstrip("/") + "/"
            if not probe.startswith(own) and not own.startswith("/" + "/".join(parts[:2]) + "/"):
                return True
        return self._relative_skips(path.lstrip("/"))

    def _relative_skips(self, path: str) -> bool:
        bare = path.rstrip("/")
        # With a trailing slash a path matches both file and folder patterns: a
        # missing path may have been either, and one match is half the work.
        return bool(self.builds.match_file(bare + "/"))

    def _ignored(self, path: str) -> bool:
        bare = path.rstrip("/")
        if self.checkout is None or bare.startswith("../"):
            return False
        parts = bare.split("/")
        # Deepest .gitignore first: it has the last word, as in git.
        for depth in range(len(parts) - 1, -1, -1):
            folder = "/".join(parts[:depth])
            spec = self._spec(folder)
            if spec is None:
                continue
            inner = "/".join(parts[depth:])
            verdict = spec.check_file(inner + "/").include
            if verdict is not None:
                return bool(verdict)
        return False


def _compile(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    # pathspec is imported on first use: finding paths in text does not need it.
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


@cache
def _builds() -> pathspec.GitIgnoreSpec:
    return _compile(BUILD_PATTERNS)
