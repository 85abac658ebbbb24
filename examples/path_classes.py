"""What drift says about the paths in notes written as a developer of a web
framework would write them: stale precision and recall, and the unverified
findings, which here are all noise (the notes name no file still to be written).

    python examples/path_classes.py REPO ANCHOR

REPO is a clone of pallets/flask with its history; ANCHOR a commit of December
2023 (708d62d7172a30c5b0ace1d212c5a3bc2b53b98c). The notes are remembered with
the checkout at ANCHOR, then drift is asked at the clone's HEAD. Everything
happens in a temporary clone and a temporary store, removed afterwards. Prints
the figures, the CPU and wall time of the check, and the load average.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import arguments

# (note, True when a path it names existed at ANCHOR and is gone at HEAD)
NOTES: list[tuple[str, bool]] = [
    # gone since the anchor
    ("Dev pins are in requirements/dev.txt, compiled from requirements/dev.in", True),
    ("tox.ini defines the py3x, style, typing and docs environments", True),
    ("Contributors read CONTRIBUTING.rst before opening a pull request", True),
    ("The project page on PyPI renders README.rst", True),
    ("The minimum-version pins live in requirements-skip/tests-min.in", True),
    ("All pins are compiled from requirements/*.in with pip-compile", True),
    ("Security reports go through .github/SECURITY.md", True),
    ("Dependabot bumps actions monthly (.github/dependabot.yml)", True),
    ("Typing fixtures are in tests/typing/typing_route.py", True),
    ("LICENSE.rst is the BSD-3-Clause text", True),
    ("The security page of the docs is docs/security.rst", True),
    ("The theme shows docs/_static/flask-vertical.png on the index", True),
    ("The code of conduct is CODE_OF_CONDUCT.md at the root", True),
    ("`requirements/typing.txt` pins mypy and pyright", True),
    # still there
    ("The app object is in src/flask/app.py; its I/O-free half is src/flask/sansio/app.py", False),
    ("Blueprint registration is in src/flask/sansio/blueprints.py", False),
    ("tests/test_cli.py::test_run_cert_path is the slowest CLI test", False),
    ("The error handler example is at tests/test_user_error_handler.py:20", False),
    ("The JSON provider is src/flask/json/provider.py", False),
    ("Config.from_file is tested with tests/static/config.toml", False),
    ("The tutorial is examples/tutorial/flaskr/ (schema: flaskr/schema.sql)", False),
    ("Test modules are named test_*.py", False),
    ("Every docs page is one of docs/*.rst", False),
    ("The nginx guide is docs/deploying/nginx.rst", False),
    ("CHANGES.rst gets an entry for every user-visible change", False),
    (".pre-commit-config.yaml runs ruff and the pre-commit hooks", False),
    ("pyproject.toml holds the build settings (flit_core)", False),
    ("tests/conftest.py provides the app and client fixtures", False),
    ("tests/test_apps/.flaskenv sets FLASK_APP for the CLI tests", False),
    ("sansio/ holds the parts that do no I/O", False),
    ("json/tag.py has the tagged JSON serializer for sessions", False),
    ("hello.py is the smallest app the CLI tests load", False),
    ("The session is tested in tests/test_basic.py::test_session", False),
    ("Dispatch errors surface at src/flask/app.py:1400:9", False),
    # not paths, or not this checkout's
    ("Templates are .html files rendered by Jinja; only .py files are linted", False),
    ("Routes like /login and /api/v1/users in the docs are examples", False),
    ("Views are sync; async/await views run in a thread", False),
    ("The session interface is read/write; the client/server split is Werkzeug's", False),
    ("Upstream is pallets/flask; the server side is pallets/werkzeug", False),
    ("Responses default to text/html; jsonify gives application/json", False),
    ("The docs say to set FLASK_APP to path/to/app.py", False),
    ("The docs' larger layout is yourapplication/__init__.py plus views", False),
    ("Flask 3.0.0 was released on 2023/09/30 and supports Werkzeug 3.0/3.1", False),
    ("My local overrides are in ~/.config/flask/dev.env", False),
    ("Production serves it behind /etc/nginx/sites-enabled/flaskapp", False),
    ("The server writes /var/log/flask/app.log", False),
    ("Coverage HTML goes to htmlcov/index.html and wheels to dist/", False),
    ("The pipeline is CI/CD on GitHub Actions with actions/checkout", False),
    ("foo/bar.py in the docs is a placeholder module", False),
    ("There is no setup.py: the build is pyproject.toml only", False),
    ("The project no longer uses setup.cfg", False),
    ("`{name}.py` and <module>.py stand for any module", False),
]


def main() -> int:
    parser = arguments.parser(__doc__)
    parser.add_argument("source", type=Path, metavar="REPO")
    parser.add_argument("anchor", metavar="ANCHOR")
    args = parser.parse_args()
    source, anchor = args.source.resolve(), args.anchor
    known = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "--verify", "--quiet", f"{anchor}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if known.returncode != 0:
        parser.error(f"{source} is not a git repository holding commit {anchor}")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SYNAPSE_DATA"] = str(Path(tmp, "data"))
        os.environ["SYNAPSE_SEMANTIC"] = "off"
        repo = Path(tmp, "repo")
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        subprocess.run(["git", "checkout", "-q", anchor], cwd=repo, check=True)

        from synapse_git.service import Synapse

        svc = Synapse()
        scope = svc.scope(repo)
        ids = {svc.remember(body, scope).id: stale for body, stale in NOTES}
        subprocess.run(["git", "checkout", "-q", head], cwd=repo, check=True)
        scope = svc.scope(repo)
        cpu, wall = time.process_time(), time.perf_counter()
        report = svc.drift(scope, ["stale", "unverified"])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    flagged = {i for f in report.findings if f.kind == "stale" for i in f.ids}
    unverified = [f for f in report.findings if f.kind == "unverified"]
    truth = {i for i, stale in ids.items() if stale}
    hits = len(flagged & truth)
    precision = hits / len(flagged) if flagged else 1.0
    recall = hits / len(truth) if truth else 1.0
    print(f"notes {len(NOTES)}, stale by label {len(truth)}")
    print(f"stale: flagged {len(flagged)}, precision {precision:.2f}, recall {recall:.2f}")
    print(f"unverified findings (noise here): {len(unverified)}")
    for finding in unverified:
        print(f"  {finding.detail}")
    for memory in sorted(flagged - truth):
        print(f"  false stale: memory {memory}")
    for memory in sorted(truth - flagged):
        print(f"  missed: memory {memory}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"drift check: {cpu:.2f} s CPU, {wall:.2f} s wall; load average {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
