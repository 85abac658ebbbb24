"""Hook entry points: the commit check, the refresh after a checkout, merge or
rewrite, session start (docs/hooks.md).

These run on every commit, checkout and agent start, so each imports only what
it uses: never typer or mcp, and pygit2 only when a snapshot must be recomputed
whole (through the service) or a memory names a file a refresh finds missing.
The commit check skips the service on purpose: importing it costs pygit2's
~210 ms, more than the whole check. A hook never
blocks git or an agent because of its own error: it says what went wrong and
exits 0. The one failure is a commit that makes project memories stale.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from synapse_git import exit_codes
from synapse_git.data_folder import data_dir
from synapse_git.errors import BadInput, SynapseError
from synapse_git.escaping import visible
from synapse_git.git import git_command
from synapse_git.session import snapshot_file

# `typing` is not imported when running: 2 ms of every commit.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from synapse_git.drift.commit_check import Broken
    from synapse_git.git.project_scope import Scope
    from synapse_git.session.snapshots import Refresh, Snapshot
    from synapse_git.settings import Config

# Everything else is imported where it is used: the commit path of a commit
# that deletes nothing loads only this module, git_command, snapshot_file and data_folder.

# Commit-check exit codes: the hook's failure is git's refusal.
PASS, BLOCK = exit_codes.OK, exit_codes.NEEDS_ATTENTION
SCREEN_LINES = 20
if TYPE_CHECKING:
    T = TypeVar("T")
# What one refresh screen names: a commit by its first SHORT_COMMIT hex digits, at most
# LISTED_IDS re-checked ids, LISTED_MEMORIES memories of each kind and LISTED_PATHS
# gone paths of each.
SHORT_COMMIT = 12
LISTED_IDS = 12
LISTED_MEMORIES = 8
LISTED_PATHS = 3


def _say(text: str, *, err: bool = False) -> None:
    # Git shows a hook's output on the terminal: bodies and paths are shown, not obeyed.
    print(visible(text), file=sys.stderr if err else sys.stdout, flush=True)


def _internal(what: str, exc: BaseException) -> int:
    detail = f"{type(exc).__name__}: {exc}" if not isinstance(exc, BadInput) else str(exc)
    _say(f"synapse: {what} failed ({detail}); carrying on", err=True)
    if os.environ.get("SYNAPSE_DEBUG") == "1":
        import traceback

        traceback.print_exc()
    return PASS


# -- the commit check ----------------------------------------------------------------


def pre_commit_main(argv: Sequence[str] | None = None) -> int:
    """`synapse-drift-hook [--warn-only]`: fail when the staged commit deletes or
    renames a path a live project memory names; everything else only warns."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print(
            "usage: synapse-drift-hook [--warn-only]\n\nCheck the staged commit against the "
            "project's memories; fail when it deletes or renames a path a live project "
            "memory names.\n\n  --warn-only  report, never block"
        )
        return PASS
    # argparse is not used here: it alone costs more than the git calls of the check.
    # File names a framework may pass are ignored: the staged tree is read instead.
    unknown = [arg for arg in args if arg.startswith("-") and arg != "--warn-only"]
    try:
        if unknown:
            _say(f"synapse: ignoring unknown options {' '.join(unknown)}", err=True)
        return check_commit(warn_only="--warn-only" in args)
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return _internal("the memory check of this commit", exc)


def check_commit(*, warn_only: bool = False, folder: Path | None = None) -> int:
    """Check the commit being made in `folder` (default: here); print and return the code."""
    staged = git_command.StagedChanges(folder)
    checkout = git_command.locate(folder)
    if checkout is None:
        staged.cancel()
        return PASS
    changes = staged.result()
    if any(change.path == TEAM_FILE and change.status != "D" for change in changes):
        problems = _team_file_problems(checkout.toplevel)
        if problems:
            lead = "synapse: warning:" if warn_only else "synapse: this commit"
            _say(f"{lead} stages a team memory file that would break it for the team:")
            for problem in problems[:SCREEN_LINES]:
                _say(f"  {problem}")
            if not warn_only:
                return BLOCK
    where = data_dir()
    broken: list[Broken] = []
    if any(change.status in "DR" for change in changes):
        broken = _broken(where, checkout, changes)
    _warn_existing(where, str(checkout.toplevel), {b.memory_id for b in broken})
    if not broken:
        return PASS
    _report_broken(broken, blocking=not warn_only)
    return PASS if warn_only else BLOCK


TEAM_FILE = ".synapse/memories.jsonl"


