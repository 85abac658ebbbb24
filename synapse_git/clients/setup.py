"""`synapse setup CLIENT`: wire the MCP server and the hooks into a client's files, and
take them out again (docs/mcp.md, "One command per client").

Every file is read and edited in memory first; a file that cannot be parsed
stops the whole command before anything is written. What each write replaced
is recorded in the data folder (`setup.json`), so `--uninstall` puts a file
back byte for byte (or removes a file setup created) while it still holds what
setup wrote; a file edited since loses only Synapse's entries.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synapse_git.clients import agent_files, mcp_config
from synapse_git.clients.agent_files import Piece
from synapse_git.errors import BadInput

RECORD_FILE = "setup.json"
DIFF_LINES = 40
MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Change:
    path: Path
    done: str  # created, updated, unchanged, restored, removed, absent (and "would …")
    diff: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    client: str
    scope: str
    changes: list[Change]
    notes: list[str]


def run(
    client: str,
    scope: str,
    root: Path,
    data: Path,
    *,
    home: Path | None = None,
    dry_run: bool = False,
    uninstall: bool = False,
    chosen_by: str = "default",
) -> Outcome:
    """Wire (or with `uninstall` unwire) `client` for the project at `root`."""
    home = Path.home() if home is None else home
    pin = agent_files.pin_for(scope, data)
    found = agent_files.pieces(client, scope, root, home, pin)
    records = _Records(data / RECORD_FILE)
    planned = [(piece, *_plan(piece, records, uninstall=uninstall)) for piece in found]
    changes: list[Change] = []
    writes: list[tuple[Path, str | None]] = []
    for piece, old, new in planned:
        if new == old:
            changes.append(Change(piece.path, "unchanged" if not uninstall else "absent"))
            continue
        done = _verb(old, new, uninstall)
        if dry_run:
            done = f"would {done.removesuffix('d')}"
        changes.append(Change(piece.path, done, _diff(piece.path, old, new)))
        writes.append((piece.path, new))
        if not uninstall:
            records.note(piece.path, old, new, _outermost_missing(piece.path))
    if dry_run:
        return Outcome(client, scope, changes, _notes(client, scope, root, chosen_by, uninstall))
    # The record goes first: a write that fails part-way still leaves uninstall knowing
    # what each file held (a file that differs from the record loses only our entries).
    records.save()
    emptied: list[tuple[Path, object]] = []
    for path, text in writes:
        record = records.get(path)
        _write(path, text)
        if uninstall:
            if text is None and record is not None:
                emptied.append((path, record.get("made")))
            records.forget(path)
    for path, folder in emptied:
        # After every file is gone: two files may share the folder one of them made.
        _remove_made(path, folder)
    records.save()
    return Outcome(client, scope, changes, _notes(client, scope, root, chosen_by, uninstall))


def _notes(client: str, scope: str, root: Path, chosen_by: str, uninstall: bool) -> list[str]:
    notes = []
    if scope == "project" and not uninstall and chosen_by != "default":
        notes.append(
            f"this store is chosen by {chosen_by}; the project files name no store, so the"
            f" client opens the default one unless its environment says otherwise:"
            f" `synapse setup {client} --scope {'local' if client == 'claude' else 'user'}`"
            " pins this one for you alone"
        )
    if scope == "project" and not uninstall and not _on_path():
        notes.append(
            "the project entries run `synapse` from PATH, where there is no synapse or another"
            " one: put this one's folder on PATH (or install it with pipx), or use"
            f" `--scope {'local' if client == 'claude' else 'user'}`, which names its full path"
        )
    if client == "codex" and not uninstall:
        notes.append("Codex runs a new or changed hook only once you trust it (/hooks)")
    for name, kind in (("CLAUDE.md", "claude-md"), ("AGENTS.md", "agents-md")):
        if not uninstall and (root / name).is_file():
            # Beside the client's own memory file, not instead of it (docs/hooks.md).
            notes.append(
                f"{name} is here and stays as it is; `synapse memory import --from {kind}"
                f" {name}` also makes each of its bullet points a memory drift can check"
            )
    return notes


def _on_path() -> bool:
    """Whether the bare `synapse` a client runs is this one."""
    import shutil

    found = shutil.which("synapse")
    if found is None:
        return False
    try:
        return os.path.samefile(found, mcp_config.program())
    except (OSError, BadInput):
        return False


def _verb(old: str | None, new: str | None, uninstall: bool) -> str:
    if new is None:
        return "removed"
    if old is None:
        return "created"
    return "restored" if uninstall else "updated"


def _plan(piece: Piece, records: _Records, *, uninstall: bool) -> tuple[str | None, str | None]:
    """The file's text now (None when absent) and what it should hold."""
    old = _read(piece.path)
    if not uninstall:
        doc = _parse(piece, old)
        return old, _render(piece, old, piece.add(doc))
    if old is None:
        return None, None
    record = records.get(piece.path)
    if record is not None and record.get("written") == old:
        original = record.get("original")
        return old, original if isinstance(original, str) else None
    doc = _parse(piece, old)
    if not piece.has(doc):
        return old, old
    return old, _render(piece, old, piece.remove(doc))


