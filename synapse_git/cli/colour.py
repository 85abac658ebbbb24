"""Colour for the states and findings a person reads on a terminal: never on a pipe
or in a file, never with NO_COLOR set (https://no-color.org), never on a dumb
terminal; JSON is never coloured.

Everything a command prints has its control characters escaped on the way out
(cli/output.py), so a colour cannot be an escape sequence in the text. `paint` wraps
text in markers that carry a random token of this process instead, and only the
output stream turns those markers into colour, after escaping the text between
them: a memory's body cannot forge a marker it does not know.
"""

from __future__ import annotations

import os
import re
import sys

from synapse_git.escaping import visible

# SGR codes: red for what is wrong now, yellow for what disagrees, dim for what only
# informs, blue for another branch's, green for what holds.
_ROLES = {
    "stale": "31",
    "conflict": "33",
    "duplicate": "35",
    "changed": "36",
    "orphaned": "31",
    "unmerged": "34",
    "unverified": "2",
    "weak": "2",
    "live": "32",
    "superseded": "33",
    "forgotten": "2",
}
_TOKEN = os.urandom(8).hex()
_MARK = re.compile(re.escape(f"\ufdd0{_TOKEN}") + r"(\d{1,2})\ufdd1")


def enabled() -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def paint(text: str, role: str) -> str:
    """`text` in the colour of `role` (a finding kind or a state) on a terminal."""
    code = _ROLES.get(role)
    if code is None or not enabled():
        return text
    return f"\ufdd0{_TOKEN}{code}\ufdd1{text}\ufdd0{_TOKEN}0\ufdd1"


def shown(text: str) -> str:
    """`text` as a terminal may receive it: control characters escaped, this process's
    colour markers turned into colour."""
    if "\ufdd0" not in text:
        return visible(text)
    parts = _MARK.split(text)
    # split() alternates text and captured codes: text, code, text, code, ..., text
    out = [visible(parts[0])]
    for code, rest in zip(parts[1::2], parts[2::2], strict=True):
        out.append(f"\x1b[{code}m")
        out.append(visible(rest))
    return "".join(out)
