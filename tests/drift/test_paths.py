"""Path finding in memory text and the never-missing rules, table-driven."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import git, make_repo

from synapse_git.drift.never_missing import NeverMissing
from synapse_git.drift.paths import find_paths

# (text, the one path it names)
POSITIVE = [
    ("billing lives in src/billing/invoice.py", "src/billing/invoice.py"),
    ("run ./scripts/dev.sh first", "scripts/dev.sh"),
    ("see docs/ for the design", "docs/"),
    ("settings are in settings.py", "settings.py"),
    ("compose file docker-compose.yml starts redis", "docker-compose.yml"),
    ("`My Documents/notes.txt` holds the notes", "My Documents/notes.txt"),
    ("the log goes to /var/log/app/server.log", "/var/log/app/server.log"),
    ("keep ~/.config/synapse/config.toml small", "~/.config/synapse/config.toml"),
    ("build with the Makefile", "Makefile"),
    ("the Dockerfile pins python", "Dockerfile"),
    ("edit `src/app/db.py` for the pool", "src/app/db.py"),
    ("(see tests/test_api.py)", "tests/test_api.py"),
    ("error at src/app/main.py:42 again", "src/app/main.py"),
    ("error at src/app/main.py:42:7 again", "src/app/main.py"),
    ("look at README.md.", "README.md"),
    ("config: pyproject.toml; nothing else", "pyproject.toml"),
    ("the hook is .pre-commit-config.yaml", ".pre-commit-config.yaml"),
    ("secrets stay in .env", ".env"),
    ("CI is .github/workflows/ci.yml", ".github/workflows/ci.yml"),
    ("migrations in migrations/0001_initial.py", "migrations/0001_initial.py"),
    ("frontend code in web/src/components/Button.tsx", "web/src/components/Button.tsx"),
    ("Go entry is cmd/server/main.go", "cmd/server/main.go"),
    ("rust crate root src/lib.rs", "src/lib.rs"),
    ("../shared/SPEC.md is the contract", "../shared/SPEC.md"),
    ("the app folder src/app", "src/app"),
    ("helpers in lib/utils", "lib/utils"),
    ("my_pkg/helpers has the glue", "my_pkg/helpers"),
    ("schema in db/schema.sql", "db/schema.sql"),
    ("nginx conf at /etc/nginx/nginx.conf", "/etc/nginx/nginx.conf"),
    ("binary at /usr/local/bin/synapse", "/usr/local/bin/synapse"),
    ("data dir /opt/app/data/", "/opt/app/data/"),
    ("`/Applications/Visual Studio Code.app/` is odd", "/Applications/Visual Studio Code.app/"),
    ("use `src/a b/c.py` carefully", "src/a b/c.py"),
    ("the index.ts exports all", "index.ts"),
    ("package.json scripts", "package.json"),
    ("Cargo.lock is committed", "Cargo.lock"),
    ("go.mod needs go 1.22", "go.mod"),
    ("requirements.txt is pinned", "requirements.txt"),
    ("a/b/c/d.txt is deep", "a/b/c/d.txt"),
    ("templates/base.html has the layout", "templates/base.html"),
    ('"static/css/site.css" is minified', "static/css/site.css"),
    ("'conf/app.ini' controls it", "conf/app.ini"),
    ("[src/x.py]", "src/x.py"),
    ("run `python scripts/seed.py` to seed", "scripts/seed.py"),
    ("run `cat /etc/hosts` first", "/etc/hosts"),
    ("src/app/../core/db.py moved", "src/core/db.py"),
    ("src//app/db.py double slash", "src/app/db.py"),
    ("App.js is the root component", "App.js"),
    ("the proto in api/v1/service.proto", "api/v1/service.proto"),
    ("infra/terraform/main.tf", "infra/terraform/main.tf"),
    ("`Procfile` starts web", "Procfile"),
    ("LICENSE is MIT", "LICENSE"),
    ("charts/app/values.yaml sets replicas", "charts/app/values.yaml"),
    ("in scripts/ we keep tools", "scripts/"),
    ("the notebook analysis.ipynb", "analysis.ipynb"),
    ("tests/fixtures/data.json is big", "tests/fixtures/data.json"),
    ("hooks/pre-commit is a script", "hooks/pre-commit"),
    ("./run.sh builds", "run.sh"),
    ("see src/app.py#L10-L20", "src/app.py"),
    ("~/projects/notes.md", "~/projects/notes.md"),
    ("the .gitignore lists dist", ".gitignore"),
    ("vendor/github.com/pkg/errors/errors.go", "vendor/github.com/pkg/errors/errors.go"),
    ("packages/core/index.js is the entry", "packages/core/index.js"),
    ("bin/synapse-drift", "bin/synapse-drift"),
    # `.in` files and all-capitals file names in a folder
    ("MANIFEST.in lists the examples", "MANIFEST.in"),
    ("pins are in requirements/dev.in", "requirements/dev.in"),
    ("edit `requirements/docs.in` then compile", "requirements/docs.in"),
    ("`MANIFEST.in` ships the tests", "MANIFEST.in"),
    ("reviewers are in .github/CODEOWNERS", ".github/CODEOWNERS"),
    ("`.github/CODEOWNERS` names two reviewers", ".github/CODEOWNERS"),
    ("the licence text is docs/LICENSE", "docs/LICENSE"),
    ("credits in docs/AUTHORS", "docs/AUTHORS"),
    ("owners in team/CODEOWNERS", "team/CODEOWNERS"),
]

# Text that names no path at all.
NEGATIVE = [
    "see https://example.com/docs/api.html",
    "clone git@github.com:owner/repo.git",
    "mail ops@example.com about it",
    "we need Python 3.11.2",
    "tagged v2.0 yesterday",
    "released on 2026/11/29",
    "due 11/29/2026",
    "half is 1/2",
    "a 50/50 split",
    "ratio 16:9 and 4/3",
    "use one and/or the other",
    "the TCP/IP stack",
    "I/O bound",
    "n/a",
    "w/o tests",
    "CI/CD pipeline",
    "UI/UX review",
    "A/B test",
    "returns application/json",
    "Content-Type text/html",
    "an image/png upload",
    "pip install requests>=2.31",
    "npm i @types/node",
    "import github.com/pkg/errors",
    "read/write access",
    "client/server model",
    "yes/no answer",
    "true/false flag",
    "pass/fail gate",
    "Node.js 20 is required",
    "Vue.js app",
    "e.g. this",
    "i.e. that",
    "etc. and so on",
    "call os.path.join here",
    "self.config is loaded",
    "example.com is reserved",
    "visit www.example.org",
    "100 km/h",
    "10 req/s",
    "the ratio was 3/4",
    "version 1.2.3-beta",
    "port 8080",
    "timeout is 30s",
    "ftp://host/file.txt",
    "s3://bucket/key.json",
    "file:///etc/passwd",
    "he/she said",
    "input/output",
    "on/off switch",
    "the / operator",
    "a // comment",
    "100% sure",
    "a.b",
    "config.load() returns",
    "$HOME/bin",
    "10.0.0.1/24 subnet",
    "192.168.1.1",
    "Ctrl+C",
    "the ASP.NET runtime",
    "utf-8/latin-1",
    "ms/op",
    "use C:\\Users\\me\\file.txt",
    "score 0.9/1.0",
    "PR #123 merged",
    "localhost/api/v1",
    "UI/UX and TCP/UDP",
    "the HTTP/REST layer",
    "log in.",
    "plug in, then run",
]


def test_the_tables_are_large_enough() -> None:
    assert len(POSITIVE) >= 60
    assert len(NEGATIVE) >= 60


@pytest.mark.parametrize(("text", "path"), POSITIVE)
def test_a_path_is_found(text: str, path: str) -> None:
    assert find_paths(text) == [path]


@pytest.mark.parametrize("text", NEGATIVE)
def test_prose_is_not_a_path(text: str) -> None:
    assert find_paths(text) == []


def test_paths_come_in_order_once_each() -> None:
    text = "edit src/b.py, then `src/a.py` and ./src/b.py again; docs/ too"
    assert find_paths(text) == ["src/b.py", "src/a.py", "docs/"]


def test_a_quoted_command_yields_its_paths() -> None:
    assert find_paths("run `pytest tests/test_x.py -k slow`") == ["tests/test_x.py"]


# -- never missing ------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "build/lib/x.py",
        "dist/",
        "target/debug/app",
        "node_modules/react/index.js",
        "src/__pycache__/db.cpython-311.pyc",
        ".venv/bin/python",
        "synapse_git.egg-info/PKG-INFO",
        ".tox/py311/",
        ".pytest_cache/v/cache",
        ".mypy_cache/",
        "out/report.html",
        "coverage/index.html",
        "web/node_modules/x/y.js",
        "/tmp/scratch/a.txt",
        "/var/tmp/x.log",
        "/var/folders/ab/T/x",
        "/private/var/folders/ab/T/x",
        "/home/someone-else/notes.txt",
        "/Users/someone-else/notes.txt",
    ],
)
def test_build_output_temp_and_other_homes_are_never_missing(path: str) -> None:
    rules = NeverMissing.for_checkout(None, home="/home/me")
    assert rules.skips(path)


@pytest.mark.parametrize(
    "path", ["src/app.py", "docs/", "/home/me/notes.txt", "/etc/hosts", "builder/x.py"]
)
def test_ordinary_paths_can_be_missing(path: str) -> None:
    rules = NeverMissing.for_checkout(None, home="/home/me")
    assert not rules.skips(path)


def test_tmpdir_is_a_temp_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", "/scratch/me/tmp")
    assert NeverMissing.for_checkout(None).skips("/scratch/me/tmp/a.txt")


def test_the_repositorys_gitignores_are_honoured(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "r",
        {
            ".gitignore": "*.log\n/generated/\n!keep.log\n",
            "sub/.gitignore": "local.cfg\n",
            "src/app.py": "",
        },
    )
    rules = NeverMissing.for_checkout(repo)
    assert rules.skips("server.log")
    assert rules.skips("deep/dir/server.log")
    assert not rules.skips("keep.log")
    assert rules.skips("generated/x.py")
    assert rules.skips("generated/")
    assert not rules.skips("src/generated/x.py")
    assert rules.skips("sub/local.cfg")
    assert rules.skips("sub/deeper/local.cfg")
    assert not rules.skips("local.cfg")
    assert not rules.skips("src/app.py")
    assert rules.skips(str(repo) + "/server.log")
    assert not rules.skips(str(repo) + "/src/gone.py")


def test_gitignores_may_come_from_the_index(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a/.gitignore": "*.tmp\n"})
    git(repo, "status")
    rules = NeverMissing.for_checkout(repo, gitignores=["a/.gitignore"])
    assert rules.skips("a/x.tmp")
    assert not rules.skips("x.tmp")


def test_a_trees_index_of_shorter_forms_names_what_a_pass_over_it_names() -> None:
    from synapse_git.drift.short_forms import Tree, named_among

    files = [
        "src/app/db.py",
        "src/app/db/__init__.py",
        "lib/db.py",
        "db.py",
        "docs/db.py/notes.md",
        "a/a/a",
        "README.md",
        "tests/README.md",
    ]
    tree = Tree(files)
    every = tree.files | tree.folders
    asked = ["db.py", "app/db.py", "db", "a", "a/a", "README.md", "notes.md", "nothing.py", ""]
    for named in asked:
        for rooted in (False, True):
            assert tree.named(named, rooted=rooted) == named_among(named, every, rooted=rooted)
    assert tree.named("db.py", rooted=False) == [
        "db.py",
        "docs/db.py",
        "lib/db.py",
        "src/app/db.py",
    ]


def test_a_memory_names_a_changed_path_by_itself_a_shorter_form_a_folder_or_a_pattern() -> None:
    from synapse_git.drift.branch_findings import _named_changed
    from synapse_git.drift.short_forms import names

    changed = ["src/app/db.py", "docs/guide/intro.md", "README.md"]
    named = [
        "src/app/db.py",
        "app/db.py",
        "db.py",
        "src/app",
        "src/app/",
        "src",
        "guide/",
        "docs/guide/intro.md",
        "intro.md",
        "README.md",
        "pp/db.py",
        "src/ap",
        "docs/*.md",
        "docs/**/*.md",
        "other.py",
        "~/src/app/db.py",
        "/srv/app/db.py",
        "/work/repo/src/app/db.py",
        "./src/app/db.py",
    ]

    def by_pass(written: str) -> bool:
        # What each named path is held against, one changed path at a time.
        return any(
            names(written, each, rooted=False) or each.startswith(written + "/") for each in changed
        )

    hits = _named_changed(named, changed, Path("/work/repo"))
    missed = {"guide/", "pp/db.py", "src/ap", "docs/*.md", "other.py", "~/src/app/db.py"}
    assert hits == [w for w in named if w not in missed | {"/srv/app/db.py"}]
    plain = [w for w in named if not w.startswith(("~", "/", ".")) and "*" not in w]
    assert [w for w in plain if w in hits] == [w for w in plain if by_pass(w.rstrip("/"))]
