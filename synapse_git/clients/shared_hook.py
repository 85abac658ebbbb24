"""A project's shared Claude Code hook gives way to the user's own (docs/mcp.md, "Scopes").

`synapse setup claude` at project scope writes hooks a team commits: the bare
`synapse` on each teammate's default store, marked `SYNAPSE_SHARED_HOOK=claude`.
At local or user scope it writes hooks pinned to one user's command and store.
Claude Code runs the hooks of every settings file it reads, so a user with both
would be told everything twice, once from a store they did not choose. A marked
hook therefore says nothing when the user's own settings (the project's
`.claude/settings.local.json`, then `~/.claude/settings.json`) hold a Synapse hook
for the same event that can run. The Synapse plugin's hooks (plugins/synapse) run
the same bare `synapse`, marked `claude-plugin`: they give way to the user's own
hooks too, and a project's give way to them where `enabledPlugins` turns the plugin
on. Cursor, which also runs a project's hooks beside the user's, has the same mark
(`cursor`) for its session start. Codex has none: it runs a hook only once the user
trusts it, and a shared hook silent for a personal one not yet trusted would leave
the agent told nothing. Only a marked hook reads these files: any other hook pays nothing for this.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

from synapse_git.file_reads import NotRegular, regular_bytes

MARK = "SYNAPSE_SHARED_HOOK"
PLUGIN_MARK = "claude-plugin"  # the plugin's hooks: give way to the user's own only
PLUGIN = "synapse@synapse"  # its id in enabledPlugins: name@marketplace
EVENTS = {"session": "SessionStart", "prompt": "UserPromptSubmit"}
# A settings file is a few KiB; one far larger is not read (the hook must stay quick).
MAX_BYTES = 1024 * 1024
# How far up from the folder a hook runs in the project's settings are looked for,
# where Claude Code names no project folder.
MAX_UP = 64
# A Synapse hook's command line is a word or two, a path or two and its arguments; one
# far longer is not Synapse's, and is not split (shlex's time grows with the square of
# a word's length: a committed settings file could hold up every prompt).
MAX_COMMAND = 16 * 1024
# The session starts a shared SessionStart hook is written for (agent_files.py): the
# user's own hook gives it no reason to be silent unless it runs on each of them.
SOURCES = ("startup", "resume", "clear", "compact")


def marked() -> bool:
    """Whether this process runs as a shared Claude Code hook: a project's, or the
    plugin's (plugins/synapse)."""
    return os.environ.get(MARK) in ("claude", PLUGIN_MARK)


def gives_way(kind: str, start: Path | None = None) -> bool:
    """Whether a marked hook of `kind` (session or prompt), run for the project at or
    above `start` (the current folder when None), should say nothing: a hook of the
    user's own settings answers the same event, or (for a project's hook) the Synapse
    plugin is on, whose hooks run the same bare `synapse`."""
    mark = os.environ.get(MARK)
    if mark == "cursor":
        return kind == "session" and _cursor_own()
    if mark not in ("claude", PLUGIN_MARK):
        return False
    if personal(kind, start) is not None:
        return True
    return mark == "claude" and plugin_on(start) and _on_path("synapse")


def plugin_on(start: Path | None = None) -> bool:
    """Whether Claude Code's settings turn the Synapse plugin on for the project at or
    above `start`: the first of the local, project and user settings that names it in
    `enabledPlugins` decides, except that the project's (the team's, committed) can only
    turn it off: a teammate who never installed the plugin has none of its hooks to
    run, and the project's must answer. Never raises."""
    root = _root(start)
    # (settings file, whether it may turn the plugin on), in the order Claude Code
    # gives them precedence.
    folder = None if root is None else root / ".claude"
    project = (
        []
        if folder is None
        else [
            (folder / "settings.local.json", True),
            (folder / "settings.json", False),
        ]
    )
    for path, may_turn_on in [*project, (Path.home() / ".claude" / "settings.json", True)]:
        try:
            doc = _settings(path)
        except (OSError, ValueError, RecursionError):
            continue
        chosen = doc.get("enabledPlugins")
        if isinstance(chosen, dict) and PLUGIN in chosen:
            value = chosen[PLUGIN]
            on = value is True or (isinstance(value, list) and bool(value))
            if on and not may_turn_on:
                continue  # the team's word: on only where the user's own says so too
            return on
    return False


def _cursor_own() -> bool:
    """Whether the user's own Cursor hooks (~/.cursor/hooks.json, Cursor's shape:
    {"hooks": {"sessionStart": [{"command": …}]}}) run Synapse's session start. Cursor
    runs a project's hooks and the user's alike, as Claude Code does. Never raises."""
    try:
        table = _settings(Path.home() / ".cursor" / "hooks.json").get("hooks")
    except (OSError, ValueError, RecursionError):
        return False
    entries = table.get("sessionStart") if isinstance(table, dict) else None
    return any(
        isinstance(entry, dict)
        and isinstance(command := entry.get("command"), str)
        and MARK not in command
        and _runs(command, "session")
        for entry in (entries if isinstance(entries, list) else [])
    )


def personal(kind: str, start: Path | None = None) -> Path | None:
    """The user's own settings file holding a Synapse hook of `kind` that can run, for
    the project at or above `start`; None when there is none. Never raises: in doubt,
    the shared hook answers."""
    try:
        return next((p for p in _personal(start) if _answers(p, EVENTS[kind], kind)), None)
    except (OSError, ValueError, KeyError, RecursionError):
        return None


def _personal(start: Path | None) -> list[Path]:
    root = _root(start)
    places = [root / ".claude" / "settings.local.json"] if root is not None else []
    return [*places, Path.home() / ".claude" / "settings.json"]


