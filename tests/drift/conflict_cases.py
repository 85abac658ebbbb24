"""A labeled set of memory pairs: (older, newer). Shared by the conflict tests and
the recall test that checks an unmarked correction is always flagged."""

from __future__ import annotations

CONFLICTS: list[tuple[str, str]] = [
    # numbers, durations, ports, versions in the same slot
    ("The request timeout is 30 s.", "The request timeout is 60 s."),
    ("The API server listens on port 8080.", "The API server listens on port 8081."),
    ("We target Python 3.11 for the service.", "We target Python 3.12 for the service."),
    ("Session cookies expire after 14 days.", "Session cookies expire after 30 days."),
    ("Upload limit is 10 MB per file.", "Upload limit is 25 MB per file."),
    ("Run the test suite with 4 workers in CI.", "Run the test suite with 8 workers in CI."),
    ("The cache TTL is 5 minutes.", "Cache TTL is 300 ms now."),
    ("Retries: 3 attempts with backoff.", "Retries: 5 attempts with backoff."),
    ("Node 18 is required for the frontend build.", "Node 20 is required for the frontend build."),
    ("Postgres runs version 14 in production.", "Postgres runs version 16 in production."),
    ("Coverage must stay above 80%.", "Coverage must stay above 90%."),
    ("The worker pool size is 16.", "Set the worker pool size to 32."),
    ("Redis is on port 6379 locally.", "Locally, Redis is on port 6380."),
    ("We pin Django to 4.2 in requirements.", "We pin Django to 5.0 in requirements."),
    # short identifiers in the same place
    ("Deploy from main.", "Deploy from release."),
    ("Releases are cut from branch main.", "Releases are cut from branch release/2026."),
    ("The API is written in Go.", "The API is written in Rust."),
    ("We use Postgres for the job queue.", "We use Redis for the job queue."),
    ("Format code with black.", "Format code with ruff."),
    ("The default region is eu-west-1.", "The default region is us-east-1."),
    # negation
    ("Run the integration tests in parallel.", "Don't run the integration tests in parallel."),
    ("We use the ORM for migrations.", "We no longer use the ORM for migrations."),
    (
        "The billing service calls the ledger directly.",
        "The billing service never calls the ledger directly.",
    ),
    ("Commit the generated protobuf files.", "Do not commit the generated protobuf files."),
    ("Tests need network access.", "Tests don't need network access."),
    (
        "Squash commits when merging pull requests.",
        "Avoid squashing commits when merging pull requests.",
    ),
    (
        "The nightly job rebuilds the search index.",
        "The nightly job no longer rebuilds the search index.",
    ),
    # antonyms
    (
        "Feature flag new_checkout is enabled in staging.",
        "Feature flag new_checkout is disabled in staging.",
    ),
    ("DEBUG is true in the dev settings.", "DEBUG is false in the dev settings."),
    ("The exporter writes files synchronously.", "The exporter writes files asynchronously."),
    ("Guest users are allowed to upload images.", "Guest users are forbidden to upload images."),
    (
        "Always rebase feature branches before merging.",
        "Never rebase feature branches before merging.",
    ),
    ("Run the linters with autofix.", "Run the linters without autofix."),
    ("Telemetry is on by default.", "Telemetry is off by default."),
    ("The email field is required on signup.", "The email field is optional on signup."),
    # harder phrasings
    ("Staging deploys happen every Friday.", "Staging deploys happen every Tuesday."),
    ("Max connections for the pool: 20.", "The pool allows at most 50 connections."),
    ("We store uploads on S3.", "We store uploads on GCS."),
    ("The docs site is built with MkDocs.", "The docs site is built with Sphinx."),
    ("Logging level in production is INFO.", "Logging level in production is WARNING."),
    ("Password hashing uses bcrypt.", "Password hashing uses argon2."),
    ("The scheduler is disabled on weekends.", "The scheduler runs on weekends."),
    ("Use tabs for indentation in Makefiles.", "Use spaces for indentation in Makefiles."),
    ("Use yarn to install dependencies.", "Use pnpm to install dependencies."),
    ("CI runs on GitHub Actions.", "CI runs on GitLab CI."),
    ("The free plan allows 3 projects.", "The free plan allows 5 projects."),
    ("Backups run daily at 02:00 UTC.", "Backups run daily at 04:00 UTC."),
    ("Image builds take about 10 minutes.", "Image builds take about 2 minutes since caching."),
    ("The mobile app talks to the API over REST.", "The mobile app talks to the API over gRPC."),
]

