"""What must not leave a machine in a shared memory: secrets and private paths.

The shapes are the usual ones of credentials (cloud keys, tokens of the big
forges and chat tools, private key blocks, JWTs, `password = …` style
assignments). A match refuses the share unless forced; an absolute path under
the user's home only warns, since it is useless to teammates but not secret.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

_SECRETS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("a private key block", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
        ("an AWS access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("a GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"),
        ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,}\b"),
        ("a Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
        ("an API secret key", r"\bsk-(?:live_|test_|proj-|ant-)?[A-Za-z0-9_-]{20,}\b"),
        ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("a JSON web token", r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
        (
            "a password or secret assignment",
            r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token"
            r"|client[_-]?secret)\b\s*[:=]\s*['\"]?(?!<|\$\{|\$[A-Z_]|\*{3})[^\s'\"]{6,}",
        ),
        ("credentials in a URL", r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@"),
    )
)


def secrets_in(text: str) -> list[str]:
    """What kinds of secret `text` seems to hold (empty when none)."""
    return [name for name, pattern in _SECRETS if pattern.search(text)]


def home_paths_in(text: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether `text` names an absolute path under the user's home folder."""
    home = (env if env is not None else os.environ).get("HOME", "")
    home = home.rstrip("/")
    if len(home) < 2:
        return False
    return re.search(re.escape(home) + r"(?:/|\b)", text) is not None
