"""`synapse ci check`'s report as text, GitHub workflow commands, markdown, SARIF 2.1.0
or JSON (docs/ci.md).

Memories come from someone else's commit: every text that reaches a terminal, a
workflow command or a page is shown with its control characters escaped
(escaping.py) first, then escaped for where it goes: GitHub's workflow-command
escapes (a line feed in a message would start a command of its own), markdown's
backslash escapes (a memory cannot become a link, an image or HTML in a job
summary). A summary lists at most `SUMMARY_MOST` findings.
"""

from __future__ import annotations

import re

from synapse_git import __version__
from synapse_git.ci.check import BLOCKING, KINDS, Finding, Report
from synapse_git.escaping import json_text, visible
from synapse_git.team import records

FORMATS = ("text", "github", "markdown", "sarif", "json")
SUMMARY_MOST = 200
TITLES = {
    "stale": "a path it names is removed by this change",
    "invalid": "a line a sync would skip",
    "conflict": "contradicts another shared memory",
    "missing": "names a path this commit does not have",
    "duplicate": "repeats another shared memory",
    "removed": "loses its line, so a sync forgets it",
}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _shown(text: str) -> str:
    """One line with every control character (newline and tab too) written out."""
    return visible(text, layout=False)


def _level(finding: Finding) -> str:
    return "error" if finding.blocking else "warning"


def _where(finding: Finding) -> str:
    return records.FILE if finding.line is None else f"{records.FILE}:{finding.line}"


def _counts(report: Report) -> str:
    if not report.findings:
        return f"no findings in {report.checked} live shared memories"
    counted: dict[str, int] = {}
    for finding in report.findings:
        counted[finding.kind] = counted.get(finding.kind, 0) + 1
    parts = ", ".join(f"{counted[kind]} {kind}" for kind in KINDS if kind in counted)
    noun = "finding" if len(report.findings) == 1 else "findings"
    return (
        f"{len(report.findings)} {noun} ({parts}), {report.blocking} blocking,"
        f" in {report.checked} live shared memories"
    )


def text(report: Report) -> str:
    lines = [
        f"synapse ci check: {_shown(report.base)}...HEAD"
        f" (from {report.merge_base[:12]} to {report.head[:12]})"
    ]
    for finding in report.findings:
        lines.append(
            f"{_where(finding)}: {_level(finding)} [{finding.kind}] {_shown(finding.detail)}"
        )
    lines.append(_counts(report))
    return "\n".join(lines) + "\n"


# -- GitHub ---------------------------------------------------------------------------


def _data(value: str) -> str:
    """A workflow command's message, escaped as GitHub's runner reads it back."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(value: str) -> str:
    """A workflow command's property value: the message's escapes, and `:` and `,`."""
    return _data(value).replace(":", "%3A").replace(",", "%2C")


def github(report: Report) -> str:
    """One `::error` or `::warning` workflow command a finding, on the memory's line."""
    lines = []
    for finding in report.findings:
        props = [f"file={_property(records.FILE)}"]
        if finding.line is not None:
            props.append(f"line={finding.line}")
        props.append(f"title={_property('Synapse ' + finding.kind + ': ' + TITLES[finding.kind])}")
        lines.append(f"::{_level(finding)} {','.join(props)}::{_data(_shown(finding.detail))}")
    lines.append(_data(_counts(report)))
    return "\n".join(lines) + "\n"


# -- markdown -------------------------------------------------------------------------

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def _md(value: str) -> str:
    """Text as markdown shows it and nothing more: every ASCII punctuation character
    backslash-escaped (CommonMark allows it for each), so no link, image, HTML tag,
    emphasis or table cell can be made of it."""
    return _PUNCTUATION.sub(r"\\\1", _shown(value))


def markdown(report: Report) -> str:
    verdict = "blocks this change" if report.blocking else "passes"
    lines = [
        "### Synapse: shared memories",
        "",
        f"The check of `{records.FILE}` {verdict}: {_md(_counts(report))}.",
        "",
    ]
    if report.findings:
        lines += ["| line | level | kind | finding |", "|---|---|---|---|"]
        for finding in report.findings[:SUMMARY_MOST]:
            line = "" if finding.line is None else str(finding.line)
            lines.append(f"| {line} | {_level(finding)} | {finding.kind} | {_md(finding.detail)} |")
        rest = len(report.findings) - SUMMARY_MOST
        if rest > 0:
            lines += ["", f"… and {rest} more (`synapse ci check --format text` lists all)."]
        lines.append("")
    return "\n".join(lines) + "\n"


# -- SARIF 2.1.0 ----------------------------------------------------------------------


def sarif(report: Report) -> str:
    rules = [
        {
            "id": kind,
            "name": kind.capitalize(),
            "shortDescription": {"text": f"A shared memory {TITLES[kind]}"},
            "defaultConfiguration": {"level": "error" if kind in BLOCKING else "warning"},
        }
        for kind in KINDS
    ]
    results = []
    for finding in report.findings:
        location: dict[str, object] = {"artifactLocation": {"uri": records.FILE}}
        if finding.line is not None:
            location["region"] = {"startLine": finding.line}
        result: dict[str, object] = {
            "ruleId": finding.kind,
            "ruleIndex": KINDS.index(finding.kind),
            "level": _level(finding),
            "message": {"text": _shown(finding.detail)},
            "locations": [{"physicalLocation": location}],
        }
        if finding.memory is not None:
            result["partialFingerprints"] = {"synapseMemory/v1": f"{finding.kind}:{finding.memory}"}
            result["properties"] = {"memory": finding.memory, "paths": list(finding.paths)}
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "synapse", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
    return json_text(log, indent=2) + "\n"


def as_json(report: Report) -> str:
    return json_text(report.as_json()) + "\n"


RENDER = {"text": text, "github": github, "markdown": markdown, "sarif": sarif, "json": as_json}
