"""Which files `synapse setup` writes for each client and scope, and the edits it makes
in them (docs/mcp.md, "One command per client").

Each client documents its own files: Claude Code reads MCP servers from
`.mcp.json` (project), `~/.claude.json` (user, and per project under
`projects` for local scope) and hooks from `.claude/settings.json`,
`.claude/settings.local.json` and `~/.claude/settings.json`; Codex reads
`[mcp_servers.NAME]` from `config.toml` and hooks from `hooks.json`, both in
`.codex/` (project) or `$CODEX_HOME` (user, `~/.codex` by default); Cursor reads
`mcp.json` and `hooks.json` in `.cursor/` or `~/.cursor/`.

Project scope writes only portable entries (a bare `synapse` command, no store)
into files a team commits; local and user scope pin this `synapse` command's
absolute path and the data folder the CLI uses now.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synapse_git.clients import mcp_config
from synapse_git.clients.shared_hook import MARK as SHARED_MARK
from synapse_git.errors import BadInput

CLIENTS = ("claude", "codex", "cursor")
SCOPES = ("project", "local", "user")
NAME = "synapse"
HOOK_TIMEOUT_S = 10

# A hook command is Synapse's when it runs `synapse hook session|prompt` (bare, by an
# absolute path, quoted, or after a SYNAPSE_DATA=… pin): any other hook is someone else's.
OURS = re.compile(r"""(?:^|[\s/'"])synapse['"]?\s+hook\s+(?:session|prompt)(?:\s|$)""")


@dataclass(frozen=True)
class Pin:
    """How the written entries start Synapse: bare for project scope, pinned otherwise."""

    command: str  # "synapse", or this command's absolute path
    data: Path | None  # SYNAPSE_DATA to pin, None for project scope

    def mcp(self, *, typed: bool) -> dict[str, Any]:
        entry: dict[str, Any] = {"type": "stdio"} if typed else {}
        entry.update({"command": self.command, "args": ["mcp"]})
        if self.data is not None:
            entry["env"] = {"SYNAPSE_DATA": str(self.data)}
        return entry

    def shell(self, *args: str) -> str:
        """A hook command line (clients run hooks through the shell)."""
        words = [shlex.quote(self.command), *args]
        if self.data is not None:
            words.insert(0, f"SYNAPSE_DATA={shlex.quote(str(self.data))}")
        return " ".join(words)


Doc = dict[str, Any]


@dataclass(frozen=True)
class Piece:
    """One file setup edits: `add` puts Synapse's entries into the parsed document,
    `remove` takes them out (both return the new document), `has` says what is wired."""

    path: Path
    syntax: str  # json or toml
    what: str  # "mcp" or "hooks", for messages and status
    add: Callable[[Doc], Doc]
    remove: Callable[[Doc], Doc]
    has: Callable[[Doc], list[str]]


def pin_for(scope: str, data: Path) -> Pin:
    if scope == "project":
        return Pin(NAME, None)
    return Pin(mcp_config.program(), Path(os.path.abspath(data.expanduser())))


def pieces(
    client: str, scope: str, root: Path, home: Path, pin: Pin, main: Path | None = None
) -> list[Piece]:
    """The files setup edits for `client` in `scope`, for the checkout at `root` whose
    main worktree is `main` (`root` itself when None)."""
    if client not in CLIENTS:
        raise BadInput(f"unknown client {client!r}: choose one of {', '.join(CLIENTS)}")
    if scope not in SCOPES:
        raise BadInput(f"unknown scope {scope!r}: choose one of {', '.join(SCOPES)}")
    if client == "claude":
        return _claude(scope, root, main or root, home, pin)
    if scope == "local":
        raise BadInput(
            f"{client} has no local scope: --scope project (shared) or --scope user (personal)"
        )
    if client == "codex":
        folder = root / ".codex" if scope == "project" else codex_home(home)
        return [
            _toml_server(folder / "config.toml", pin),
            _json_hooks(folder / "hooks.json", _codex_hooks(pin)),
        ]
    folder = (root if scope == "project" else home) / ".cursor"
    return [
        _json_server(folder / "mcp.json", ["mcpServers"], pin.mcp(typed=False)),
        _cursor_hooks(folder / "hooks.json", pin),
    ]


def codex_home(home: Path) -> Path:
    chosen = os.environ.get("CODEX_HOME")
    return Path(chosen) if chosen else home / ".codex"


# -- Claude Code ---------------------------------------------------------------------


def _claude(scope: str, root: Path, main: Path, home: Path, pin: Pin) -> list[Piece]:
    hooks = _claude_hooks(pin)
    if scope == "project":
        return [
            _json_server(root / ".mcp.json", ["mcpServers"], pin.mcp(typed=True)),
            _json_hooks(root / ".claude" / "settings.json", hooks),
        ]
    if scope == "local":
        return [
            # Claude Code keeps a linked worktree's local servers under its main worktree
            # (a bare repository's own folder), as `claude mcp add --scope local` does.
            _json_server(
                home / ".claude.json", ["projects", str(main), "mcpServers"], pin.mcp(typed=True)
            ),
            _json_hooks(root / ".claude" / "settings.local.json", hooks),
        ]
    return [
        _json_server(home / ".claude.json", ["mcpServers"], pin.mcp(typed=True)),
        _json_hooks(home / ".claude" / "settings.json", hooks),
    ]


def _group(command: str, matcher: str | None) -> dict[str, Any]:
    group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]
    return group


