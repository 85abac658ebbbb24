"""SYNAPSE_MODEL naming a file that never ends or never answers (/dev/zero, a FIFO,
/proc/self/pagemap) is refused at once in one line, never waited on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = (
    "import sys\n"
    "from pathlib import Path\n"
    "from synapse_git.errors import StoreError\n"
    "from synapse_git.semantic.model import verified\n"
    "try:\n"
    "    verified(Path(sys.argv[1]))\n"
    "except StoreError as exc:\n"
    "    print(exc)\n"
)


def refusal(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("named", ["/dev/zero", "/proc/self/pagemap", "fifo"])
def test_a_model_file_that_never_ends_is_refused(named: str, tmp_path: Path) -> None:
    path = Path(named)
    if named == "fifo":
        path = tmp_path / "model.onnx"
        os.mkfifo(path)
    said = refusal(path)
    assert said.count("\n") == 1 and str(path) in said
    assert "not a regular file" in said or "not the pinned one" in said
