"""`synapse setup CLIENT`: wire the MCP server and the hooks into a client's files, and
take them out again (docs/mcp.md, "One command per client").

Every file is read and edited in memory first; a file that cannot be parsed
stops the whole command before anything is written. What each write replaced
is recorded in the data folder (`setup.json`), so `--uninstall` puts a file
back byte for byte (or removes a file setup created) while it still holds what
setup wrote; a file edited since loses only Synapse's entries.

Two setups at once run one after the other: each holds a lock in the data folder
(`setup.lock`) from its first read to its last write, since they share the record
and may share a file (`~/.claude.json` holds every project's local server), and
the second must read what the first one wrote, not write the old text back.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synapse_git import file_locks
from synapse_git.clients import (
    agent_files,
    file_texts,
    file_writes,
    git_ignore,
    mcp_config,
    shared_hook,
)
from synapse_git.clients.agent_files import Piece
from synapse_git.errors import BadInput

RECORD_FILE = "setup.json"
LOCK_FILE = "setup.lock"
DIFF_LINES = 40


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
    main: Path | None = None,
) -> Outcome:
    """Wire (or with `uninstall` unwire) `client` for the checkout at `root`, whose main
    worktree is `main` (`root` itself when None)."""
    if dry_run:
        return _run(client, scope, root, data, home, True, uninstall, chosen_by, main)
    # Held from the first read to the last write: another setup waits for it.
    with file_locks.held(data / LOCK_FILE, BadInput):
        return _run(client, scope, root, data, home, False, uninstall, chosen_by, main)


def _run(
    client: str,
    scope: str,
    root: Path,
    data: Path,
    home: Path | None,
    dry_run: bool,
    uninstall: bool,
    chosen_by: str,
    main: Path | None,
) -> Outcome:
    home = Path.home() if home is None else home
    pin = agent_files.pin_for(scope, data)
    found = agent_files.pieces(client, scope, root, home, pin, main)
    records = _Records(data / RECORD_FILE)
    planned = [(piece, *_plan(piece, records, uninstall=uninstall)) for piece in found]
    changes: list[Change] = []
    writes: list[tuple[Path, str | None]] = []
    for piece, old, new in planned:
        if new == old:
            changes.append(Change(piece.path, "unchanged" if not uninstall else "absent"))
            continue
        file_texts.check_writable(piece.path)
        done = _verb(old, new, uninstall)
        if dry_run:
            done = f"would {done.removesuffix('d')}"
        changes.append(Change(piece.path, done, _diff(piece.path, old, new)))
        writes.append((piece.path, new))
        if not uninstall:
            records.note(piece.path, old, new, file_writes.outermost_missing(piece.path))
    if dry_run:
        return Outcome(
            client, scope, changes, _notes(client, scope, root, chosen_by, uninstall, (home, main))
        )
    # Every new text is written beside its file before any file changes, then the record,
    # then the files: a failure at any step before the last leaves every file as it was.
    # Personal entries (local, user) may sit beside secrets: a file made for them is private.
    staged = file_writes.stage(writes, private=scope != "project")
    try:
        records.save()
    except BadInput:
        staged.discard()
        raise
    emptied: list[tuple[Path, object]] = []
    for path, text in writes:
        record = records.get(path)
        if text is None and record is not None:
            emptied.append((path, record.get("made")))
    staged.commit()
    if uninstall:
        for path, _ in writes:
            records.forget(path)
    for path, folder in emptied:
        # After every file is gone: two files may share the folder one of them made.
        file_writes.remove_made(path, folder)
    records.save()
    notes = _notes(client, scope, root, chosen_by, uninstall, (home, main))
    if client == "claude" and scope == "local" and not uninstall:
        excluded = git_ignore.keep_out(root)
        if excluded is not None:
            notes.append(
                f"git leaves {git_ignore.LOCAL_SETTINGS} out now (a line in {excluded}):"
                " it holds this machine's paths"
            )
    return Outcome(client, scope, changes, notes)


def _notes(
    client: str,
    scope: str,
    root: Path,
    chosen_by: str,
    uninstall: bool,
    where: tuple[Path, Path | None],
) -> list[str]:
    home, main = where
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
    trusted = client != "codex" or scope != "project" or _codex_trusts(home, {root, main or root})
    if not trusted and not uninstall:
        table = f"[projects.{mcp_config._toml_string(str(root))}]"
        notes.append(
            "Codex reads .codex/ only in a project it trusts: trust this one when Codex asks,"
            f' or add {table} trust_level = "trusted" to'
            f" {agent_files.codex_home(home) / 'config.toml'}"
        )
    if client == "codex" and not uninstall:
        notes.append("Codex runs a new or changed hook only once you trust it (/hooks)")
    if client == "claude" and not uninstall:
        notes += shared_hook.setup_notes(scope, root)
    for name, kind in (("CLAUDE.md", "claude-md"), ("AGENTS.md", "agents-md")):
        if not uninstall and (root / name).is_file():
            # Beside the client's own memory file, not instead of it (docs/hooks.md).
            notes.append(
                f"{name} is here and stays as it is; `synapse memory import --from {kind}"
                f" {name}` also makes each of its bullet points a memory drift can check"
            )
    return notes


def _codex_trusts(home: Path, folders: set[Path]) -> bool:
    """Whether Codex's own config trusts one of `folders` (the checkout, its main worktree)."""
    path = agent_files.codex_home(home) / "config.toml"
    try:
        text = file_texts.without_bom(file_texts.read(path))
        projects = mcp_config.parse_toml(text, path).get("projects")
    except BadInput:
        return False
    if not isinstance(projects, dict):
        return False
    return any(
        isinstance(entry, dict) and entry.get("trust_level") == "trusted"
        for key, entry in projects.items()
        if Path(key) in folders
    )


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
    old = file_texts.read(piece.path)
    if not uninstall:
        doc = file_texts.parse(piece, old)
        return old, file_texts.render(piece, old, piece.add(doc))
    if old is None:
        return None, None
    doc = file_texts.parse(piece, old)
    if not piece.has(doc):
        return old, old
    stripped = piece.remove(doc)
    record = records.get(piece.path)
    if record is None:
        return old, file_texts.render(piece, old, stripped)
    original = record.get("original")
    original = original if isinstance(original, str) else None
    if record.get("written") == old and _restores(piece, original, stripped):
        return old, original
    if piece.syntax == "json":
        _drop_scaffold(piece, original, stripped)
        if original is None and not stripped:
            return old, None  # setup made the file, and nothing of anyone's is left in it
    return old, file_texts.render(piece, old, stripped)