def _team_file_problems(toplevel: Path) -> list[str]:
    """What is wrong with the staged team file: not a regular file, too large, bad or
    repeated lines (the one check sync and the merge driver make too), secrets."""
    from synapse_git.team import records, secrets

    listed = git_command.git(["ls-files", "-s", "--", TEAM_FILE], toplevel)
    mode = listed.stdout.split(b" ", 1)[0] if listed.returncode == 0 else b""
    if mode and mode != b"100644" and mode != b"100755":
        return [f"{TEAM_FILE}: staged as a symlink or submodule; it must be a regular file"]
    staged = git_command.git(["show", f":{TEAM_FILE}"], toplevel)
    if staged.returncode != 0:
        return []
    if len(staged.stdout) > records.MAX_FILE_BYTES:
        return [f"{TEAM_FILE}: over the {records.MAX_FILE_BYTES} bytes allowed"]
    found, errors = records.parse_lines(staged.stdout.split(b"\n"))
    problems = [f"{TEAM_FILE}:{error.number}: {error.reason}" for error in errors]
    for record in found.values():
        kinds = secrets.secrets_in(record.body + "\n" + record.source)
        if kinds and record.state == "live":
            problems.append(f"shared memory {record.id} seems to hold {', '.join(kinds)}")
    return problems


def _broken(
    where: Path, checkout: git_command.Worktree, changes: Sequence[git_command.Change]
) -> list[Broken]:
    from contextlib import closing

    from synapse_git.drift import commit_check
    from synapse_git.store import readonly

    conn = readonly.open_readonly(where / "memory.db")
    if conn is None:
        return []
    with closing(conn):
        return commit_check.broken_memories(
            conn,
            checkout.project,
            str(checkout.toplevel),
            changes,
            find_paths=_find_paths,
            still_tracked=lambda folders: git_command.tracked_under(checkout.toplevel, folders),
            staged_files=lambda: git_command.tracked_files(checkout.toplevel),
        )


def _find_paths(text: str) -> list[str]:
    # The path finder (and pathspec) loads only when some memory holds a gone path.
    from synapse_git.drift.paths import find_paths

    return find_paths(text)


def _warn_existing(where: Path, checkout: str, ids: set[int]) -> None:
    """Drift that was there before this commit: a warning, from the last refresh,
    counting only what is still true now.

    The refresh may be old: a memory it found stale counts only while it is
    still live and one of its paths is still missing now (a stat each); a
    conflicting or duplicate pair counts only while neither memory was
    forgotten, superseded or edited since (settled, or to be judged again).
    """
    snapshot = snapshot_file.read_raw(where, checkout)
    if snapshot is None:
        return
    stale_keys = [key for key in snapshot.get("stale", {}) if int(key) not in ids]
    pair_maps = [snapshot.get("older", {}), snapshot.get("repeated", {})]
    named = {int(key) for key in stale_keys}
    named.update(int(key) for pairs in pair_maps for key in pairs)
    named.update(int(value) for pairs in pair_maps for value in pairs.values())
    if not named:
        return
    unsettled = _unsettled(where, checkout, named, str(snapshot.get("store_version", "")))
    stale = [
        key
        for key in stale_keys
        if int(key) in unsettled and _still_missing(checkout, snapshot["stale"][key])
    ]
    pairs = sum(
        1
        for mapping in pair_maps
        for key, newer in mapping.items()
        if int(key) in unsettled and int(newer) in unsettled
    )
    parts = []
    if stale:
        noun = "memory names" if len(stale) == 1 else "memories name"
        parts.append(f"{len(stale)} project {noun} a path missing now")
    if pairs:
        when = snapshot_file.written_at(where, checkout)
        noun = "memory" if pairs == 1 else "memories"
        parts.append(
            f"{pairs} conflicting or duplicate {noun} found at the last refresh ({when}) "
            "and not settled since"
        )
    if parts:
        _say(
            f"synapse: warning: {'; '.join(parts)} "
            "(not blocking; `synapse memory drift` lists them)"
        )


