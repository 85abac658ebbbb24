"""Notes as developers and coding agents write them about a Python project: memory
files with YAML front matter, bullet lists, tool choices, CI schedules, versions
and commands. Pairs are (older, newer), labeled by hand before any rule was run
on them. The DEV half is for tuning; the TEST half is measured once, at the end.
"""

from __future__ import annotations


def note(name: str, description: str, body: str, kind: str = "project") -> str:
    """A memory file as agents keep them: front matter, then the note."""
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n{body}\n"


def feedback(name: str, description: str, rule: str, why: str, how: str) -> str:
    """A feedback memory: the rule, then why and how to apply it."""
    body = f"{rule}\n\n**Why:** {why}\n**How to apply:** {how}"
    return note(name, description, body, "feedback")


# -- dev half --------------------------------------------------------------------------

REAL_CONFLICTS_DEV: list[tuple[str, str]] = [
    (
        note("testing", "How to run the tests", "Tests run with pytest; use `pytest -n auto`."),
        note("test-runner", "Test runner", "Tests run with unittest: `python -m unittest`."),
    ),
    ("We format with black (line length 88).", "We format with ruff now."),
    (
        "- Type checking: only mypy, in strict mode.",
        "- Type checking: mypy and pyright both run in CI.",
    ),
    ("Dependabot checks pip updates weekly.", "Dependabot checks pip updates daily."),
    ("The benchmark workflow runs nightly.", "The benchmark workflow runs weekly on Sunday."),
    (
        "tests/test_proxy.py::test_socks is flaky on macOS.",
        "tests/test_proxy.py::test_socks is stable on macOS now.",
    ),
    ("`make docs` is slow on CI.", "`make docs` is fast on CI since the cache landed."),
    ("Signing commits is required on this repository.", "Signing commits is optional here."),
    ("Direct pushes to main are allowed.", "Direct pushes to main are forbidden; open a PR."),
    ("The package index mirror is public.", "The package index mirror is private (needs a token)."),
    ("We manage dependencies with poetry.", "We manage dependencies with hatch."),
    ("The project uses poetry.", "The project uses uv for locking and installs."),
    ("Minimum supported Python is 3.8.", "Minimum supported Python is 3.9."),
    (
        "pytest is pinned to 8.1.3 in requirements-dev.txt.",
        "pytest is pinned to 8.2.0 in requirements-dev.txt.",
    ),
    (
        note("commands", "Lint and format commands", "- Lint: `ruff check .`\n- Format: `black .`"),
        note("formatting", "Formatter", "- Format: `ruff format .`"),
    ),
    (
        "Coverage is measured with coverage.py and must stay above 95%.",
        "Coverage threshold is 90%.",
    ),
    ("The default timeout is 5 seconds.", "Default timeout: 10 s."),
    ("Run the slow tests with `pytest -m slow`.", "Run the slow tests with `pytest --runslow`."),
    ("Releases happen monthly.", "Releases happen every two weeks."),
    (
        "The nightly job tests against Python 3.13-dev.",
        "The nightly job tests against Python 3.14-dev.",
    ),
    (
        "HTTP/2 support is enabled by default.",
        "HTTP/2 is disabled by default; install the `http2` extra.",
    ),
    (
        note("docs", "Docs are built with Sphinx", "See docs/ for the sources."),
        note("documentation", "Docs are built with MkDocs", "See docs/ for the sources."),
    ),
    (
        "Integration tests hit the real network.",
        "Integration tests never hit the real network; they use a local server.",
    ),
    ("Wheels are built with `python -m build`.", "Wheels are built with `hatch build`."),
    ("Only mypy type-checks the code.", "mypy and pyright type-check the code."),
    ("- CI schedule: nightly at 02:00 UTC", "- CI schedule: weekly on Mondays"),
    ("Docstrings follow the Google style.", "Docstrings follow the NumPy style."),
    ("Import sorting is done by isort.", "Import sorting is done by ruff (rule I)."),
    (
        feedback(
            "test-db",
            "Integration tests use a real database",
            "Integration tests must hit a real Postgres, not mocks.",
            "a mocked test passed while the migration broke production.",
            "start the docker compose Postgres before running them.",
        ),
        feedback(
            "test-db-sqlite",
            "Integration tests use SQLite",
            "Integration tests must use SQLite in memory, not Postgres.",
            "the CI runners have no docker.",
            "set DATABASE_URL=sqlite:// before running them.",
        ),
    ),
    ("Lint with flake8.", "Lint with pylint."),
]