def _claude_hooks(pin: Pin) -> dict[str, list[dict[str, Any]]]:
    # Claude Code runs the hooks of every settings file: the team's (bare, unpinned) are
    # marked so that they give way to a user's own (clients/shared_hook.py). An older
    # Synapse reads no such variable and runs as before.
    mark = f"{SHARED_MARK}=claude " if pin.data is None else ""
    return {
        "SessionStart": [
            _group(
                mark + pin.shell("hook", "session", "--format", "claude"),
                "startup|resume|clear|compact",
            )
        ],
        "UserPromptSubmit": [
            _group(mark + pin.shell("hook", "prompt", "--format", "claude"), None)
        ],
    }


def _codex_hooks(pin: Pin) -> dict[str, list[dict[str, Any]]]:
    # Codex reads the same SessionStart and UserPromptSubmit output as Claude Code.
    return {
        "SessionStart": [
            _group(pin.shell("hook", "session", "--format", "claude"), "startup|resume|clear")
        ],
        "UserPromptSubmit": [_group(pin.shell("hook", "prompt", "--format", "codex"), None)],
    }


# -- the edits -----------------------------------------------------------------------


def _object_at(doc: Doc, keys: list[str], path: Path, *, create: bool) -> Doc | None:
    here: Any = doc
    for n, key in enumerate(keys):
        if not isinstance(here, dict):
            where = ".".join(keys[:n]) or "the top level"
            raise BadInput(f"{path}: {where} is not an object; nothing was written")
        if key not in here:
            if not create:
                return None
            here[key] = {}
        here = here[key]
    if not isinstance(here, dict):
        raise BadInput(f"{path}: {'.'.join(keys)} is not an object; nothing was written")
    return here


def _json_server(path: Path, keys: list[str], entry: dict[str, Any]) -> Piece:
    def add(doc: Doc) -> Doc:
        servers = _object_at(doc, keys, path, create=True)
        assert servers is not None
        servers[NAME] = entry
        return doc

    def remove(doc: Doc) -> Doc:
        servers = _object_at(doc, keys, path, create=False)
        if servers is not None:
            servers.pop(NAME, None)
        return doc

    def has(doc: Doc) -> list[str]:
        try:
            servers = _object_at(doc, keys, path, create=False)
        except BadInput:
            return []
        return ["mcp"] if servers is not None and isinstance(servers.get(NAME), dict) else []

    return Piece(path, "json", "mcp", add, remove, has)


def _is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and bool(OURS.search(str(hook.get("command", ""))))


def _json_hooks(path: Path, wanted: dict[str, list[dict[str, Any]]]) -> Piece:
    """Claude Code's and Codex's shape: hooks → event → matcher groups → commands."""

    def events(doc: Doc, *, create: bool) -> Doc | None:
        return _object_at(doc, ["hooks"], path, create=create)

    def strip(groups: list[Any]) -> list[Any]:
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(_is_ours(hook) for hook in inner):
                rest = [hook for hook in inner if not _is_ours(hook)]
                if not rest:
                    continue
                group = {**group, "hooks": rest}
            kept.append(group)
        return kept

    def add(doc: Doc) -> Doc:
        table = events(doc, create=True)
        assert table is not None
        for event, groups in wanted.items():
            present = table.get(event, [])
            if not isinstance(present, list):
                raise BadInput(f"{path}: hooks.{event} is not a list; nothing was written")
            table[event] = [*strip(present), *groups]
        return doc

    def remove(doc: Doc) -> Doc:
        table = events(doc, create=False)
        if table is None:
            return doc
        for event in wanted:
            present = table.get(event)
            if isinstance(present, list):
                table[event] = strip(present)
                if not table[event]:
                    del table[event]
        if not table:
            del doc["hooks"]
        return doc

    def has(doc: Doc) -> list[str]:
        table = doc.get("hooks")
        if not isinstance(table, dict):
            return []
        return [
            event
            for event, groups in table.items()
            if isinstance(groups, list)
            and any(
                isinstance(g, dict)
                and isinstance(g.get("hooks"), list)
                and any(_is_ours(h) for h in g["hooks"])
                for g in groups
            )
        ]

    return Piece(path, "json", "hooks", add, remove, has)


