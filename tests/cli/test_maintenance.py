"""`synapse memory export | import | check` as a real process."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli

from synapse_git.service import Synapse
from synapse_git.settings import Config


def test_export_file_then_import_round_trips_awkward_text(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    # U+2028, NEL and form feed are line breaks to str.splitlines() but not to JSON Lines.
    svc.remember("one\u2028two\x85three\x0cfour\r\nfive", here, source="odd")
    svc.remember("global 🚀\x00", here, is_global=True)
    dump = tmp_path / "all.jsonl"
    done = run_cli("memory", "export", str(dump))
    assert (done.returncode, done.stderr) == (0, f"exported 2 memories to {dump}\n")

    other = tmp_path / "other-store"
    done = run_cli("memory", "import", str(dump), env={"SYNAPSE_DATA": str(other)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "imported 2 memories (0 duplicates skipped)\n"
        "batch 1; undo: synapse memory forget --import 1\n"
    )
    assert done.stderr == ""  # no progress bar for a small file
    exported = [line for line in dump.read_text(encoding="utf-8").split("\n") if line]
    assert len(exported) == 2
    assert list(Synapse(Config(data_dir=other)).export()) == exported
    # Standard output gets the same UTF-8 lines, whatever the terminal's encoding.
    piped = run_cli("memory", "export", env={"PYTHONIOENCODING": "ascii"})
    assert (piped.returncode, piped.stdout) == (0, dump.read_text(encoding="utf-8"))
    bodies = {json.loads(line)["body"] for line in exported}
    assert "one\u2028two\x85three\x0cfour\r\nfive" in bodies


def test_a_malformed_line_stops_the_import(tmp_path: Path, outside: Path) -> None:
    lines = [json.dumps({"body": f"fact {n}", "project": None}) for n in range(5)]
    lines[3] = '{"body": "unterminated'
    source = tmp_path / "bad.jsonl"
    source.write_text("\n".join(lines) + "\n")
    done = run_cli("memory", "import", str(source), "--json")
    assert done.returncode == 2
    assert done.stderr.startswith("synapse: line 4: not valid JSON")
    assert done.stderr.rstrip().endswith("nothing was imported")
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    svc = Synapse()
    assert svc.list_memories(svc.scope(outside)).total == 0


def test_a_large_import_shows_progress_on_stderr(tmp_path: Path) -> None:
    lines = [
        json.dumps({"body": f"fact number {n} " + "padding " * 20, "project": None})
        for n in range(2001)
    ]
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(lines) + "\n")
    done = run_cli("memory", "import", str(big), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "imported": 2001,
        "duplicates": 0,
        "lines": 2001,
        "batch": 1,
    }
    assert "importing [" in done.stderr
    assert done.stderr.rstrip().endswith("[" + "#" * 30 + "] 2001 lines")


def test_export_to_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    done = run_cli("memory", "export", str(tmp_path / "no" / "such" / "folder" / "x.jsonl"))
    assert done.returncode == 2
    assert done.stderr.startswith("synapse: cannot write") and "Traceback" not in done.stderr
    assert not (tmp_path / "no").exists()