REAL_NON_CONFLICTS_DEV: list[tuple[str, str]] = [
    (
        note("testing", "How to run the tests", "Run `pytest -x` before pushing."),
        note("release", "How releases are cut", "Tag vX.Y.Z on main; the workflow publishes."),
    ),
    (
        note("ci-schedule", "When CI runs", "The full matrix runs on every push to main."),
        note("ci-cache", "CI caching", "CI caches pip downloads between runs."),
    ),
    ("pytest is pinned to 8.1.3.", "We pin pytest==8.1.3 because 8.2 broke the fixtures."),
    ("Format with black.", "black runs in pre-commit with line length 88."),
    ("Tests run with pytest.", "pytest is configured in pyproject.toml under [tool.pytest]."),
    ("Type checking uses mypy.", "mypy runs in strict mode on src/ only."),
    ("We use mypy for type checking.", "We use mypy and pyright for type checking."),
    ("Lint with ruff.", "Format with black."),
    ("The docs workflow runs weekly.", "The test workflow runs on every push."),
    ("Dependabot opens PRs weekly for pip.", "Dependabot opens PRs monthly for GitHub Actions."),
    ("test_socks is flaky on macOS.", "test_http2 is stable on macOS."),
    ("The `brotli` extra is optional.", "The `certifi` dependency is required."),
    ("Python 3.8 support was dropped in 0.28.", "Python 3.7 support was dropped in 0.24."),
    ("Run `make test` for the unit tests.", "Run `make lint` for ruff and mypy."),
    ("Minimum supported Python is 3.9.", "CI tests Python 3.9 through 3.13."),
    (
        "The default timeout is 5 seconds.",
        "The default timeout is 5 s; pass `timeout=None` to disable it.",
    ),
    (
        "Releases are published to PyPI by the release workflow.",
        "Releases are published to PyPI by the release workflow on tag push.",
    ),
    (
        note("formatter", "Code formatting", "We format with ruff format (it replaced black)."),
        note("linting", "Linting", "Lint with ruff check; the rules are in pyproject.toml."),
    ),
    ("Private helpers start with an underscore.", "The public API is re-exported in __init__.py."),
    ("CI is slow on Windows runners.", "Local test runs are fast with -n auto."),
    (
        "The sync client lives in src/pkg/_client.py.",
        "The async client lives in src/pkg/_async.py.",
    ),
    ("- Tests: pytest\n- Lint: ruff\n- Types: mypy", "- Tests: pytest -n auto\n- Docs: mkdocs"),
    ("Never commit directly to main.", "Never commit secrets; use .env locally."),
    ("The nightly build tests Python 3.14-dev.", "The weekly build tests PyPy 3.10."),
    ("Docstrings follow the Google style.", "Docstrings are checked by ruff's pydocstyle rules."),
    ("Use `uv pip install -e .[dev]` to set up.", "Use `uv run pytest` to run the tests."),
    (
        note("proxies", "Proxy support notes", "SOCKS proxies need the socks extra."),
        note("http2", "HTTP/2 notes", "HTTP/2 needs the http2 extra."),
    ),
    ("mypy is pinned to 1.10.0.", "ruff is pinned to 0.4.4."),
    ("We switched from flake8 to ruff in 2023.", "Lint with ruff."),
    (
        "Only maintainers can publish releases.",
        "Maintainers publish releases with the release workflow.",
    ),
    ("Coverage must stay above 95%.", "Coverage is measured with coverage.py on 3 Pythons."),
    (
        feedback(
            "small-prs",
            "Keep pull requests small",
            "Keep each pull request under 400 changed lines.",
            "reviews of large PRs stalled for weeks.",
            "split refactors from behaviour changes.",
        ),
        feedback(
            "changelog",
            "Every PR gets a changelog entry",
            "Add a line to CHANGELOG.md in each pull request.",
            "the release notes are built from it.",
            "use the Unreleased section.",
        ),
    ),
]