def _cursor_hooks(path: Path, pin: Pin) -> Piece:
    """Cursor's shape: {"version": 1, "hooks": {event: [{"command": …}]}}. Cursor's
    beforeSubmitPrompt cannot add context, so only session start is wired."""
    # Marked at project scope to give way to the user's own, as Claude Code's are.
    mark = f"{SHARED_MARK}=cursor " if pin.data is None else ""
    command = mark + pin.shell("hook", "session", "--format", "cursor")
    wanted = {"sessionStart": [{"command": command}]}

    def add(doc: Doc) -> Doc:
        doc.setdefault("version", 1)
        table = _object_at(doc, ["hooks"], path, create=True)
        assert table is not None
        for event, entries in wanted.items():
            present = table.get(event, [])
            if not isinstance(present, list):
                raise BadInput(f"{path}: hooks.{event} is not a list; nothing was written")
            table[event] = [*(h for h in present if not _is_ours(h)), *entries]
        return doc

    def remove(doc: Doc) -> Doc:
        table = _object_at(doc, ["hooks"], path, create=False)
        if table is None:
            return doc
        for event in wanted:
            present = table.get(event)
            if isinstance(present, list):
                table[event] = [h for h in present if not _is_ours(h)]
                if not table[event]:
                    del table[event]
        return doc

    def has(doc: Doc) -> list[str]:
        table = doc.get("hooks")
        if not isinstance(table, dict):
            return []
        return [
            event
            for event, entries in table.items()
            if isinstance(entries, list) and any(_is_ours(h) for h in entries)
        ]

    return Piece(path, "json", "hooks", add, remove, has)


def _toml_server(path: Path, pin: Pin) -> Piece:
    """Codex's `[mcp_servers.synapse]`: edited as text so comments and layout elsewhere
    in the file stay as they are; the document passed around is {"text": …}."""
    wanted = pin.mcp(typed=False)

    def add(doc: Doc) -> Doc:
        old = str(doc["text"])
        before = mcp_config.parse_toml(old, path)
        if before.get("mcp_servers", {}).get(NAME) == wanted:
            return doc
        kept = mcp_config._without_tables(old, f"mcp_servers.{NAME}")
        new = (kept.rstrip("\n") + "\n\n" if kept.strip() else "") + _toml_tables(wanted)
        _check_toml(before, mcp_config.parse_edited(new), wanted, path)
        return {"text": new}

    def remove(doc: Doc) -> Doc:
        old = str(doc["text"])
        before = mcp_config.parse_toml(old, path)
        if NAME not in before.get("mcp_servers", {}):
            return doc
        kept = mcp_config._without_tables(old, f"mcp_servers.{NAME}")
        _check_toml(before, mcp_config.parse_edited(kept), None, path)
        return {"text": kept.rstrip("\n") + "\n" if kept.strip() else ""}

    def has(doc: Doc) -> list[str]:
        try:
            servers = mcp_config.parse_toml(str(doc["text"]), path).get("mcp_servers", {})
        except BadInput:
            return []
        return ["mcp"] if isinstance(servers, dict) and NAME in servers else []

    return Piece(path, "toml", "mcp", add, remove, has)


def _check_toml(before: Doc, after: Doc | None, wanted: Doc | None, path: Path) -> None:
    """Everything but Synapse's table is as it was, and that table is as wanted."""

    def others(doc: Doc) -> Doc:
        servers = {k: v for k, v in doc.get("mcp_servers", {}).items() if k != NAME}
        rest = {k: v for k, v in doc.items() if k != "mcp_servers"}
        return {"servers": servers, "rest": rest}

    mine = None if after is None else after.get("mcp_servers", {}).get(NAME)
    if after is None or others(before) != others(after) or mine != wanted:
        # Dotted keys or an inline table: better the file untouched than a guess.
        raise BadInput(
            f"{path} defines mcp_servers.{NAME} in a form that cannot be edited safely;"
            " nothing was written"
        )


def _toml_tables(entry: dict[str, Any]) -> str:
    lines = [
        f"[mcp_servers.{NAME}]",
        f"command = {json.dumps(entry['command'], ensure_ascii=False)}",
        'args = ["mcp"]',
    ]
    if "env" in entry:
        lines += ["", f"[mcp_servers.{NAME}.env]"]
        lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in entry["env"].items()]
    return "\n".join(lines) + "\n"