def _drop_scaffold(piece: Piece, original: str | None, stripped: dict[str, Any]) -> None:
    """Take out of `stripped` the keys setup's own edit added around its entries (Cursor's
    `version` and an emptied `hooks`) where the file as setup found it (`original`,
    None when setup made it) had none: a file edited since is not restored whole, but
    what setup brought into it goes; nothing when `original` cannot be read."""
    try:
        before = file_texts.parse(piece, original)
    except BadInput:
        return
    scaffold = piece.remove(piece.add({}))
    for key in [k for k, value in stripped.items() if k not in before]:
        if key in scaffold and stripped[key] == scaffold[key]:
            del stripped[key]


def _restores(piece: Piece, original: str | None, stripped: dict[str, Any]) -> bool:
    """Whether putting `original` back (None: removing the file) takes out this piece's
    entries and nothing else. Not when another setup shares the file (user and local
    scope, or local scope of two projects, in ~/.claude.json), nor when the record
    began after a hand edit with a text that already ran Synapse."""
    try:
        before = file_texts.parse(piece, original)
        if piece.has(before):
            return False
        # Both through the same edits, so that the keys an edit leaves behind compare.
        expected = piece.remove(piece.add(before))
    except BadInput:
        return False
    if piece.syntax == "toml":
        parsed = [mcp_config.parse_edited(str(d["text"])) for d in (expected, stripped)]
        return parsed[0] is not None and parsed[0] == parsed[1]
    return expected == stripped


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
            # Opened 0600 before a byte is written: it holds copies of personal files
            # (~/.claude.json is 0600), which must not become readable by others here.
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), 0o600)  # a leftover copy may have another mode
                handle.write(json.dumps({"files": self.doc}, indent=1))
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
    # A project's hooks beside the user's own (clients/shared_hook.py), or None.
    beside: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "scope": self.scope,
            "file": str(self.file),
            "wired": self.what,
            "beside": self.beside,
        }


def wired_here(root: Path, home: Path | None = None, main: Path | None = None) -> list[Wired]:
    """Every client file (each client, each scope) that runs Synapse for `root`."""
    home = Path.home() if home is None else home
    bare = agent_files.Pin(agent_files.NAME, None)
    found: list[Wired] = []
    for client in agent_files.CLIENTS:
        for scope in agent_files.SCOPES:
            try:
                files = agent_files.pieces(client, scope, root, home, bare, main)
            except BadInput:
                continue
            for piece in files:
                try:
                    text = file_texts.read(piece.path)
                    if text is None:
                        continue
                    what = piece.has(file_texts.parse(piece, text))
                except BadInput:
                    continue
                if what:
                    shared = scope == "project" and piece.what == "hooks"
                    note = shared_hook.beside(client, piece.path, root) if shared else None
                    found.append(Wired(client, scope, piece.path, what, note))
    return found