# -- held-out half ---------------------------------------------------------------------

REAL_CONFLICTS_TEST: list[tuple[str, str]] = [
    (
        note("package-manager", "How dependencies are managed", "We use pipenv; see Pipfile.lock."),
        note("deps", "Dependency management", "We use poetry; run `poetry install` after pulling."),
    ),
    (
        "Celery beat runs the cleanup task hourly.",
        "Celery beat runs the cleanup task daily at midnight.",
    ),
    (
        "The e2e suite is flaky; rerun failures once.",
        "The e2e suite is stable now; don't rerun failures.",
    ),
    ("Migrations are required to be reversible.", "Migrations are not required to be reversible."),
    ("Static type checks: pyright only.", "Static type checks: pyright and mypy."),
    ("Django is pinned to 4.2 LTS.", "Django is pinned to 5.1."),
    ("The admin site is public.", "The admin site is private, behind the VPN."),
    ("Tests use factory_boy for fixtures.", "Tests use model_bakery for fixtures."),
    (
        "Dependency updates are checked monthly by Renovate.",
        "Renovate checks dependency updates weekly.",
    ),
    ("The API rate limit is 100 requests per minute.", "The API rate limit is 60 requests/minute."),
    ("Sentry is enabled in staging.", "Sentry is off in staging."),
    ("The test database is SQLite.", "The test database is Postgres, same as production."),
    ("Run the linters with `make lint`.", "Run the linters with `tox -e lint`."),
    ("Formatting: black.", "Formatting: ruff format."),
    (
        "Secrets are read from environment variables.",
        "Secrets are read from AWS Secrets Manager, never from environment variables.",
    ),
    ("Translations are compiled at build time.", "Translations are compiled at runtime."),
    (
        "The docker image is based on python:3.11-slim.",
        "The docker image is based on python:3.12-slim.",
    ),
    ("The CI matrix runs nightly.", "The CI matrix runs on every push, not nightly."),
    (
        note(
            "commands",
            "Dev commands",
            "- Dev server: `python manage.py runserver`\n- Tests: `pytest`",
        ),
        note("tests", "Running tests", "- Tests: `python manage.py test`"),
    ),
    ("Schema changes need a DBA review.", "Schema changes don't need a DBA review any more."),
    (
        "Strict mode in mypy is mandatory for new modules.",
        "Strict mode in mypy is optional for new modules.",
    ),
    ("The background worker is slow to start.", "The background worker is fast to start now."),
    ("Feature branches are merged with squash.", "Feature branches are merged with rebase."),
    (
        "Only unit tests run on pull requests.",
        "Unit tests and integration tests run on pull requests.",
    ),
    ("Cache timeout for the dashboard is 15 minutes.", "Dashboard cache timeout: 5 min."),
    ("Static files are served by WhiteNoise.", "Static files are served by nginx."),
    (
        feedback(
            "formatter",
            "Use black for formatting",
            "Format Python code with black before committing.",
            "the CI check rejects unformatted code.",
            "run `black .` or let pre-commit do it.",
        ),
        feedback(
            "formatter-ruff",
            "Use ruff for formatting",
            "Format Python code with ruff format before committing.",
            "black was dropped to have one tool.",
            "run `ruff format .` or let pre-commit do it.",
        ),
    ),
    ("Docs are deployed on every merge to main.", "Docs are deployed weekly, not on every merge."),
]