NON_CONFLICTS: list[tuple[str, str]] = [
    # the same number in different roles
    ("The API server listens on port 8080.", "Keep 8080 retries out of the config, use 3."),
    ("Retry failed jobs 3 times.", "Use 3 replicas for the web tier."),
    ("The request timeout is 30 s.", "Logs are kept 30 days."),
    ("Python 3.11 is required.", "Section 3.11 of the handbook covers on-call."),
    # different numbers for different things
    ("The API server listens on port 8080.", "The metrics exporter listens on port 9090."),
    ("Upload limit is 10 MB per file.", "The request body limit for webhooks is 1 MB."),
    ("The request timeout is 30 s.", "The database connect timeout is 5 s."),
    ("Run the test suite with 4 workers in CI.", "The web tier runs 12 gunicorn workers."),
    ("Postgres runs version 14 in production.", "Redis runs version 7 in production."),
    ("Session cookies expire after 14 days.", "Password reset links expire after 2 hours."),
    ("Node 18 is required for the frontend build.", "Python 3.12 is required for the scripts."),
    ("Staging timeout is 30 s.", "Production timeout is 60 s."),
    # elaborations
    ("Run the tests with pytest.", "Run the tests with pytest -n auto for speed."),
    ("Deploy from main.", "Deploy from main after the CI run is green."),
    ("The request timeout is 30 s.", "The request timeout is 30 s; raise it only for exports."),
    ("We use Postgres for the job queue.", "We use Postgres for the job queue and for sessions."),
    ("Use ruff for linting.", "Use ruff for linting and formatting; configure it in pyproject."),
    (
        "Migrations live in migrations/ and run on deploy.",
        "Migrations run on deploy; never edit an applied one.",
    ),
    # negations about other things
    ("Run the integration tests in parallel.", "Don't run the slow browser tests on every push."),
    ("Commit the lock file.", "Do not commit the .env file."),
    ("Tests need network access.", "Tests don't need the GPU."),
    (
        "The billing service calls the ledger directly.",
        "The reporting service never writes to the ledger.",
    ),
    # antonym words in unrelated statements
    (
        "Feature flag new_checkout is enabled in staging.",
        "The legacy search endpoint is disabled in production.",
    ),
    ("DEBUG is true in the dev settings.", "The healthcheck returns false when Redis is down."),
    (
        "The exporter writes files synchronously.",
        "Webhooks are delivered asynchronously by Celery.",
    ),
    ("Always run the formatter before committing.", "Never log secrets or tokens."),
    # same subject, compatible statements
    ("The API is written in Go.", "The API is written in Go and deployed with Helm."),
    ("The CLI is written in Go.", "The API is written in Go."),
    ("Deploy with make deploy.", "Deploy to staging with make deploy-staging first."),
    ("Use Python 3.12 locally.", "Use Python 3.12 in CI too."),
    ("The cache lives in Redis.", "The cache keys are prefixed with the tenant id."),
    ("Staging deploys from main.", "Production deploys from release."),
    ("Format Python with black.", "Format SQL with sqlfluff."),
    ("The frontend uses React 18.", "The admin UI uses Vue 3."),
    # more hard negatives
    ("Timeout is 30 s for uploads.", "Timeout is 60 s for downloads."),
    (
        "Run unit tests with 4 workers.",
        "Run unit tests with 4 workers and integration tests with 2.",
    ),
    ("Deploys are on Tuesdays.", "Deploys are frozen on Fridays."),
    ("The worker uses Redis 7.", "The worker used Redis 6 before the upgrade."),
    ("Never force-push to main.", "Force-push to your own feature branches is fine."),
    ("Don't use print for logging.", "Use the logging module for logging."),
    ("The API returns 404 for missing items.", "The API returns 410 for deleted items."),
    ("Port 5432 is Postgres.", "Port 6379 is Redis."),
    ("Staging uses 2 replicas.", "Production uses 6 replicas."),
    ("Use Python 3.12.", "Python 3.12.1 fixed the ssl bug."),
    ("The old endpoint /v1/users is deprecated.", "The new endpoint /v2/users is live."),
    ("Install dependencies with uv.", "Install system packages with apt."),
    ("The scheduler is disabled on weekends.", "The scheduler is disabled on holidays too."),
    ("Tests run in 4 minutes on CI.", "Lint runs in 1 minute on CI."),
    # found by the benchmark: a word of its own on each side means two things
    (
        "Run the nightly audit job before deploys.",
        "Don't run the nightly cache job before deploys.",
    ),
    (
        "The audit job is enabled for the billing area.",
        "The cache job is disabled for the billing area.",
    ),
    (
        "Never run the export job during business hours.",
        "Run the import job during business hours.",
    ),
]

