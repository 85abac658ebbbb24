"""The tracked team file, `.synapse/memories.jsonl`: one shared memory a line.

Every line is a JSON object with the keys of `Record`, written canonically
(keys sorted, no spaces, UTF-8), and the lines are sorted by `id`, a stable
id made once at share time and the same on every clone. Two people adding
memories therefore touch different lines, and the merge driver (see
`team/merge.py`) settles the rest. See docs/team.md.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from synapse_git.errors import BadInput
from synapse_git.line_fields import check_text, valid_times
from synapse_git.team import FILE as FILE  # the one definition, re-exported
from synapse_git.team import paths

ATTRIBUTES = ".gitattributes"
ATTRIBUTES_LINE = f"{FILE} merge=synapse"
STATES = ("live", "superseded", "forgotten")
MAX_ID = 80
# Ids are made here (a UUID's hex digits, `~` and a digest for a merge's fork):
# anything else is a teammate's invention, kept to plain printable ASCII.
_ID = re.compile(rf"[A-Za-z0-9._:~-]{{1,{MAX_ID}}}")
MAX_AUTHOR = 320
_CONTROL = "[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # compiled on use: see _control
MAX_LINE_BYTES = 1024 * 1024 + 64 * 1024  # a body at its limit plus the other fields
# The whole team file: 64 bodies at their limit. A sync holds no more than this.
MAX_FILE_BYTES = 64 * (1024 * 1024 + 64 * 1024)
MAX_ATTRIBUTES_BYTES = 1024 * 1024
_KEYS = {
    "id", "body", "source", "author", "created_at", "updated_at", "supersedes", "state"
}  # fmt: skip
# Keys a line may carry beyond these, each with its check: a later version adds
# one here, and a line without it still reads.
_COMMIT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


@functools.cache
def _control() -> re.Pattern[str]:
    # Compiled only when a team file is read: a class reaching past ASCII takes a
    # while to compile, and every command that loads this module would pay for it.
    return re.compile(_CONTROL)


def _check_head_commit(value: object) -> None:
    """The commit the memory was written at (docs/team.md); older lines lack it."""
    if value is not None and (not isinstance(value, str) or not _COMMIT.fullmatch(value)):
        raise BadInput("head_commit must be a full commit id or null")


OPTIONAL: dict[str, Callable[[object], None]] = {"head_commit": _check_head_commit}


class Record(NamedTuple):
    """One shared memory as the team file holds it."""

    id: str
    body: str
    source: str
    author: str
    created_at: str
    updated_at: str
    supersedes: str | None
    state: str
    head_commit: str | None = None

    def line(self) -> str:
        """The canonical line (without its newline): equal records, equal bytes. A
        record with no commit has no `head_commit` key, as lines written before."""
        fields = self._asdict()
        if fields["head_commit"] is None:
            del fields["head_commit"]
        return json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class LineError(NamedTuple):
    number: int
    reason: str
    raw: bytes | None = b""  # the line as it was (None: too long to keep)


class _Repeated(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once. With a key given twice, a reader
    of the diff sees one value (a reviewer in a pull request, the first) and a parser
    takes another (Python's, the last): the line would say two things."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(f"{json.dumps(key, ensure_ascii=False)} is given twice")
            seen.add(key)
    return data


def parse_line(text: str) -> Record:
    """A line of the team file as a Record; ValueError says what is wrong with it.

    This is the one check of a memory line: sync, the commit check, the merge
    driver and `import` (for the fields they share, line_fields.py) refuse the
    same lines with the same words."""
    # Four bytes a character at most: only a long line needs encoding to be measured.
    long = len(text) * 4 > MAX_LINE_BYTES
    if long and len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
        raise ValueError(TOO_LONG)
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except _Repeated as exc:
        raise ValueError(str(exc)) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"not JSON ({exc.__class__.__name__})") from None
    except ValueError as exc:
        # An integer of thousands of digits: Python refuses to read it.
        raise ValueError(f"not usable JSON ({str(exc).split(';')[0]})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if not data.keys() >= _KEYS or not data.keys() <= _KEYS | OPTIONAL.keys():
        missing = sorted(_KEYS - data.keys())
        extra = sorted(data.keys() - _KEYS - OPTIONAL.keys())
        raise ValueError(
            "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
        )
    for key in ("id", "author", "state"):
        if not isinstance(data[key], str):
            raise ValueError(f"{key} must be a string")
    if not _ID.fullmatch(data["id"]):
        raise ValueError("id must be a short word of letters, digits and . _ : ~ -")
    if data["supersedes"] is not None and (
        not isinstance(data["supersedes"], str) or not _ID.fullmatch(data["supersedes"])
    ):
        raise ValueError("supersedes must be an id or null")
    _check_author(data["author"])
    try:
        check_text(data["body"], data["source"])
        valid_times(data["created_at"], data["updated_at"])
        for key, check in OPTIONAL.items():
            if key in data:
                check(data[key])
    except BadInput as exc:
        raise ValueError(str(exc)) from None
    if data["state"] not in STATES:
        raise ValueError(f"state must be one of {', '.join(STATES)}")
    if data["supersedes"] == data["id"]:
        raise ValueError("a memory cannot supersede itself")
    return Record._make(map(data.get, Record._fields))


def _check_author(author: str) -> None:
    try:
        author.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("author is not valid Unicode (it holds a lone surrogate)") from None
    if len(author) > MAX_AUTHOR or _control().search(author):
        raise ValueError(f"author must be one line of at most {MAX_AUTHOR} characters")


def decode(raw: bytes) -> str | None:
    """A line's bytes as text, or None when they are not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def scan(
    raw_lines: Iterable[bytes | None],
) -> Iterator[tuple[int, bytes | None, Record | str]]:
    """Each non-blank line of a team file with its number and bytes, and its record or
    what is wrong with it (a line too long to hold comes as None)."""
    for number, raw in enumerate(raw_lines, start=1):
        if raw is None:
            yield number, None, TOO_LONG
            continue
        text = decode(raw)
        if text is None:
            yield number, raw, "not UTF-8"
            continue
        if not text.strip():
            continue
        try:
            yield number, raw, parse_line(text)
        except ValueError as exc:
            yield number, raw, str(exc)