REAL_NON_CONFLICTS_TEST: list[tuple[str, str]] = [
    (
        note("deps", "Dependency management", "We use poetry; run `poetry install` after pulling."),
        note("deploy", "Deploying", "Deploys run from the main branch through GitHub Actions."),
    ),
    (
        note("celery", "Background tasks", "Celery beat runs the cleanup task hourly."),
        note("reports", "Reports", "The monthly report task runs on the 1st."),
    ),
    ("The e2e suite is flaky on Firefox.", "The unit suite is stable."),
    ("Django is pinned to 4.2.", "Django 4.2 is the LTS we stay on until 2026."),
    ("pytest-django 4.8.0 is pinned.", "We pin pytest-django==4.8.0 in requirements/test.txt."),
    ("Use black for formatting.", "black's line length is 100 here."),
    ("Type checks use mypy.", "Type checks use mypy with the django-stubs plugin."),
    ("We use pytest.", "We use pytest and pytest-xdist."),
    ("Type checking runs mypy.", "Type checking runs mypy, and pyright runs in the editor."),
    ("The admin site is private.", "The public API is documented at /api/docs/."),
    ("Sentry is enabled in production.", "Sentry is disabled in local development."),
    (
        "The API rate limit is 100 requests per minute.",
        "The login endpoint allows 5 attempts per minute.",
    ),
    ("Renovate runs weekly.", "Renovate's automerge is enabled for patch updates."),
    ("Migrations must be reversible.", "Data migrations live in src/data_migrations/."),
    ("Run the linters with `make lint`.", "`make lint` runs ruff and mypy."),
    ("Only maintainers can merge to main.", "Maintainers merge to main after one approval."),
    ("Tests run on SQLite locally.", "Tests run on Postgres in CI."),
    (
        "The docker image is based on python:3.12-slim.",
        "The docker image runs as a non-root user.",
    ),
    ("Nightly backups are kept 30 days.", "Weekly backups are kept 1 year."),
    (
        "- Formatting: black\n- Linting: ruff\n- Types: mypy",
        "- Linting: ruff with the bugbear rules",
    ),
    (
        "Static files are served by WhiteNoise in production.",
        "Static files are served by runserver in development.",
    ),
    ("Celery uses Redis as the broker.", "Celery uses Postgres for the results backend."),
    (
        "Feature branches are merged with squash.",
        "Release branches are merged with a merge commit.",
    ),
    ("The e2e suite runs nightly.", "The e2e suite runs nightly against staging."),
    ("Production deploys are manual.", "Staging deploys are automatic after merge."),
    ("Use Python 3.12 for local development.", "The Docker image uses Python 3.12."),
    ("The worker concurrency is 4.", "The worker concurrency is 4 per CPU in production."),
    (
        note(
            "ci", "CI setup", "CI runs on GitHub Actions; the workflow is .github/workflows/ci.yml."
        ),
        note("ci-matrix", "CI matrix", "CI tests Python 3.10 to 3.13 on Linux and macOS."),
    ),
    (
        feedback(
            "no-mocks",
            "Do not mock the database",
            "Integration tests hit a real Postgres, never a mock.",
            "mocks hid a broken migration.",
            "use the docker compose service.",
        ),
        feedback(
            "fast-tests",
            "Keep unit tests fast",
            "Unit tests must finish in under 30 seconds.",
            "they run on every save.",
            "mark slow ones with @pytest.mark.slow.",
        ),
    ),
]

# Memory files kept side by side in one store: none contradicts another, even
# though each has the same front matter keys (name, description, type).
STORE_NOTES: list[str] = [
    note("testing", "How to run the tests", "Run `pytest -x -n auto` before pushing."),
    note("formatting", "Formatter and linter", "- Format: `ruff format .`\n- Lint: `ruff check .`"),
    note("types", "Type checking", "mypy runs in strict mode on src/ only."),
    note("ci", "CI setup", "CI runs on GitHub Actions on every push to main."),
    note("release", "How releases are cut", "Tag vX.Y.Z on main; the workflow publishes to PyPI."),
    note("python", "Supported Pythons", "Minimum supported Python is 3.9; CI tests 3.9 to 3.13."),
    note("deps", "Dependency management", "We manage dependencies with uv; the lock is uv.lock."),
    note("docs", "Documentation", "Docs are built with MkDocs from docs/."),
    note("pins", "Pinned tools", "pytest is pinned to 8.1.3 in requirements-dev.txt."),
    note("pins-why", "Why pytest is pinned", "We pin pytest==8.1.3 because 8.2 broke fixtures."),
    feedback(
        "no-mocks",
        "Do not mock the database",
        "Integration tests hit a real Postgres, never a mock.",
        "mocks hid a broken migration.",
        "use the docker compose service.",
    ),
    feedback(
        "small-prs",
        "Keep pull requests small",
        "Keep each pull request under 400 changed lines.",
        "reviews of large PRs stalled for weeks.",
        "split refactors from behaviour changes.",
    ),
]
