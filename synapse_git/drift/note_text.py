"""The claims a note makes, without the markup around them (docs/drift.md, conflicts).

Memory files often carry YAML front matter (`name:`, `description:`, `type:`,
`tags:`…) and markdown structure. Front matter is metadata: two notes sharing
its keys say nothing about each other, so only a `description:` (or
`summary:`) is kept, as a sentence of its own. Headings are titles, not claims;
list markers, code fences and the labels of a rationale (`**Why:**`) are
dropped, leaving what the line says.
"""

from __future__ import annotations

import re

# A block opened by `---` on the first line and closed by `---` or `...`.
_FRONT = re.compile(r"\A\ufeff?[ \t]*---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t\r]*$", re.S | re.M)
_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")
# What else a YAML mapping's lines look like: indented, list items, comments.
_YAML_MORE = re.compile(r"^(?:[ \t]|-[ \t]|-$|#)")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)")
_MARKER = re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
# `**Why:**`, `_Note:_`, `Why:`: the label says what kind of text follows, not a value.
_RATIONALE = re.compile(
    r"^(?:\*\*|__|\*|_)?(?:why|how to apply|reason|because|note|context|example|see also)"
    r"[ \t]*:(?:\*\*|__|\*|_)?[ \t]*",
    re.I,
)
# A description that asks (`How to run the tests`) titles the note; it claims nothing.
_QUESTION = re.compile(r"^(?:how|what|when|where|why|which|who)\b", re.I)
TEXT_KEYS = frozenset({"description", "summary"})  # front matter compared as text


def _front_matter_text(block: str) -> list[str]:
    """The text keys of a front matter block, each as one sentence."""
    kept: list[str] = []
    lines = block.splitlines()
    for index, line in enumerate(lines):
        match = _KEY.match(line)
        if match is None or match.group(1).lower() not in TEXT_KEYS:
            continue
        value = match.group(2).strip()
        if value in ("", ">", "|", ">-", "|-", ">+", "|+"):
            # A folded or literal block: the indented lines that follow.
            follow = []
            for more in lines[index + 1 :]:
                if more[:1] not in (" ", "\t"):
                    break
                follow.append(more.strip())
            value = " ".join(follow)
        value = value.strip("'\"").strip()
        if value and not _QUESTION.match(value):
            kept.append(value if value.endswith((".", "!", "?")) else value + ".")
    return kept


def _is_yaml(block: str) -> bool:
    """Whether every line of `block` reads as YAML: a `---` rule above prose is not
    front matter."""
    return all(
        _KEY.match(line) or _YAML_MORE.match(line) for line in block.splitlines() if line.strip()
    )


def claims(body: str) -> str:
    """`body` as the lines that may make a claim (unchanged when it has no markup)."""
    kept: list[str] = []
    match = _FRONT.match(body)
    if match is not None and _is_yaml(match.group(1)):
        kept += _front_matter_text(match.group(1))
        body = body[match.end() :]
    for line in body.splitlines():
        if _HEADING.match(line) or _FENCE.match(line):
            continue
        line = _MARKER.sub("", line, count=1)
        line = _RATIONALE.sub("", line, count=1)
        if line.strip():
            kept.append(line)
    return "\n".join(kept)