def _unsettled(where: Path, checkout: str, ids: set[int], version: str) -> set[int]:
    """Those of `ids` still live and unchanged since the store was at `version`
    (a memory's every change adds a history row past the version's last one)."""
    from contextlib import closing

    if _untouched_since_snapshot(where, checkout):
        return ids  # no write since the snapshot was made: a stat each, no SQLite
    from synapse_git.store import readonly

    conn = readonly.open_readonly(where / "memory.db")
    if conn is None:
        return set()
    with closing(conn):
        if readonly.store_version(conn) == version:
            return ids
        try:
            last_change = int(version.rsplit(":", 1)[1])
        except (IndexError, ValueError):
            last_change = -1  # an unreadable version: every change counts as new
        marks = ", ".join("?" for _ in ids)
        rows = conn.execute(
            f"SELECT id FROM memories WHERE id IN ({marks}) AND state = 'live' AND NOT EXISTS "
            "(SELECT 1 FROM history WHERE history.memory_id = memories.id AND history.id > ?)",
            [*sorted(ids), last_change],
        )
        return {int(row[0]) for row in rows}


def _untouched_since_snapshot(where: Path, checkout: str) -> bool:
    """Whether neither the store nor its write-ahead log was written after the
    checkout's snapshot (any later write, even a recall count, means asking)."""
    snapshot = snapshot_file.snapshot_path(where, checkout)
    try:
        made = snapshot.stat().st_mtime_ns
        written = [
            path.stat().st_mtime_ns
            for path in (where / "memory.db", where / "memory.db-wal")
            if path.exists()
        ]
    except OSError:
        return False
    return bool(written) and max(written) < made


def _still_missing(checkout: str, paths: object) -> bool:
    if not isinstance(paths, list) or not paths:
        return True
    return any(not os.path.lexists(os.path.join(checkout, str(path).rstrip("/"))) for path in paths)


def _report_broken(items: Sequence[Broken], *, blocking: bool) -> None:
    from synapse_git.drift import settle
    from synapse_git.textrules import first_line

    ids = sorted({b.memory_id for b in items})
    noun = "memory" if len(ids) == 1 else "memories"
    lead = "synapse: this commit" if blocking else "synapse: warning: this commit"
    _say(f"{lead} makes {len(ids)} project {noun} stale:")
    for memory_id in ids:
        mine = [b for b in items if b.memory_id == memory_id]
        body = mine[0].body
        _say(f"  memory {memory_id}: {first_line(body)}")
        for b in mine:
            moved = "is deleted" if b.new_path is None else f"is renamed to {b.new_path}"
            _say(f"    {b.path} {moved}")
        renamed = [(b.path, b.new_path) for b in mine if b.new_path is not None]
        fixed = settle.corrected(body, [b.path for b in mine], renamed)
        forget = settle.command("synapse", "memory", "forget", str(memory_id))
        if fixed is None:
            _say(f"    settle: {forget}   (or edit it to say what is true now)")
        else:
            _say(f"    update: {settle.replacing('edit', memory_id, fixed)}")
            _say(f"    or:     {settle.replacing('supersede', memory_id, fixed)}")
    if blocking:
        _say(
            "Update or forget these memories, then commit again "
            "(`git commit --no-verify` skips this check once)."
        )


# -- post-checkout -------------------------------------------------------------------


def post_checkout(
    old: str | None,
    new: str | None,
    flag: str | None,
    folder: Path | None = None,
    *,
    rewrite: bool = False,
) -> int:
    """After a branch switch (flag 1), a merge or a rewrite (`rewrite`): re-check
    the memories naming a path that changed, print one screen, write the session
    snapshot. A file checkout (flag 0) does nothing visible."""
    # What changed is measured against this checkout's last snapshot, which also
    # covers switches made while the hook was not installed, not against OLD.
    del old, new
    try:
        if flag != "1":
            return PASS
        found = git_command.locate(folder)
        if not rewrite and found is not None and git_command.state(found.git_dir) == "rebase":
            # A rebase checks out its base first; post-rewrite refreshes once it is done.
            return PASS
        # lexists: a team file that is a symlink is synced, so that it is refused aloud.
        team = found is not None and os.path.lexists(found.toplevel / TEAM_FILE)
        if not team and not data_dir().joinpath("memory.db").is_file():
            return PASS
        quick = None if team or found is None else _moved_snapshot(found)
        if quick is not None:
            for line in _refresh_lines(quick)[:SCREEN_LINES]:
                _say(line)
            return PASS
        from synapse_git.service import Synapse

        svc = Synapse()
        scope = svc.scope(folder)
        if team:
            try:
                synced = svc.sync_team(scope)
            except BadInput as exc:
                # A team file that is a symlink or too large: said, and the rest goes on.
                _say(f"synapse: team memory not synced: {exc}", err=True)
            else:
                for skipped in synced.skipped[:SCREEN_LINES]:
                    _say(f"synapse: skipped {skipped}")
                if synced.changed or synced.skipped:
                    _say(f"synapse: {synced.summary()}")
        refresh = svc.refresh_checkout(scope)
        if refresh is not None:
            for line in _refresh_lines(refresh)[:SCREEN_LINES]:
                _say(line)
        return PASS
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return _internal("the session refresh", exc)