# Pairs written as they come up on a real project (a web framework's repository):
# notes that differ only in their subject (another file, another version's
# subject, another named thing, another quantity) next to true corrections.
# The rules were tuned on the DEV half only; the TEST half checks they hold.
SUBJECT_CONFLICTS_DEV: list[tuple[str, str]] = [
    (
        "Type hints in src/flask/helpers.py are checked by mypy.",
        "Type hints in src/flask/helpers.py are not checked by mypy.",
    ),
    ("Flask 3.1 dropped Python 3.8.", "Flask 3.1 dropped Python 3.9."),
    (
        "tests/test_logging.py has a flaky test on Windows.",
        "tests/test_logging.py has no flaky test on Windows.",
    ),
    ("The docs build with Sphinx 7.2.", "The docs build with Sphinx 8.0."),
    ("MANIFEST.in includes the examples folder.", "MANIFEST.in excludes the examples folder."),
    ("requirements/dev.in pins pytest to 8.1.", "requirements/dev.in pins pytest to 8.3."),
    (
        "The .github/CODEOWNERS file names two reviewers for src/.",
        "The .github/CODEOWNERS file names three reviewers for src/.",
    ),
    ("The test matrix covers Python 3.9 to 3.12.", "The test matrix covers Python 3.9 to 3.13."),
    ("Werkzeug 3.0 is the minimum for Flask.", "Werkzeug 3.1 is the minimum for Flask."),
    (
        "The session cookie name defaults to session.",
        "The session cookie name defaults to flask_session.",
    ),
    ("Run pre-commit with the ruff hook enabled.", "Run pre-commit with the ruff hook disabled."),
    ("The CLI loads .env files by default.", "The CLI does not load .env files by default."),
    ("Blueprint tests use the app fixture.", "Blueprint tests no longer use the app fixture."),
    ("The max content length is 16 MB.", "The max content length is 32 MB."),
    ("Tox runs 6 environments in CI.", "Tox runs 8 environments in CI."),
    (
        "Releases are tagged from the stable branch.",
        "Releases are tagged from the main branch.",
    ),  # a path as the value a clause gives stays a value
    ("The app config lives in src/config.py.", "The app config lives in src/settings.py."),
    (
        "Settings are read from config/app.toml at startup.",
        "Settings are read from config/base.toml at startup.",
    ),
]

SUBJECT_NON_CONFLICTS_DEV: list[tuple[str, str]] = [
    (
        "Type hints in src/flask/helpers.py are checked by mypy.",
        "Type hints in src/flask/views.py are checked by mypy.",
    ),
    ("Flask 3.1 dropped Python 3.8.", "Flask 3.0 dropped Python 3.7."),
    (
        "A flaky test in tests/test_logging.py fails on Windows.",
        "A flaky test in tests/test_blueprints.py fails on Windows.",
    ),
    ("Click 8.1 is required by the CLI.", "Jinja 3.1 is required by the templates."),
    ("MANIFEST.in includes the examples folder.", "requirements/dev.in includes the docs extras."),
    ("requirements/dev.in pins pytest to 8.1.", "requirements/docs.in pins sphinx to 7.2."),
    (
        "The .github/CODEOWNERS file names two reviewers.",
        "The docs/CODEOWNERS file names three reviewers.",
    ),
    ("Werkzeug 3.0 added the new debugger.", "Werkzeug 2.3 added the new router."),
    (
        "Run `pytest tests/test_views.py` before touching views.",
        "Run `pytest tests/test_helpers.py` before touching helpers.",
    ),
    (
        "The json provider lives in src/flask/json/provider.py.",
        "The json tag lives in src/flask/json/tag.py.",
    ),
    ("Python 3.8 support ended in Flask 3.1.", "Python 3.7 support ended in Flask 3.0."),
    ("The tutorial app uses SQLite 3.", "The tutorial app uses Jinja 3."),
    ("Coverage for src/flask/app.py is 98%.", "Coverage for src/flask/cli.py is 85%."),
    ("Issue 5123 is about async views.", "Issue 5210 is about async views."),
    ("The flaskr example has 12 tests.", "The celery example has 3 tests."),
    (
        "Signals are disabled in the testing config.",
        "Signals are enabled in the app factory example.",
    ),
]