def _read(path: Path) -> str | None:
    try:
        if path.is_dir():
            raise BadInput(f"{path} is a folder; nothing was written")
        # Without waiting: a committed link to a FIFO or a terminal (/dev/tty) would
        # hold `status` and `setup` on opening or reading it for ever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise BadInput(f"{path} is not a regular file; nothing was written")
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}; nothing was written") from None
    if len(raw) > MAX_FILE_BYTES:
        raise BadInput(f"{path} is over {MAX_FILE_BYTES} bytes; nothing was written")
    try:
        # Bytes, not read_text: CRLF line ends must survive a byte-for-byte restore.
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not UTF-8 (byte {exc.start}); nothing was written") from None


def _parse(piece: Piece, text: str | None) -> dict[str, Any]:
    if piece.syntax == "toml":
        mcp_config.parse_toml(text or "", piece.path)
        return {"text": text or ""}
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{piece.path} is not valid JSON ({exc.msg}, line {exc.lineno}); nothing was written"
        ) from None
    except RecursionError:
        raise BadInput(f"{piece.path} is nested too deeply to read; nothing was written") from None
    if not isinstance(doc, dict):
        raise BadInput(f"{piece.path} does not hold a JSON object; nothing was written")
    return doc


def _render(piece: Piece, old: str | None, doc: dict[str, Any]) -> str:
    if piece.syntax == "toml":
        return str(doc["text"])
    new = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if old is not None and old.strip() and json.loads(old) == doc:
        return old  # the same document: keep the user's layout
    return new


def _diff(path: Path, old: str | None, new: str | None) -> list[str]:
    lines = list(
        difflib.unified_diff(
            (old or "").splitlines(),
            (new or "").splitlines(),
            fromfile=str(path) if old is not None else "/dev/null",
            tofile=str(path) if new is not None else "/dev/null",
            lineterm="",
            n=1,
        )
    )
    if len(lines) > DIFF_LINES:
        lines = [*lines[:DIFF_LINES], f"… {len(lines) - DIFF_LINES} more diff lines"]
    return lines


def _outermost_missing(path: Path) -> str | None:
    """The outermost folder writing `path` will create, if any."""
    made = None
    missing = Path(os.path.realpath(path)).parent
    while not missing.exists() and missing.parent != missing:
        made = str(missing)
        missing = missing.parent
    return made


def _write(path: Path, text: str | None) -> None:
    """Write (or with None remove) `path`."""
    # A linked file (dotfiles kept elsewhere) is written where the link points.
    target = Path(os.path.realpath(path))
    try:
        if text is None:
            target.unlink(missing_ok=True)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.synapse-new")
        temporary.write_bytes(text.encode("utf-8"))
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None


def _remove_made(path: Path, made: object) -> None:
    """Remove the folders setup created for `path` (`.claude/`, `.codex/`) once empty."""
    if not isinstance(made, str):
        return
    top = Path(made)
    folder = Path(os.path.realpath(path)).parent
    while folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:
            return  # not empty: something else lives there now
        if folder == top:
            return
        folder = folder.parent


class _Records:
    """What setup replaced in each file, kept in the data folder for uninstall."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.doc: dict[str, Any] = {}
        self.changed = False
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            loaded = {}
        files = loaded.get("files") if isinstance(loaded, dict) else None
        self.doc = files if isinstance(files, dict) else {}

    def get(self, path: Path) -> dict[str, Any] | None:
        found = self.doc.get(str(path))
        return found if isinstance(found, dict) else None

    def note(self, path: Path, old: str | None, new: str | None, made: str | None) -> None:
        earlier = self.get(path)
        # The first original is the one to restore, while the file still holds what
        # setup wrote last; a file edited by hand since starts a new record.
        original = old
        if earlier is not None and earlier.get("written") == old:
            original = earlier.get("original")
            made = earlier.get("made") if made is None else made
        self.doc[str(path)] = {"original": original, "written": new, "made": made}
        self.changed = True

    def forget(self, path: Path) -> None:
        if self.doc.pop(str(path), None) is not None:
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        temporary = self.path.with_name(f".{RECORD_FILE}.synapse-new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps({"files": self.doc}, indent=1), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as exc:
            temporary.unlink(missing_ok=True)
            raise BadInput(f"cannot record the change in {self.path}: {exc.strerror}") from None
        self.changed = False


# -- what is wired here, for `synapse status` ------------------------------------------


@dataclass(frozen=True)
class Wired:
    client: str
    scope: str
    file: Path
    what: list[str]  # "mcp", or the hook events that run Synapse

    def as_json(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "scope": self.scope,
            "file": str(self.file),
            "wired": self.what,
        }


def wired_here(root: Path, home: Path | None = None) -> list[Wired]:
    """Every client file (each client, each scope) that runs Synapse for `root`."""
    home = Path.home() if home is None else home
    bare = agent_files.Pin(agent_files.NAME, None)
    found: list[Wired] = []
    for client in agent_files.CLIENTS:
        for scope in agent_files.SCOPES:
            try:
                files = agent_files.pieces(client, scope, root, home, bare)
            except BadInput:
                continue
            for piece in files:
                try:
                    text = _read(piece.path)
                    if text is None:
                        continue
                    what = piece.has(_parse(piece, text))
                except BadInput:
                    continue
                if what:
                    found.append(Wired(client, scope, piece.path, what))
    return found
