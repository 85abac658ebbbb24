"""A store of notes as agents keep them (front matter, lists, tool choices), in a real
git repository, through the installed command: drift names the real conflicts and no
other, and session start tells every memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realistic_notes import STORE_NOTES, note
from support import make_repo, run_cli

FILES = {
    "pyproject.toml": "[project]\nname = 'pkg'\n",
    "uv.lock": "version = 1\n",
    "requirements-dev.txt": "pytest==8.1.3\n",
    "src/pkg/__init__.py": "",
    "docs/index.md": "# pkg\n",
    ".github/workflows/ci.yml": "on: push\n",
}
# Older notes that later ones correct, and the corrections (labels written with them).
OLDER = [
    "We format with black (line length 88).",
    "Dependabot checks pip updates weekly.",
    "Only mypy type-checks the code.",
]
NEWER = [
    note("dependabot", "Dependency update schedule", "Dependabot checks pip updates daily."),
    "mypy and pyright type-check the code.",
]


def _remember(repo: Path, body: str) -> dict[str, object]:
    done = run_cli("memory", "remember", "--json", "--", body, cwd=repo)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.slow
def test_drift_and_session_start_on_notes_with_front_matter(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "pkg", FILES)
    ids: dict[str, int] = {}
    told: dict[int, list[tuple[int, int]]] = {}
    for body in [*OLDER, *STORE_NOTES, *NEWER]:
        answer = _remember(repo, body)
        ids[body] = int(str(answer["id"]))
        drift = answer["drift"]
        assert isinstance(drift, list)
        told[ids[body]] = [(f["newer"], f["older"]) for f in drift]
    formatting = next(body for body in STORE_NOTES if "name: formatting" in body)
    expected = {
        (ids[formatting], ids[OLDER[0]]),
        (ids[NEWER[0]], ids[OLDER[1]]),
        (ids[NEWER[1]], ids[OLDER[2]]),
    }
    # What `remember` said each new memory contradicts: its real conflicts, no other.
    assert told == {i: [pair for pair in expected if pair[0] == i] for i in ids.values()}

    done = run_cli("memory", "drift", "--json", cwd=repo)
    report = json.loads(done.stdout)
    found = {
        (f["newer"], f["older"])
        for f in report["findings"]
        if f["kind"] in ("conflict", "duplicate")
    }
    assert found == expected, report["findings"]
    assert [f for f in report["findings"] if f["kind"] == "stale"] == []
    assert done.returncode == 1 and report["checked"] == len(ids)
    details = [f["detail"] for f in report["findings"]]
    said = f"memory {ids[NEWER[0]]} (newer) says 'daily' where {ids[OLDER[1]]} says 'weekly'"
    assert said in details
    # Same value on both sides is no finding: two notes pin pytest to 8.1.3.
    assert not any("'8.1.3' where" in detail for detail in details)

    session = run_cli("hook", "session", cwd=repo)
    assert session.returncode == 0, session.stderr
    out = session.stdout
    for memory_id in ids.values():
        assert f"- [{memory_id}] " in out, (memory_id, out)
    for newer, older in sorted(expected):
        assert f"- [{older}] (older; [{newer}] contradicts it) " in out
    assert "Left out" not in out
    assert "Contradicted: 3 older memories are told" in out