SUBJECT_CONFLICTS_TEST: list[tuple[str, str]] = [
    (
        "src/flask/sansio/app.py holds the routing logic.",
        "src/flask/sansio/app.py no longer holds the routing logic.",
    ),
    ("Flask 3.0 requires Werkzeug 3.0.", "Flask 3.0 requires Werkzeug 2.3."),
    ("The docs/LICENSE file is BSD-3-Clause.", "The docs/LICENSE file is MIT."),
    (
        "Pin blinker to 1.6 in requirements/tests.in.",
        "Pin blinker to 1.8 in requirements/tests.in.",
    ),
    ("The async extra installs asgiref 3.2.", "The async extra installs asgiref 3.7."),
    ("CI runs on ubuntu-latest.", "CI runs on ubuntu-22.04."),
    ("The debugger PIN is enabled in development.", "The debugger PIN is disabled in development."),
    ("tests/test_async.py is skipped on PyPy.", "tests/test_async.py is not skipped on PyPy."),
    ("The default SEND_FILE_MAX_AGE is 12 hours.", "The default SEND_FILE_MAX_AGE is 0 hours."),
    ("Templates auto-reload in debug mode.", "Templates never auto-reload in debug mode."),
    ("Use flit to build the sdist.", "Use hatch to build the sdist."),
    ("The nightly docs job runs at 03:00 UTC.", "The nightly docs job runs at 05:00 UTC."),
    ("Type checking uses mypy 1.8 in CI.", "Type checking uses mypy 1.11 in CI."),
    ("The test suite takes 40 seconds.", "The test suite takes 90 seconds."),
    ("Contributors sign the CLA.", "Contributors don't sign the CLA."),
    ("The json provider sorts keys.", "The json provider doesn't sort keys."),
]

SUBJECT_NON_CONFLICTS_TEST: list[tuple[str, str]] = [
    (
        "src/flask/sansio/app.py holds the routing logic.",
        "src/flask/sansio/blueprints.py holds the routing logic.",
    ),
    ("Flask 3.0 requires Werkzeug 3.0.", "Quart 0.19 requires Werkzeug 3.0."),
    ("The docs/LICENSE file is BSD-3-Clause.", "The .github/CODEOWNERS file is short."),
    (
        "Pin blinker to 1.6 in requirements/tests.in.",
        "Pin blinker to 1.8 in requirements/typing.in.",
    ),
    (
        "Flask 2.3 deprecated the json_encoder attribute.",
        "Flask 2.2 deprecated the app.before_first_request hook.",
    ),
    (
        "Tests for the CLI live in tests/test_cli.py.",
        "Tests for the config live in tests/test_config.py.",
    ),
    ("The debugger PIN is enabled in development.", "The reloader is disabled in production."),
    ("tests/test_async.py is skipped on PyPy.", "tests/test_signals.py is skipped on PyPy."),
    ("Mypy 1.8 checks src/flask/.", "Pyright 1.1 checks tests/typing/."),
    ("Werkzeug 3.0 removed the url_quote helper.", "Werkzeug 2.1 removed the safe_str_cmp helper."),
    ("The tutorial has 9 chapters.", "The patterns section has 30 pages."),
    ("The nightly docs job runs at 03:00 UTC.", "The weekly link check runs at 05:00 UTC."),
    ("Python 3.13 support landed in Flask 3.1.", "Python 3.12 support landed in Flask 3.0."),
    (
        "A race in tests/test_reqctx.py fails on macOS.",
        "A race in tests/test_appctx.py fails on macOS.",
    ),
    ("src/flask/cli.py is missing type hints.", "src/flask/ctx.py is missing type hints."),
    ("Release 3.0.1 fixed the session bug.", "Release 3.0.2 fixed the redirect bug."),
]

SUBJECT_CONFLICTS = SUBJECT_CONFLICTS_DEV + SUBJECT_CONFLICTS_TEST
SUBJECT_NON_CONFLICTS = SUBJECT_NON_CONFLICTS_DEV + SUBJECT_NON_CONFLICTS_TEST
