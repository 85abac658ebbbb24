"""`memory edit ID` in an editor while another process changes the same memory: a
`git pull` whose post-merge hook syncs a teammate's edit of a shared memory, an
agent, the viewer. The editor's text was made from the body as it was when the
editor opened; written over a change made since, it silently undid that change.
The editor here is a real program that, while it is open, has another `synapse`
process edit the memory, then saves its own text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from support import run_cli

BIN = Path(sys.executable).parent
THEIRS = "Deploys go out from the release branch since the freeze."
MINE = "Deploys go out from main, through CI."


def editor_meanwhile(tmp_path: Path, repo: Path) -> str:
    """An editor during whose run another process edits memory 1, then saves MINE."""
    script = tmp_path / "editor.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"'{BIN / 'synapse'}' memory edit -C '{repo}' 1 '{THEIRS}' >/dev/null || exit 9\n"
        f"printf '%s\\n' '{MINE}' > \"$1\"\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return str(script)


def body(repo: Path) -> str:
    done = run_cli("memory", "read", "1", "--json", cwd=repo)
    return str(json.loads(done.stdout)["memory"]["body"])


def test_an_edit_made_while_the_editor_was_open_is_not_written_over(
    repo: Path, tmp_path: Path
) -> None:
    assert run_cli("memory", "remember", "Deploys go out from main.", cwd=repo).returncode == 0
    env = {"EDITOR": editor_meanwhile(tmp_path, repo), "VISUAL": ""}
    done = run_cli("memory", "edit", "1", cwd=repo, env=env)
    assert body(repo) == THEIRS
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.splitlines()) == 1 and "changed while" in done.stderr
    assert "nothing was written" in done.stderr
    # Asked again, the editor starts from the text as it is now.
    again = run_cli(
        "memory", "edit", "1", cwd=repo, env={"EDITOR": _saving(tmp_path, MINE), "VISUAL": ""}
    )
    assert again.returncode == 0, again.stderr
    assert body(repo) == MINE


def _saving(tmp_path: Path, text: str) -> str:
    script = tmp_path / "plain-editor.sh"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' '{text}' > \"$1\"\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)
