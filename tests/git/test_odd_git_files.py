"""A repository's own files are input (a copied or unpacked repository brings its .git):
a link to a device where git keeps a small file is not read without end."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from support import git, make_repo, run_cli

SYNAPSE = str(Path(sys.executable).with_name("synapse"))
# Far more than a listing needs, far less than reading /dev/zero to its end would take.
MEMORY_CAP = 1 << 30


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def test_packed_refs_linked_to_a_device_is_not_read_without_end(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"src/app.py": "a\n"})
    done = run_cli("memory", "remember", "src/app.py serves deploys", cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    packed = repo / ".git" / "packed-refs"
    packed.unlink()
    packed.symlink_to("/dev/zero")
    # Refused in one line before git or libgit2 open it. A process of its own, its
    # memory capped: reading the device to its end would take all the machine has.
    listed = subprocess.run(
        [SYNAPSE, "memory", "list"],
        cwd=repo,
        capture_output=True,
        env=os.environ.copy(),
        preexec_fn=_capped,
        check=False,
    )
    assert listed.returncode == 2, listed.stderr
    assert b"internal error" not in listed.stderr
    assert b"its packed-refs is not a regular file" in listed.stderr