def _moved_snapshot(found: git_command.Worktree) -> Refresh | None:
    """The checkout's snapshot brought to HEAD without the service (whose import,
    pygit2's included, costs more than the whole refresh): only memories naming
    a changed path are checked, and pygit2 loads only when there are some. None
    when a whole check is needed (no snapshot, the store changed since)."""
    from contextlib import closing

    from synapse_git import settings
    from synapse_git.session import refresh, snapshots
    from synapse_git.store import readonly

    cfg = settings.load()
    conn = readonly.open_readonly(cfg.db_path)
    if conn is None:
        return None
    key = str(found.toplevel)
    before = snapshots.read_snapshot(cfg.data_dir, key)

    def scope() -> Scope:
        from synapse_git.git import project_scope

        return project_scope.resolve(found.toplevel)

    with closing(conn):
        moved = refresh.incremental(
            conn,
            before,
            checkout=found.toplevel,
            head=found.head,
            version=readonly.store_version(conn),
            limits=cfg.drift,
            scope=scope,
            data_dir=cfg.data_dir,
        )
    if moved is None:
        return None
    snapshot, rechecked = moved
    snapshots.write_snapshot(cfg.data_dir, snapshot)
    return snapshots.compare(before, snapshot, rechecked)


def post_rewrite(command: str | None, folder: Path | None = None) -> int:
    """After `git commit --amend` or `git rebase`: the refresh, for the rewritten commits.
    An amend says something only when a memory became stale or fine again."""
    if command == "amend":
        return _quiet_refresh(folder)
    return post_checkout(None, None, "1", folder, rewrite=True)


def _quiet_refresh(folder: Path | None) -> int:
    try:
        if not data_dir().joinpath("memory.db").is_file():
            return PASS
        found = git_command.locate(folder)
        refresh = None if found is None else _moved_snapshot(found)
        if refresh is None:
            from synapse_git.service import Synapse

            svc = Synapse()
            refresh = svc.refresh_checkout(svc.scope(folder))
        if refresh is not None and (refresh.became_stale or refresh.fine_again):
            for line in _refresh_lines(refresh)[:SCREEN_LINES]:
                _say(line)
        return PASS
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return _internal("the session refresh", exc)


def _refresh_lines(refresh: Refresh) -> list[str]:
    snap = refresh.snapshot
    where = f" at {snap.head[:SHORT_COMMIT]}" if snap.head else ""
    from synapse_git.textrules import counted

    again = refresh.rechecked
    if again is None:
        checked = counted(snap.visible, "memory", "memories")
        lines = [f"synapse: checked {checked} for this checkout{where}"]
    else:
        differ = counted(again.paths, "path", "paths")
        among = counted(snap.visible, "memory", "memories")
        ids, since = again.ids, again.since[:SHORT_COMMIT]
        shown = ", ".join(map(str, ids[:LISTED_IDS])) + (" …" if len(ids) > LISTED_IDS else "")
        lines = [
            f"synapse: re-checked {len(again.ids)} of {among} for this "
            f"checkout{where}: those naming one of {differ} changed since {since}"
            + (f" ({shown})" if again.ids else "")
        ]
    if refresh.became_stale:
        verb = "stale" if refresh.first else "became stale"
        lines.append(f"  {verb} ({len(refresh.became_stale)}):")
        for key, paths in _first_by_id(refresh.became_stale):
            gone = ", ".join(paths[:LISTED_PATHS])
            lines.append(f"    [{key}] {snap.titles.get(key, '')} — gone: {gone}")
    if refresh.fine_again:
        lines.append(f"  fine again ({len(refresh.fine_again)}):")
        for key, title in _first_by_id(refresh.fine_again):
            lines.append(f"    [{key}] {title}")
    left = len(snap.stale) + len(snap.repeated)
    # The older half of a conflict is told, marked: counted, not left out.
    marks = [f"{len(snap.older)} marked as contradicted"] if snap.older else []
    if snap.changed:
        marks.append(f"{len(snap.changed)} naming a file changed a lot since")
    told = f"  {len(snap.entries)} to tell a session" + (f" ({', '.join(marks)})" if marks else "")
    lines.append(
        f"{told}; left out {left}: {len(snap.stale)} stale, {len(snap.repeated)} duplicate"
    )
    return lines