TOO_LONG = "line is longer than any memory can be"


def cycles(supersedes: Callable[[str], str | None], starts: Iterable[str]) -> set[str]:
    """The ids among `starts` whose chain of `supersedes` comes back to itself (a1
    supersedes b1 supersedes a1): such lines would leave no version live. Each id is
    walked once, however long the chains."""
    done: set[str] = set()
    found: set[str] = set()
    for start in starts:
        path: dict[str, int] = {}  # the ids of this walk, in order
        at: str | None = start
        while at is not None and at not in done and at not in path:
            path[at] = len(path)
            at = supersedes(at)
        if at is not None and at in path:
            found.update(list(path)[path[at] :])
        done.update(path)
    return found


def parse(text: str) -> tuple[dict[str, Record], list[LineError]]:
    """Every well-formed record of a team file, and what is wrong with the other lines.
    A repeated id is an error on its second line; the first stands; lines whose
    supersessions form a cycle are errors, all of them."""
    return parse_lines(text.encode("utf-8", "surrogatepass").split(b"\n"))


def parse_lines(raw_lines: Iterable[bytes | None]) -> tuple[dict[str, Record], list[LineError]]:
    records, errors, _ = parse_numbered(raw_lines)
    return records, errors


def parse_numbered(
    raw_lines: Iterable[bytes | None],
) -> tuple[dict[str, Record], list[LineError], dict[str, int]]:
    """`parse_lines`, with the line number each record stands on (for a check that
    points at a memory's line)."""
    records: dict[str, Record] = {}
    numbers: dict[str, tuple[int, bytes | None]] = {}
    errors: list[LineError] = []
    for number, raw, found in scan(raw_lines):
        if isinstance(found, str):
            errors.append(LineError(number, found, raw))
        elif found.id in records:
            errors.append(LineError(number, f"id {found.id} is repeated", raw))
        else:
            records[found.id] = found
            numbers[found.id] = (number, raw)
    looped = cycles(lambda uid: r.supersedes if (r := records.get(uid)) else None, records)
    for uid in looped:
        number, raw = numbers[uid]
        errors.append(LineError(number, CYCLE, raw))
        del records[uid]
    errors.sort(key=lambda error: error.number)
    return records, errors, {uid: numbers[uid][0] for uid in records}


CYCLE = "its supersessions form a cycle (each line supersedes another of the cycle)"


def render(records: Iterable[Record]) -> str:
    """The file text for `records`: sorted by id, one line each."""
    return "".join(record.line() + "\n" for record in sorted(records, key=lambda r: r.id))


def read(path: Path) -> tuple[dict[str, Record], list[LineError]]:
    """The records of a file git hands the merge driver (none when it does not exist),
    read within the file's cap; `read_team` reads the worktree's own team file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        raise BadInput(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BadInput(f"{path}: not a regular file")
        return parse_lines(paths.lines(fd, MAX_LINE_BYTES, MAX_FILE_BYTES, path))
    finally:
        os.close(fd)


def read_team(root: Path) -> tuple[dict[str, Record], list[LineError]]:
    """The records of the team file of the worktree `root` (none when it is missing);
    BadInput when it is a symlink or special file, or too large."""
    with paths.open_read(root, FILE, MAX_FILE_BYTES) as fd:
        if fd is None:
            return {}, []
        return parse_lines(paths.lines(fd, MAX_LINE_BYTES, MAX_FILE_BYTES, root / FILE))


def write(path: Path, records: Iterable[Record]) -> bytes:
    """Replace the file at `path` (the merge driver's result, or a test's) atomically
    (a crash leaves the old file or the new one); returns the bytes written."""
    data = render(records).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    paths.write_bytes(path.parent, path.name, data)
    return data


def attributes_with_driver(root: Path) -> bytes | None:
    """The repository's `.gitattributes` with the line routing the team file to the
    merge driver added, or None when it is there already. Read and added as bytes:
    a teammate's Latin-1 byte elsewhere in the file is left as it is."""
    data = paths.read_bytes(root, ATTRIBUTES, MAX_ATTRIBUTES_BYTES) or b""
    wanted = ATTRIBUTES_LINE.encode("ascii")
    if any(line.strip() == wanted for line in data.splitlines()):
        return None
    if data and not data.endswith(b"\n"):
        data += b"\n"
    return data + wanted + b"\n"
