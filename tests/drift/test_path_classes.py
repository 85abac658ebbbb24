"""What is a path, and how each kind is checked (docs/drift.md, paths): absolute and
home paths, tracked paths in folders named like build output, sparse checkouts,
globs, pytest node ids and line numbers, files said to be absent, and words that
only look like paths. The commit hook (a real `git commit` through the installed
hook) and `synapse memory drift` are run on the same fixtures and must agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git

from synapse_git.drift.paths import absent_paths, find_paths, weak
from synapse_git.drift.short_forms import matching, pattern
from synapse_git.drift.staleness import CheckoutPaths
from synapse_git.git.project_scope import resolve as resolve_scope

# -- what the finder takes ------------------------------------------------------------

FOUND = [
    ("tests/test_cli.py::test_x fails on Windows", ["tests/test_cli.py"]),
    ("run tests/test_cli.py::TestApp::test_y[a-b] alone", ["tests/test_cli.py"]),
    ("`tests/test_cli.py::test_x` is flaky", ["tests/test_cli.py"]),
    ("raised at exceptions.py:117", ["exceptions.py"]),
    ("raised at src/pip/_internal/exceptions.py:117:5.", ["src/pip/_internal/exceptions.py"]),
    ("pins are compiled from requirements/*.in", ["requirements/*.in"]),
    ("type hints cover src/**/*.py", ["src/**/*.py"]),
    ("the guides are docs/*.md", ["docs/*.md"]),
    ("tests are named test_*.py", ["test_*.py"]),
    ("`**src/app.py**` is the entry point", ["src/app.py"]),
    (
        "wheels are built in src/pip/_internal/operations/build/wheel.py",
        ["src/pip/_internal/operations/build/wheel.py"],
    ),
    ("the app ships .env.example", [".env.example"]),
    ("secrets stay in .env", [".env"]),
    ("the helper was removed from src/utils.py", ["src/utils.py"]),
    ("remember to remove build.sh before the release", ["build.sh"]),
    ("use pyproject.toml instead of setup.py", ["pyproject.toml"]),
    ("Without tests/conftest.py the fixtures are missing", ["tests/conftest.py"]),
    ("No changes to src/app.py are needed", ["src/app.py"]),
    ("src/app.py was removed from the coverage run", ["src/app.py"]),
]

NOT_PATHS = [
    "templates are .html files",
    "only .py and .pyi files are linted",
    "`.pyc` files are ignored",
    "all *.py files are formatted",
    "**bold** and *emphasis*",
    "2*3/4 is not a path",
    "write it as path/to/file.py",
    "use `path/to/your/config.yaml`",
    "name it <name>.py",
    "published to {version}/",
    "the layout is src/.../models.py",
    "$PROJECT_ROOT/src/app.py holds it",
    "read/write, input/output, client/server, async/await",
    "fork pypa/pip and pallets/flask",
    "returns application/vnd.api+json",
    "shipped on 2024/03/01 as 24.0",
]

ABSENT = [
    ("there is no tox.ini", ["tox.ini"]),
    ("There's no `tox.ini` here.", ["tox.ini"]),
    ("we do not have a setup.py", ["setup.py"]),
    ("we don't use setup.cfg any more", ["setup.cfg"]),
    ("setup.py was removed in 2023", ["setup.py"]),
    ("tox.ini has been deleted", ["tox.ini"]),
    ("the project no longer uses tox.ini", ["tox.ini"]),
    ("requirements.txt no longer exists; see pyproject.toml", ["requirements.txt"]),
    ("we dropped Pipfile", ["Pipfile"]),
    ("use pyproject.toml instead of setup.py", ["setup.py"]),
    ("The changelog is Changes.md (not CHANGES.md).", ["CHANGES.md"]),
    ("Settings live in app.toml, not the config.ini file.", ["config.ini"]),
]


@pytest.mark.parametrize(("text", "paths"), FOUND)
def test_the_finder_takes(text: str, paths: list[str]) -> None:
    assert find_paths(text) == paths


@pytest.mark.parametrize("text", NOT_PATHS)
def test_the_finder_leaves_out(text: str) -> None:
    assert find_paths(text) == []


@pytest.mark.parametrize(("text", "paths"), ABSENT)
def test_a_file_said_to_be_absent_is_not_checked(text: str, paths: list[str]) -> None:
    assert absent_paths(text) == paths
    assert not set(paths) & set(find_paths(text))


def test_the_absence_is_of_that_path_only() -> None:
    text = "There is no tox.ini: lint settings live in setup.cfg"
    assert find_paths(text) == ["setup.cfg"]


@pytest.mark.parametrize(
    ("path", "is_weak"),
    [
        ("pip/_internal", True),
        ("api/v1/users", True),
        ("foo/bar.py", True),
        ("src/app", True),
        ("src/app.py", False),
        (".github/CODEOWNERS", False),
        ("Makefile", False),
    ],
)
def test_shapes_that_do_not_make_a_file(path: str, is_weak: bool) -> None:
    assert weak(path) == is_weak


# -- drift and the commit hook, on the same fixtures ----------------------------------

FILES = {
    "src/pip/_internal/operations/build/wheel.py": "wheel = 1\n",
    "src/pip/_internal/operations/build/metadata.py": "meta = 1\n",
    "src/pip/_internal/exceptions.py": "class E(Exception): ...\n",
    "src/repro/app.py": "app = 1\n",
    "etc/nginx/sites-enabled/app": "server {}\n",
    "tests/test_cli.py": "def test_x(): ...\n",
    "requirements/dev.in": "pytest\n",
    "requirements/docs.in": "sphinx\n",
    "docs/deploy.md": "deploy\n",
    "tox.ini": "[tox]\n",
    "README.md": "readme\n",
}


def _remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def _drift(repo: Path) -> dict[int, set[str]]:
    """memory id -> the kinds of finding `synapse memory drift` gives it (paths only)."""
    done = run_cli("memory", "drift", "--json", "--kind", "stale,unverified", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    found: dict[int, set[str]] = {}
    for finding in json.loads(done.stdout)["findings"]:
        for memory in finding["ids"]:
            found.setdefault(memory, set()).add(finding["kind"])
    assert (done.returncode == 1) == any("stale" in kinds for kinds in found.values())
    return found


def _hooked(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo", FILES)
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    return repo


# (memory body, the paths the commit removes, whether the memory is made stale)
AGREEMENT = [
    # a tracked file under a folder named build/ is a file like any other
    (
        "Wheels are built in src/pip/_internal/operations/build/wheel.py",
        ["src/pip/_internal/operations/build/wheel.py"],
        True,
    ),
    ("The build steps are in `operations/build/`", ["src/pip/_internal/operations/build"], True),
    # absolute paths: inside the checkout, checked as the relative path
    (
        "Errors are in {repo}/src/pip/_internal/exceptions.py",
        ["src/pip/_internal/exceptions.py"],
        True,
    ),
    # outside it, another machine: never stale, never blocking
    ("The site is enabled in /etc/nginx/sites-enabled/app", ["etc/nginx/sites-enabled/app"], False),
    ("The repro lives in ~/src/repro/app.py", ["src/repro/app.py"], False),
    # the file part of a node id and of path:line
    ("tests/test_cli.py::test_x is flaky on Windows", ["tests/test_cli.py"], True),
    ("The error is raised at exceptions.py:117", ["src/pip/_internal/exceptions.py"], True),
    # a glob: broken when nothing matches any more
    ("Pins are compiled from requirements/*.in", ["requirements/dev.in"], False),
    (
        "Pins are compiled from requirements/*.in",
        ["requirements/dev.in", "requirements/docs.in"],
        True,
    ),
    ("Docs pages are docs/*.md", ["docs/deploy.md"], True),
    # a memory that says the file is absent is not stale for it
    ("There is no tox.ini any more; lint settings are in README.md", ["tox.ini"], False),
]


@pytest.mark.parametrize(("body", "removed", "stale"), AGREEMENT)
def test_the_commit_hook_and_drift_agree(
    tmp_path: Path, body: str, removed: list[str], stale: bool
) -> None:
    repo = _hooked(tmp_path)
    memory = _remember(repo, body.format(repo=repo))
    assert memory not in _drift(repo)  # fine before the commit
    git(repo, "rm", "-q", "-r", *removed)
    done = run_git(repo, "commit", "-m", "remove")
    assert (done.returncode != 0) == stale, done.stdout
    assert (f"memory {memory}:" in done.stdout) == stale, done.stdout
    if stale:
        git(repo, "commit", "-q", "--no-verify", "-m", "remove anyway")
    after = _drift(repo)
    assert ("stale" in after.get(memory, set())) == stale, after
    assert "unverified" not in after.get(memory, set()), after


def test_a_glob_that_never_matched_is_unverified_not_stale(tmp_path: Path) -> None:
    repo = _hooked(tmp_path)
    memory = _remember(repo, "Fixtures will live in fixtures/*.json")
    assert _drift(repo) == {memory: {"unverified"}}


def test_a_pattern_with_no_extension_that_never_matched_is_no_path(tmp_path: Path) -> None:
    """`release/*` names branches, not files: nothing matched it when it was written."""
    repo = _hooked(tmp_path)
    _remember(repo, "Deploys go out from release/* with make ship")
    assert _drift(repo) == {}


def test_sparse_checkout_paths_are_present_everywhere(tmp_path: Path) -> None:
    repo = _hooked(tmp_path)
    memory = _remember(repo, "How to deploy is in docs/deploy.md")
    folder = _remember(repo, "The guides are in `docs/`")
    git(repo, "sparse-checkout", "set", "src")
    assert not (repo / "docs/deploy.md").exists()
    assert _drift(repo) == {}
    session = run_cli("hook", "session", cwd=repo)
    assert "How to deploy is in docs/deploy.md" in session.stdout
    assert "The guides are in" in session.stdout
    assert "stale" not in session.stdout
    (repo / "src/repro/app.py").write_text("app = 2\n", encoding="utf-8")
    git(repo, "add", "src/repro/app.py")
    done = run_git(repo, "commit", "-m", "edit in the cone")
    assert done.returncode == 0, done.stdout
    assert "synapse" not in done.stdout, done.stdout
    assert {memory, folder}.isdisjoint(_drift(repo))


def test_a_sparse_index_is_read_through_git(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    git(repo, "sparse-checkout", "set", "--sparse-index", "src")
    checkout = CheckoutPaths(resolve_scope(repo))
    assert checkout.check("docs/deploy.md").status == "present"
    assert checkout.check("docs/").status == "present"
    assert checkout.check("docs/gone.md").status == "unverified"


def test_a_tracked_file_deleted_from_the_working_files_is_still_stale(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    git(repo, "sparse-checkout", "set", "src")
    (repo / "src/repro/app.py").unlink()
    checkout = CheckoutPaths(resolve_scope(repo))
    assert checkout.check("src/repro/app.py").status == "stale"
    assert checkout.check("docs/deploy.md").status == "present"


def test_never_missing_rules_apply_to_untracked_paths_only(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {**FILES, "generated/schema.py": "s = 1\n"})
    (repo / ".gitignore").write_text("*.log\ngenerated/\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "rm", "-q", "src/pip/_internal/operations/build/wheel.py", "generated/schema.py")
    git(repo, "commit", "-q", "-m", "drop")
    checkout = CheckoutPaths(resolve_scope(repo))
    assert checkout.check("src/pip/_internal/operations/build/wheel.py").status == "stale"
    # tracked once, though the .gitignore now ignores its folder
    assert checkout.check("generated/schema.py").status == "stale"
    assert checkout.check("build/lib/app.py").status == "skipped"  # never tracked
    assert checkout.check("server.log").status == "skipped"
    assert checkout.check("node_modules/").status == "skipped"


def test_home_and_absolute_paths_are_never_stale_nor_hidden(tmp_path: Path) -> None:
    repo = _hooked(tmp_path)
    bodies = [
        "The site is enabled in /etc/nginx/sites-enabled/app-that-is-not-here",
        "The repro lives in ~/src/repro-elsewhere/app.py",
        "The API answers on /api/v1/users and /login",
    ]
    ids = [_remember(repo, body) for body in bodies]
    assert _drift(repo) == {}
    session = run_cli("hook", "session", cwd=repo)
    for body in bodies:
        assert body in session.stdout
    assert ids


def test_a_pattern_cannot_make_matching_blow_up() -> None:
    # Repeated `**/` would nest repeats in the expression: exponential on a miss.
    assert pattern("src/" + "**/" * 25 + "x.py", rooted=False).pattern.count("*") == 2
    assert pattern("***/a.py", rooted=True).pattern == pattern("**/a.py", rooted=True).pattern
    deep = "src/" + "a/" * 400 + "y.pyc"
    assert matching("src/" + "**/" * 25 + "x.py", [deep], rooted=False) == []
    # Starrier than anyone writes: not taken for a pattern at all.
    assert find_paths("src/" + "**/" * 25 + "x.py") == []
    assert find_paths("src/" + "*a" * 12 + ".py") == []
    assert find_paths("see " + "x" * 300 + "/*.py") == []


# Notes as people write them in a project, none of which names a file gone from
# the checkout nor one still to be written: every stale or unverified finding on
# them is noise.
QUIET_NOTES = [
    "Templates are .html files; only .py and .pyi files are linted",
    "The API answers on /api/v1/users, /login and /healthz",
    "Views may be sync or async/await; sessions are read/write",
    "The client/server split and input/output streams are Werkzeug's",
    "Upstream is pallets/flask; we vendor nothing from psf/black",
    "Responses default to text/html; errors are application/problem+json",
    "Set FLASK_APP to path/to/app.py, or name it <module>.py",
    "The docs' larger layout is yourapplication/__init__.py plus views",
    "A module like foo/bar.py stands for any module in the docs",
    "Released 3.0.0 on 2023/09/30; supports Werkzeug 3.0/3.1",
    "My overrides are in ~/.config/app/dev.env and ~/src/repro/app.py",
    "Production serves behind /etc/nginx/sites-enabled/app; logs go to /var/log/app/app.log",
    "Coverage goes to htmlcov/index.html; wheels to dist/ and build/",
    "CI/CD runs on GitHub Actions with actions/checkout and actions/setup-python",
    "There is no setup.py: the build is pyproject.toml only",
    "The project no longer uses tox.ini; lint settings are in pyproject.toml",
    "setup.cfg was removed in the move to pyproject.toml",
    "The internals are in pip/_internal; wheels are built in operations/build/",
    "tests/test_cli.py::test_run_cert_path is slow; errors surface at app.py:140:9",
    "Pins are compiled from requirements/*.in; test modules are test_*.py",
    "Shared helpers will go in my_helpers/utils one day",
]


@pytest.mark.slow
def test_realistic_notes_give_no_path_noise(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "setup.py": "setup()\n",
            "setup.cfg": "[metadata]\n",
            "tox.ini": "[tox]\n",
            "pyproject.toml": "[project]\n",
            "src/pip/_internal/operations/build/wheel.py": "wheel = 1\n",
            "src/app.py": "app = 1\n",
            "tests/test_cli.py": "def test_run_cert_path(): ...\n",
            "requirements/dev.in": "pytest\n",
        },
    )
    git(repo, "rm", "-q", "setup.py", "setup.cfg", "tox.ini")
    git(repo, "commit", "-q", "-m", "pyproject only")
    ids = [_remember(repo, note) for note in QUIET_NOTES]
    assert len(ids) == len(QUIET_NOTES)
    assert _drift(repo) == {}
