"""The tracked team file, `.synapse/memories.jsonl`: one shared memory a line.

Every line is a JSON object with the keys of `Record`, written canonically
(keys sorted, no spaces, UTF-8), and the lines are sorted by `id`, a stable
id made once at share time and the same on every clone. Two people adding
memories therefore touch different lines, and the merge driver (see
`team/merge.py`) settles the rest. See docs/team.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

FOLDER = ".synapse"
FILE = ".synapse/memories.jsonl"
ATTRIBUTES_LINE = f"{FILE} merge=synapse"
STATES = ("live", "superseded", "forgotten")
MAX_ID = 80
_ID = re.compile(rf"[^\s]{{1,{MAX_ID}}}")
MAX_LINE_BYTES = 1024 * 1024 + 64 * 1024  # a body at its limit plus the other fields
_KEYS = {
    "id", "body", "source", "author", "created_at", "updated_at", "supersedes", "state"
}  # fmt: skip
# Optional: the commit the memory was written at (docs/team.md); older lines lack it.
_OPTIONAL = {"head_commit"}
_COMMIT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


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


def parse_line(text: str) -> Record:
    """A line of the team file as a Record; ValueError says what is wrong with it."""
    # Four bytes a character at most: only a long line needs encoding to be measured.
    long = len(text) * 4 > MAX_LINE_BYTES
    if long and len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
        raise ValueError("line is longer than any memory can be")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"not JSON ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.keys() - _OPTIONAL != _KEYS:
        missing = sorted(_KEYS - data.keys())
        extra = sorted(data.keys() - _KEYS - _OPTIONAL)
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
    for key in ("id", "body", "source", "author", "created_at", "updated_at", "state"):
        if not isinstance(data[key], str):
            raise ValueError(f"{key} must be a string")
    if data["supersedes"] is not None and not isinstance(data["supersedes"], str):
        raise ValueError("supersedes must be an id or null")
    if not _ID.fullmatch(data["id"]):
        raise ValueError("id must be a short word")
    if not data["body"].strip():
        raise ValueError("body is empty")
    if data["state"] not in STATES:
        raise ValueError(f"state must be one of {', '.join(STATES)}")
    if data["supersedes"] == data["id"]:
        raise ValueError("a memory cannot supersede itself")
    anchor = data.get("head_commit")
    if anchor is not None and (not isinstance(anchor, str) or not _COMMIT.fullmatch(anchor)):
        raise ValueError("head_commit must be a full commit id or null")
    return Record._make(map(data.get, Record._fields))


def parse(text: str) -> tuple[dict[str, Record], list[LineError]]:
    """Every well-formed record of a team file, and what is wrong with the other lines.
    A repeated id is an error on its second line; the first stands."""
    records: dict[str, Record] = {}
    errors: list[LineError] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line)
        except ValueError as exc:
            errors.append(LineError(number, str(exc)))
            continue
        if record.id in records:
            errors.append(LineError(number, f"id {record.id} is repeated"))
            continue
        records[record.id] = record
    return records, errors


def render(records: Iterable[Record]) -> str:
    """The file text for `records`: sorted by id, one line each."""
    return "".join(record.line() + "\n" for record in sorted(records, key=lambda r: r.id))


def read(path: Path) -> tuple[dict[str, Record], list[LineError]]:
    """The records of the team file at `path` (none when it does not exist)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, []
    return parse(data.decode("utf-8", "replace"))


def write(path: Path, records: Iterable[Record]) -> bytes:
    """Replace the team file atomically (a crash leaves the old file or the new one);
    returns the bytes written, so a caller need not read them back."""
    # Only writers pay for it: the commit hook just reads the file.
    from synapse_git.store.output_file import write_lines

    text = render(records)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Split on "\n" only: a JSON line may hold U+2028 and friends raw.
    write_lines(path, text.split("\n")[:-1])
    return text.encode("utf-8")


def ensure_attributes(root: Path) -> bool:
    """Make the repository's `.gitattributes` route the team file to the merge driver;
    True when the file was changed."""
    path = root / ".gitattributes"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if any(line.strip() == ATTRIBUTES_LINE for line in text.splitlines()):
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    path.write_text(text + ATTRIBUTES_LINE + "\n", encoding="utf-8")
    return True
