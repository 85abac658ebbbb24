"""The plain git hook scripts, and installing them without losing anyone's hook (docs/hooks.md).

A hook Synapse writes carries MARK on its second line, but only a hook byte for
byte identical to one Synapse writes counts as Synapse's. A hook it finds that
it did not write (an edited copy of Synapse's own included) is chained, not
replaced: it is renamed NAME.synapse-chained, Synapse's script runs it first
(its failure still stops git), and uninstall renames it back byte for byte.
Every check happens before the first write, so a refusal leaves the hooks
folder as it was. An install or uninstall holds a lock on the hooks folder from
its first look to its last write: two at once (two worktrees share one hooks
folder, a global core.hooksPath every repository) run one after the other, so
the second never acts on what the folder held before the first one's writes.
Git may run a hook at any moment: a hook chained or put back keeps its name
until what replaces it takes the name in one step, so git never finds none.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from synapse_git.answers import HOOKS as HOOKS
from synapse_git.errors import BadInput

MARK = "# synapse-managed hook"
CHAINED = ".synapse-chained"
# Where the pre-commit framework's `install` moves the hook it finds, and runs it first.
LEGACY = ".legacy"

# What each hook runs, and whether a chained hook's failure ends the hook at once.
_COMMANDS = {
    "pre-commit": ("synapse-drift-hook", "synapse-drift-hook", True),
    # A merge that needs no conflict resolution never runs pre-commit: git runs this
    # instead, with the merge result staged, so the same check sees what it deletes.
    "pre-merge-commit": ("synapse-drift-hook", "synapse-drift-hook", True),
    "post-checkout": ("synapse", 'synapse hook post-checkout "$@"', False),
    "post-merge": ("synapse", 'synapse hook post-merge "$@"', False),
    # git writes the rewritten commits to stdin; the refresh diffs trees instead.
    "post-rewrite": ("synapse", 'synapse hook post-rewrite "$@" </dev/null', False),
}
_PURPOSE = {
    "pre-commit": "Blocks a commit that deletes or renames a path a live project memory names.",
    "pre-merge-commit": "Blocks a merge deleting or renaming a path a live project memory names.",
    "post-checkout": "After a branch switch: re-checks drift and refreshes the session snapshot.",
    "post-merge": "After a merge or pull: re-checks drift and refreshes the session snapshot.",
    "post-rewrite": "After a rebase or amend: re-checks drift and refreshes the session snapshot.",
}


@dataclass(frozen=True)
class Action:
    hook: str
    # installed, chained, rechained, updated, unchanged, removed, restored, left alone, absent
    done: str
    path: Path

    @property
    def chained(self) -> str:
        """The name the hook it found there is kept under, run first."""
        return self.hook + CHAINED


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# The first lines of someone else's hook that is a plain POSIX shell script: it runs
# as if it were still the hook, under the hook's own path as `$0`.
_SHELLS = ("'#!/bin/sh'", "'#!/usr/bin/env sh'")


def script(name: str, bindir: str | None = None, *, edition: int = 4) -> str:
    """The shell script for hook `name`; `bindir` is put first on PATH when given.

    Editions 1 to 3 are the scripts earlier versions wrote, kept so that they are
    still recognised as Synapse's own: edition 1 lacked the guard that stops a
    chained copy of the script from running itself, and editions 1 and 2 ran a
    chained hook under its new name, where a hook manager's script that finds its
    work by its own name (`basename "$0"`) found none and let everything through.
    Edition 3, run again by the chained script it runs under the hook's path (as
    `exec bash "$0"` does), ran its own part in both runs.
    """
    program, command, stop_on_failure = _COMMANDS[name]
    # A hand-edited copy of this script, once chained, finds itself as "$chained".
    run_chained = '[ -x "$chained" ]'
    if edition > 1:
        run_chained += ' && [ "$chained" != "$0" ]'
    lines = [
        "#!/bin/sh",
        f"{MARK}: {name}",
        f"# {_PURPOSE[name]}",
        "# `synapse hook uninstall` removes it and puts back any hook it chained.",
        f'chained="$(dirname "$0")/{name}{CHAINED}"',
    ]
    failed = "exit $?" if stop_on_failure else "status=$?"
    if stop_on_failure:
        lines.append("# A hook that was here first runs first; its failure still stops the commit.")
    else:
        lines.append("# A hook that was here first runs first; its exit status is the hook's.")
        lines.append("status=0")
    if edition < 3:
        lines.append(f'if {run_chained}; then "$chained" "$@" || {failed}; fi')
    else:
        if edition > 3:
            lines += [
                "# Set aside under another name by a hook manager whose own hook, at this name",
                "# now, runs this script (pre-commit's NAME.legacy): run from the hook chained,",
                "# by Synapse's script at this name, this has nothing left to do; else the hook",
                "# chained is the manager's own, which runs this one: it is not run again.",
                'case "$0" in',
                f"*/{name} | {name}) ;;",
                "*)",
                '    [ "$chained" != "$0" ] && [ "${SYNAPSE_CHAINED-}" -ef "$chained" ] && exit 0',
                f'    ! cmp -s "$chained" "$(dirname "$0")/{name}" 2>/dev/null || chained=',
                "    ;;",
                "esac",
            ]
        lines += [
            "# A plain shell script runs under this hook's path, as when it was here: a hook",
            "# manager's script finds what to run by its own name and folder. Not a copy of",
            "# this script, nor one it runs that runs this hook again (SYNAPSE_CHAINED), nor a",
            "# link: a script linked here may find its own files by where the link leads.",
            f"if {run_chained}; then",
        ]
        if edition > 3:
            lines += [
                '    # Run again by that script ("$0"): this run is the script\'s, and no more.',
                '    [ "${SYNAPSE_CHAINED-}" = "$chained" ] && exec "$chained" "$@"',
            ]
        # Edition 4 reads no FIFO (executable, it would hold git for ever).
        again = '[ "${SYNAPSE_CHAINED-}" = "$chained" ] || ' if edition == 3 else ""
        file = "" if edition == 3 else ' [ ! -f "$chained" ] ||'
        # Edition 4 tells a hook it runs as itself too, which a manager may run again.
        direct = "" if edition == 3 else 'SYNAPSE_CHAINED="$chained" '
        lines += [
            "    first= second=",
            f'    {again}[ -L "$chained" ] ||{file}',
            '        { IFS= read -r first; IFS= read -r second; } 2>/dev/null <"$chained"',
            f'    case "$second" in "{MARK}"*) first= ;; esac',
            '    case "$first" in',
            f"    {' | '.join(_SHELLS)})",
            '        SYNAPSE_CHAINED="$chained" ${first#??} -c \'. "$SYNAPSE_CHAINED"\''
            ' "$0" "$@" ||',
            f"            {failed}",
            "        ;;",
            f'    *) {direct}"$chained" "$@" || {failed} ;;',
            "    esac",
            "fi",
        ]
    if stop_on_failure:
        lines.append("status=0")
    if name == "post-checkout":
        # A file checkout (flag 0) has nothing to refresh: skip starting Python.
        lines.append('[ "$3" = 1 ] || exit $status')
    if bindir is not None:
        lines.append(f"PATH={_quote(bindir)}:$PATH")
    lines += [
        f"if ! command -v {program} >/dev/null 2>&1; then",
        f'    echo "synapse: {program} is not on PATH; {name} hook skipped" >&2',
        "    exit $status",
        "fi",
    ]
    if stop_on_failure:
        lines.append(f"exec {command}")
    else:
        lines += [command, "exit $status"]
    return "\n".join(lines) + "\n"


EDITIONS = (1, 2, 3, 4)


def _ours(path: Path, name: str) -> bool:
    """Whether `path` is byte for byte a script Synapse wrote for hook `name`.

    The marker alone proves nothing: a user's edited copy carries it too, and
    must be chained and given back intact, never overwritten or deleted.
    """
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with path.open("rb") as handle:
            content = handle.read(64 * 1024 + 1)
    except OSError:
        return False
    if MARK.encode() not in content[:256]:
        return False
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return any(
        content == script(name, bindir, edition=edition).encode("utf-8")
        for bindir in (None, _bindir(text))
        for edition in EDITIONS
    )


def _bindir(text: str) -> str | None:
    """The folder a Synapse script puts first on PATH, read back from its text."""
    for line in text.splitlines():
        if line.startswith("PATH='") and line.endswith("':$PATH"):
            return line[len("PATH='") : -len("':$PATH")].replace("'\\''", "'")
    return None


def installed(folder: Path) -> dict[str, str]:
    """Each hook's state in `folder`: synapse (ours), other (someone else's), overwritten
    (the very hook Synapse chained, written again over its script, as a hook manager
    writes its stubs: installing again chains it again) or absent. Synapse's script moved
    to NAME.legacy is still Synapse's: the pre-commit framework's hook, installed over
    it, runs that first."""
    states: dict[str, str] = {}
    for name in HOOKS:
        path = folder / name
        if _ours(path, name) or _ours(folder / (name + LEGACY), name):
            states[name] = "synapse"
        elif not path.exists():
            states[name] = "absent"
        else:
            again = _same_hook(path, folder / (name + CHAINED))
            states[name] = "overwritten" if again else "other"
    return states


def _check_names(names: Sequence[str]) -> list[str]:
    unknown = [name for name in names if name not in HOOKS]
    if unknown or not names:
        raise BadInput(
            f"unknown hook {', '.join(unknown) or '(none)'}: choose from {', '.join(HOOKS)}"
        )
    return list(dict.fromkeys(names))


def _writable(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"the hooks folder {folder} is not a folder; fix core.hooksPath")
    probe = folder if folder.exists() else folder.parent
    if not os.access(probe, os.W_OK):
        raise BadInput(f"cannot write to the hooks folder {folder}")


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the hooks folder against another install or uninstall (an advisory lock on
    the folder itself: nothing is added to it, and a killed process holds nothing)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise BadInput(f"cannot open the hooks folder {folder}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def install(
    folder: Path,
    names: Sequence[str],
    bindir: str | None,
    then: Callable[[], object],
    *,
    tracked: Collection[str] = (),
) -> list[Action]:
    """Install the scripts `names` into the hooks folder `folder`, chaining foreign hooks,
    then call `then` (the merge driver's setting) while the folder is still held.
    A foreign hook named in `tracked` is a file of the repository: never chained."""
    wanted = _check_names(names)
    _writable(folder)
    # Made before the lock it holds; a refusal needs a hook already in it.
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        actions = _install(folder, wanted, bindir, tracked)
        then()
        return actions


def _install(
    folder: Path, wanted: list[str], bindir: str | None, tracked: Collection[str]
) -> list[Action]:
    plan: list[tuple[str, str]] = []
    for name in wanted:
        target, backup = folder / name, folder / (name + CHAINED)
        if not os.path.lexists(target):
            plan.append((name, "installed"))
        elif _ours(target, name):
            same = target.read_bytes() == script(name, bindir).encode("utf-8")
            plan.append((name, "unchanged" if same else "updated"))
        elif target.is_dir():
            raise BadInput(f"{target} is a folder, not a hook script: cannot chain it")
        elif name in tracked:
            others = ",".join(other for other in wanted if other != name)
            rest = f", and install the others with --hooks {others}" if others else ""
            raise BadInput(
                f"{target} is a file of this repository: chaining it would change it for"
                f" everyone; add `{_COMMANDS[name][1]}` to it instead{rest}"
            )
        elif os.path.lexists(backup) and _same_hook(target, backup):
            # A hook manager writing its stubs again (on each install of its package), or
            # a set-up script linking its hook again, puts back the very hook Synapse
            # chained: it is kept already, byte for byte or as the same link.
            plan.append((name, "rechained"))
        elif os.path.lexists(backup):
            raise BadInput(
                f"{target} is not Synapse's and {backup.name} already exists, so it cannot be "
                "chained without losing one; move one of them away and install again"
            )
        else:
            plan.append((name, "chained"))
    actions: list[Action] = []
    for name, done in plan:
        target = folder / name
        if done == "chained":
            _set_aside(target, folder / (name + CHAINED))
        if done != "unchanged":
            _write(target, script(name, bindir))
        actions.append(Action(name, done, target))
    return actions


def _same_hook(one: Path, other: Path) -> bool:
    """Whether two regular files hold the same bytes, read within a bound, or two links
    lead to the same place as written (a set-up script's `ln -sf`, run again)."""
    try:
        if one.is_symlink() and other.is_symlink():
            return os.readlink(one) == os.readlink(other)
        if one.is_symlink() or other.is_symlink() or not (one.is_file() and other.is_file()):
            return False
        size = one.stat().st_size
        if size != other.stat().st_size or size > 1024 * 1024:
            return False
        return one.read_bytes() == other.read_bytes()
    except OSError:
        return False


def _set_aside(target: Path, backup: Path) -> None:
    """Keep the hook at `target` as `backup` too, so that it stays in place until
    Synapse's script replaces it: git, running a hook meanwhile, finds one of the two.
    A file system without hard links has it moved instead."""
    try:
        os.link(target, backup, follow_symlinks=False)
    except FileExistsError:
        raise BadInput(
            f"{backup.name} appeared meanwhile: move it away and install again"
        ) from None
    except OSError:
        os.rename(target, backup)


def _write(target: Path, text: str) -> None:
    temporary = target.with_name(f".{target.name}.synapse-new")
    temporary.write_text(text, encoding="utf-8")
    mode = stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
    temporary.chmod(mode)
    os.replace(temporary, target)


def uninstall(folder: Path, names: Sequence[str], then: Callable[[], object]) -> list[Action]:
    """Remove Synapse's scripts `names` from `folder` and put chained hooks back, then
    call `then` (the merge driver's setting) while the folder is still held."""
    wanted = _check_names(names)
    if not folder.is_dir():
        then()
        return [Action(name, "absent", folder / name) for name in wanted]
    with _locked(folder):
        actions = _uninstall(folder, wanted)
        then()
        return actions


def _uninstall(folder: Path, wanted: list[str]) -> list[Action]:
    actions: list[Action] = []
    for name in wanted:
        target, backup = folder / name, folder / (name + CHAINED)
        if os.path.lexists(target) and not _ours(target, name):
            actions.append(Action(name, "left alone", target))
            continue
        if os.path.lexists(backup):
            # Over Synapse's script in one step: git finds one hook or the other.
            os.replace(backup, target)
            done = "restored"
        elif os.path.lexists(target):
            target.unlink()
            done = "removed"
        else:
            done = "absent"
        actions.append(Action(name, done, target))
    return actions