def _first_by_id(found: dict[str, T]) -> list[tuple[str, T]]:
    """The first LISTED_MEMORIES entries of `found` (keyed by memory id), by id."""
    return sorted(found.items(), key=lambda item: int(item[0]))[:LISTED_MEMORIES]


# -- session start -------------------------------------------------------------------


def session(folder: Path | None = None, budget: str | None = None, fmt: str = "text") -> int:
    """Print what an agent starting in `folder` should be told (at most 8 KiB)."""
    from synapse_git import settings
    from synapse_git.session import snapshots

    cfg = settings.load()
    chosen = cfg.budget(budget)
    if fmt not in ("text", "claude", "cursor"):
        raise BadInput(f"unknown format {fmt!r}: choose text, claude or cursor")
    try:
        snapshot = _current_snapshot(cfg, folder)
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        _internal("reading memories for this session", exc)
        return PASS
    print(snapshots.render(snapshot, chosen, fmt), end="" if fmt == "text" else "\n")
    return PASS


def _current_snapshot(cfg: Config, folder: Path | None) -> Snapshot:
    from contextlib import closing

    from synapse_git.session import snapshots
    from synapse_git.store import readonly

    where = git_command.locate(folder)
    if where is not None:
        key, project, head = str(where.toplevel), where.project, where.head
    else:
        key, project, head = os.path.realpath(folder or os.getcwd()), None, None
    from synapse_git.textrules import utf8

    # Project keys and snapshots are UTF-8 text: a folder named otherwise has neither.
    utf8(key, "this folder's path")
    conn = readonly.open_readonly(cfg.db_path)
    if conn is None:
        return snapshots.nothing(key, project, head)
    with closing(conn):
        version = readonly.store_version(conn)
    found = snapshots.read_snapshot(cfg.data_dir, key)
    if found is not None and found.current(head, version):
        return found
    if where is not None:
        moved = _moved_snapshot(where)
        if moved is not None:
            return moved.snapshot
    from synapse_git.service import Synapse

    svc = Synapse(cfg)
    return svc.session_snapshot(svc.scope(folder))


# -- `synapse hook session|post-checkout|post-merge` without loading the CLI -----------


FAST = ("session", "post-checkout", "post-merge", "post-rewrite")


_VALUED = {
    "session": {"-C": "folder", "--folder": "folder", "--budget": "budget", "--format": "fmt"},
    "post-checkout": {"-C": "folder", "--folder": "folder"},
    "post-merge": {"-C": "folder", "--folder": "folder"},
    "post-rewrite": {"-C": "folder", "--folder": "folder"},
}
_POSITIONALS = {"session": 0, "post-checkout": 3, "post-merge": 1, "post-rewrite": 1}


def _parse(name: str, args: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """Options and positionals of `synapse hook NAME` (argparse alone would cost
    this path ~15 ms of a 100 ms budget)."""
    valued = _VALUED[name]
    options: dict[str, str] = {}
    positionals: list[str] = []
    items = list(args)
    while items:
        item = items.pop(0)
        key, eq, value = item.partition("=")
        if key in valued:
            if not eq:
                if not items:
                    raise BadInput(f"{key} needs a value")
                value = items.pop(0)
            options[valued[key]] = value
        elif item.startswith("-") and item != "-":
            raise BadInput(f"unknown option {item} (see: synapse hook {name} --help)")
        else:
            positionals.append(item)
    if len(positionals) > _POSITIONALS[name]:
        raise BadInput(f"too many arguments for synapse hook {name}: {' '.join(positionals)}")
    return options, positionals


def fast_main(argv: Sequence[str]) -> int:
    """The hook sub-commands an agent or git runs on every start or checkout, parsed
    here so that they skip typer's import; `--help` goes to the full CLI."""
    name = argv[0]
    try:
        options, positionals = _parse(name, argv[1:])
        folder = Path(options["folder"]) if "folder" in options else None
        if name == "session":
            return session(folder, options.get("budget"), options.get("fmt", "text"))
    except SynapseError as exc:
        _say(f"synapse: {exc}", err=True)
        return exc.exit_code
    if name == "post-merge":
        return post_checkout(None, None, "1", folder)
    if name == "post-rewrite":
        return post_rewrite(positionals[0] if positionals else None, folder)
    old, new, flag = [*positionals, None, None, None][:3]
    return post_checkout(old, new, flag if flag is not None else checkout_flag(), folder)


def checkout_flag() -> str | None:
    """The pre-commit framework passes post-checkout's arguments in the environment."""
    return os.environ.get("PRE_COMMIT_CHECKOUT_TYPE")
