"""MCP client configuration that opens the store the CLI uses (docs/mcp.md).

A client starts `synapse mcp` with the environment it chooses: the MCP
Inspector and the SDK pass a reduced one, so a store chosen by
`XDG_DATA_HOME` in the user's shell is not the one the server opens. The
configuration written here pins both the command's absolute path and the data
folder (`SYNAPSE_DATA`), so any environment opens the same store.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synapse_git.data_folder import data_dir
from synapse_git.errors import BadInput, SynapseError
from synapse_git.file_reads import regular_bytes

KINDS = ("claude", "codex", "json")
FILES = {"claude": ".mcp.json", "codex": ".codex/config.toml"}
# A client file is a few kilobytes; these come with the repository, so one is read
# only this far (a sparse file of gigabytes costs its maker no disk). Setup reads the
# same way (clients/file_texts.py).
MAX_FILE_BYTES = 16 * 1024 * 1024


class TooLarge(ValueError):
    pass


def client_bytes(path: Path) -> bytes:
    """A client file's bytes, at most MAX_FILE_BYTES (TooLarge past it), opened without
    waiting: a committed link to a FIFO or a terminal would hold `status` and `setup`
    for ever (NotRegular). FileNotFoundError and other OSErrors are open's own."""
    raw = regular_bytes(path, MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise TooLarge(f"it is over {MAX_FILE_BYTES} bytes")
    return raw


def _text(path: Path) -> str:
    """A client file's text; ValueError when it is over MAX_FILE_BYTES or not UTF-8,
    OSError when it is not a regular file."""
    return client_bytes(path).decode("utf-8")


NAME = "synapse"


@dataclass(frozen=True)
class Entry:
    command: str
    data: Path

    def as_json(self) -> dict[str, Any]:
        return {"command": self.command, "args": ["mcp"], "env": {"SYNAPSE_DATA": str(self.data)}}


@dataclass(frozen=True)
class Written:
    path: Path
    done: str  # created, updated, unchanged


def program() -> str:
    """The absolute path of this Synapse's `synapse` command."""
    beside = Path(sys.executable).with_name("synapse")
    if beside.is_file():
        return str(beside.absolute())
    found = shutil.which("synapse")
    if found is None:
        raise BadInput("cannot find the synapse command beside Python or on PATH")
    return str(Path(found).absolute())


def entry_for(data: Path) -> Entry:
    """The server entry for the store in `data`, with both paths absolute."""
    return Entry(program(), Path(os.path.abspath(data.expanduser())))


def render(kind: str, entry: Entry) -> str:
    """The configuration text for client `kind`: the whole file for claude and json,
    the server's tables for codex."""
    if kind == "claude":
        return _json_text({"mcpServers": {NAME: {"type": "stdio", **entry.as_json()}}})
    if kind == "json":
        return _json_text({"mcpServers": {NAME: entry.as_json()}})
    if kind == "codex":
        return _toml_tables(entry)
    raise BadInput(f"unknown client {kind!r}: choose one of {', '.join(KINDS)}")


def _json_text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _toml_string(text: str) -> str:
    # A JSON string is a TOML basic string: the same quotes and escapes.
    return json.dumps(text, ensure_ascii=False)


def _toml_tables(entry: Entry) -> str:
    return (
        f"[mcp_servers.{NAME}]\n"
        f"command = {_toml_string(entry.command)}\n"
        'args = ["mcp"]\n'
        f"\n[mcp_servers.{NAME}.env]\n"
        f"SYNAPSE_DATA = {_toml_string(str(entry.data))}\n"
    )


def write(kind: str, entry: Entry, folder: Path) -> Written:
    """Merge the server entry into the client's project file under `folder`, keeping
    every other server and setting; a file it cannot merge is left as it was."""
    if kind not in FILES:
        raise BadInput(f"--write needs a client with a project file: {', '.join(FILES)}")
    path = folder / FILES[kind]
    # Read, and refused, as `synapse setup` reads a client file: a folder in its place was
    # "cannot read …: [Errno 21] Is a directory: 3". Merged without the file's byte order
    # mark and CRLF line ends, written back with them, as setup keeps them. file_texts
    # imports this module: here, not above.
    from synapse_git.clients import file_texts

    old = file_texts.read(path)
    plain = None if old is None else file_texts.in_plain(old)
    merge = _merged_json if kind == "claude" else _merged_toml
    new = file_texts.in_layout(old, merge(plain, entry, path))
    if new == old:
        return Written(path, "unchanged")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.synapse-new")
        temporary.write_bytes(new.encode("utf-8"))  # line ends as they are
        os.replace(temporary, path)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    return Written(path, "created" if old is None else "updated")


def _merged_json(old: str | None, entry: Entry, path: Path) -> str:
    doc: Any = {}
    if old is not None and old.strip():
        try:
            doc = json.loads(old)
        except json.JSONDecodeError as exc:
            raise BadInput(f"{path} is not valid JSON ({exc.msg}); nothing was written") from None
        except RecursionError:
            raise BadInput(f"{path} is nested too deeply to read; nothing was written") from None
    servers = doc.get("mcpServers", {}) if isinstance(doc, dict) else None
    if not isinstance(servers, dict):
        raise BadInput(f"{path}: mcpServers is not an object; nothing was written")
    wanted = {"type": "stdio", **entry.as_json()}
    if servers.get(NAME) == wanted and old is not None:
        return old
    doc["mcpServers"] = {**servers, NAME: wanted}
    return _json_text(doc)


def _merged_toml(old: str | None, entry: Entry, path: Path) -> str:
    before = parse_toml(old or "", path)
    wanted = entry.as_json()
    if old is not None and before.get("mcp_servers", {}).get(NAME) == wanted:
        return old
    kept = _without_tables(old or "", f"mcp_servers.{NAME}")
    new = (kept.rstrip("\n") + "\n\n" if kept.strip() else "") + _toml_tables(entry)
    after = parse_edited(new) or {}  # {}: the edit broke the text, refused below
    others = {key: value for key, value in after.get("mcp_servers", {}).items() if key != NAME}
    expected = {key: value for key, value in before.get("mcp_servers", {}).items() if key != NAME}
    rest_same = {k: v for k, v in after.items() if k != "mcp_servers"} == {
        k: v for k, v in before.items() if k != "mcp_servers"
    }
    if after.get("mcp_servers", {}).get(NAME) != wanted or others != expected or not rest_same:
        # The entry is written in a form this merge does not recognise (dotted keys,
        # an inline table): better the user's file untouched than a guess.
        raise BadInput(
            f"{path} defines mcp_servers.{NAME} in a form that cannot be merged safely;"
            " nothing was written: replace it with `synapse mcp config codex`"
        )
    return new


def parse_edited(text: str) -> dict[str, Any] | None:
    """The TOML an edit of a readable file made, or None when the edit broke it: the
    file held the entry in a form the edit does not recognise (dotted keys, an inline
    table), which the caller refuses as such rather than as a file it cannot read."""
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """A client's TOML file, or one line saying why it cannot be read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{path} is not valid TOML ({exc}); nothing was written") from None
    except RecursionError:
        raise BadInput(f"{path} is nested too deeply to read; nothing was written") from None


def _without_tables(text: str, table: str) -> str:
    """`text` without the table `table` and its sub-tables (header and body lines)."""
    kept: list[str] = []
    dropping = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):
            name = stripped.strip("[]").split("#")[0].strip().strip("[]").strip()
            name = name.replace('"', "").replace(" ", "")
            dropping = name == table or name.startswith(table + ".")
        if not dropping:
            kept.append(line)
    return "".join(kept)


# -- reading back: does a client found here open this store? --------------------------


@dataclass(frozen=True)
class Found:
    client: str
    path: Path
    server: bool  # the file has a synapse entry
    store: Path | None  # the data folder it pins, None when the client's environment decides
    problem: str | None = None  # why the file or the store it pins cannot be used

    def as_json(self, current: Path) -> dict[str, Any]:
        return {
            "client": self.client,
            "file": str(self.path),
            "server": self.server,
            "store": None if self.store is None else str(self.store),
            "same_store": None if self.store is None else _same(self.store, current),
            "problem": self.problem,
        }


def found_here(folder: Path) -> list[Found]:
    """The client project files in `folder` and what their synapse entry pins."""
    found: list[Found] = []
    for client, name in FILES.items():
        path = folder / name
        if not path.is_file():
            continue
        try:
            text = _text(path).removeprefix("\ufeff")  # a BOM, as the clients, skipped
            doc: Any = json.loads(text) if client == "claude" else tomllib.loads(text)
        except TooLarge as exc:
            found.append(Found(client, path, False, None, f"not read: {exc}"))
            continue
        except (OSError, UnicodeDecodeError, ValueError):
            found.append(Found(client, path, False, None))
            continue
        except RecursionError:
            found.append(Found(client, path, False, None, "nested too deeply to read"))
            continue
        key = "mcpServers" if client == "claude" else "mcp_servers"
        servers = doc.get(key) if isinstance(doc, dict) else None
        server = servers.get(NAME) if isinstance(servers, dict) else None
        if not isinstance(server, dict):
            found.append(Found(client, path, False, None))
            continue
        env = server.get("env")
        try:
            pinned = _pinned(env) if isinstance(env, dict) else None
        except SynapseError as exc:
            found.append(Found(client, path, True, None, str(exc)))
            continue
        found.append(Found(client, path, True, pinned))
    return found


def _pinned(env: Mapping[str, Any]) -> Path | None:
    strings = {key: value for key, value in env.items() if isinstance(value, str)}
    if not strings.get("SYNAPSE_DATA") and not strings.get("XDG_DATA_HOME"):
        return None
    return data_dir(strings)


def _same(one: Path, other: Path) -> bool:
    return os.path.realpath(one.expanduser()) == os.path.realpath(other.expanduser())