def _root(start: Path | None) -> Path | None:
    named = os.environ.get("CLAUDE_PROJECT_DIR")
    return Path(named) if named and os.path.isabs(named) else _project(start or Path.cwd())


def _project(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.claude` or `.git`."""
    here = start.absolute()
    for _ in range(MAX_UP):
        if (here / ".claude").is_dir() or (here / ".git").exists():
            return here
        if here.parent == here:
            return None
        here = here.parent
    return None


def _answers(path: Path, event: str, kind: str) -> bool:
    """Whether the settings at `path` hold a Synapse `kind` hook for `event`, not
    marked shared, whose program is there to run, on every session start for one."""
    commands = _commands(path, event, every_start=True)
    return any(MARK not in command and _runs(command, kind) for command in commands)


def unmarked(path: Path) -> bool:
    """Whether the project settings at `path` run a Synapse hook that is not marked
    shared (written by an older `synapse setup`, or by hand). Never raises."""
    try:
        return any(
            MARK not in command and _ours(kind).search(command)
            for kind, event in EVENTS.items()
            for command in _commands(path, event)
        )
    except (OSError, ValueError, RecursionError):
        return False


def _ours(kind: str) -> re.Pattern[str]:
    return re.compile(r"(?:^|[\s/'\"])synapse['\"]?\s+hook\s+" + kind + r"(?:\s|$)")


def _commands(path: Path, event: str, *, every_start: bool = False) -> list[str]:
    """The hook commands the Claude Code settings at `path` give `event`; with
    `every_start`, only those run on every session start (`_every_start`)."""
    hooks = _settings(path).get("hooks")
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    found = []
    for group in groups if isinstance(groups, list) else []:
        if every_start and event == EVENTS["session"] and not _every_start(group):
            continue
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in inner if isinstance(inner, list) else []:
            command = hook.get("command") if isinstance(hook, dict) else None
            if isinstance(command, str):
                found.append(command)
    return found


def _every_start(group: object) -> bool:
    """Whether a SessionStart group's matcher (a regular expression; none, "" or "*"
    for all) runs its hooks on each of SOURCES."""
    matcher = group.get("matcher") if isinstance(group, dict) else None
    if matcher in (None, "", "*"):
        return True
    if not isinstance(matcher, str) or len(matcher) > MAX_COMMAND:
        return False
    try:
        pattern = re.compile(matcher)
    except (re.error, RecursionError, OverflowError):
        return False
    return all(pattern.search(source) for source in SOURCES)


def _settings(path: Path) -> dict[str, Any]:
    """The settings object at `path`; {} when there is none, it is no regular file, or
    it is too large. Read without waiting and never past MAX_BYTES: a repository's
    settings may link to a file that waits (/proc/kmsg) or has no end."""
    try:
        raw = regular_bytes(path, MAX_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError, NotRegular):
        return {}
    if len(raw) > MAX_BYTES:
        return {}
    doc = json.loads(raw)
    return doc if isinstance(doc, dict) else {}


def _runs(command: str, kind: str) -> bool:
    """Whether a hook's command line runs `synapse hook KIND` (after any NAME=value
    words) with a program that is there: a path to an executable file named synapse,
    or synapse found on PATH."""
    if len(command) > MAX_COMMAND:
        return False
    try:
        words = shlex.split(command)
    except ValueError:  # a line only the shell reads (# don't ...): not Synapse's
        return False
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0], re.DOTALL):
        words.pop(0)
    if len(words) < 3 or words[1:3] != ["hook", kind]:
        return False
    program = os.path.expanduser(words[0])
    if os.path.basename(program) != "synapse":
        return False
    if os.sep in program:
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return _on_path(program)


def _on_path(name: str) -> bool:
    """Whether `name` is an executable file in a folder of PATH (shutil.which's answer
    for a plain name; shutil's import alone, with the compression modules it loads,
    would cost this hook more than the rest of the check)."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return True
    return False


def setup_notes(scope: str, root: Path) -> list[str]:
    """What `synapse setup claude` at `scope` says of the project's shared hooks and
    the user's own beside each other: Claude Code runs both, and only a marked shared
    hook gives way."""
    if scope == "project":
        own = personal("session", root) or personal("prompt", root)
        return (
            [f"your own Synapse hooks in {own} answer here: for you the shared ones stay silent"]
            if own is not None
            else []
        )
    shared = root / ".claude" / "settings.json"
    if not unmarked(shared):
        return []
    return [
        f"{shared} runs Synapse's hooks too, unmarked, and Claude Code runs them beside"
        " these: `synapse setup claude` (project scope) marks them to give way to yours"
    ]


def beside(client: str, path: Path, root: Path) -> str | None:
    """For `synapse status`: what a project's hooks file `path` of `client` does beside
    the user's own hooks for the project at `root`; None when nothing is to be said."""
    marked_here = _holds_mark(path)
    if client == "claude":
        own = personal("session", root) or personal("prompt", root)
        if own is None and marked_here and plugin_on(root):
            return "silent for you: the Synapse plugin's hooks answer"
    elif client == "cursor":
        own = Path.home() / ".cursor" / "hooks.json" if _cursor_own() else None
    else:
        return None
    if own is None:
        return None
    if marked_here:
        return f"silent for you: your own hooks in {own} answer"
    return (
        f"runs beside your own hooks in {own}, so the agent is told twice:"
        f" `synapse setup {client}` marks it to give way"
    )


def _holds_mark(path: Path) -> bool:
    try:
        return MARK.encode() in regular_bytes(path, MAX_BYTES)
    except OSError:
        return False
