"""What `synapse mcp` keeps between calls, whichever transport serves them: the
client's roots and the scope they resolved to, the service, the default budget.

Standard library only, so the stdio server (mcp/stdio_server.py) and the
SDK-backed one (mcp/scoped_server.py) share it without importing the SDK.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from synapse_git.errors import BadInput
from synapse_git.settings import Config

if TYPE_CHECKING:
    from synapse_git.service import Scope, Synapse

# How long a client that offers roots gets to list them before the fallback folder
# is served instead: a client that never answers must not hold every call forever.
ROOTS_WAIT_S = 5.0


class ServerState:
    """The scope of one client, kept until its roots change, and the service.

    Under the handshake protocols the client's roots are asked for once and kept
    until it sends `notifications/roots/list_changed` (`roots_changed`); the
    2026-07-28 protocol has no such notification, so there they are asked for on
    every call. The scope is kept for as long as the roots offered stay the same.
    """

    def __init__(self, config: Config, fallback: Path, budget: str | None) -> None:
        self.config = config
        self.fallback = fallback
        self.budget = budget
        self._synapse: Synapse | None = None
        self._lock = threading.Lock()
        # The roots as the transport received them (its own type), and the scope.
        self._roots: Any = None
        self._scope: tuple[tuple[str, ...] | None, Scope] | None = None
        self.roots_note: str | None = None
        self._told_semantic = False

    @classmethod
    def of(cls, config: Config, project: Path | None, budget: str | None) -> ServerState:
        """The state `synapse mcp [--project P] [--budget B]` starts with; nothing is opened."""
        if budget is not None:
            config.budget(budget)
        fallback = Path.cwd() if project is None else project.expanduser()
        if not fallback.is_dir():
            raise BadInput(f"--project {project}: not a folder")
        return cls(config, fallback, budget)

    @property
    def started(self) -> bool:
        """Whether any call has made the service (and so may have counted reads)."""
        return self._synapse is not None

    @property
    def synapse(self) -> Synapse:
        """The service, made on the first call: nothing at start pays for it."""
        with self._lock:
            if self._synapse is None:
                from synapse_git.service import Synapse

                self._synapse = Synapse(self.config, long_lived=True)
            return self._synapse

    def roots_changed(self) -> None:
        with self._lock:
            self._roots, self._scope, self.roots_note = None, None, None

    def cached_roots(self) -> Any:
        with self._lock:
            return self._roots

    def scope_for(self, roots: Any, uris: list[str] | None, *, keep: bool) -> Scope:
        """The scope of the first root inside a git repository, else of the fallback
        folder. `roots` (the transport's own value, `uris` the roots' URIs) is kept for
        later calls when `keep`, as the handshake protocols allow."""
        key = None if uris is None else tuple(uris)
        with self._lock:
            if keep:
                self._roots = roots
            if self._scope is not None and self._scope[0] == key:
                return self._scope[1]
        found = None
        for uri in uris or ():
            folder = _root_folder(uri)
            if folder is None:
                continue
            candidate = self.synapse.scope(folder)
            if candidate.project is not None:
                found = candidate
                break
        if found is None:
            found = self.synapse.scope(self.fallback)
        with self._lock:
            self._scope = (key, found)
        return found

    def roots_timed_out(self) -> None:
        """Kept as no roots until the client says they changed: one wait, not one a call."""
        self.roots_note = (
            f"the client did not list its roots within {ROOTS_WAIT_S:g} s; "
            f"serving {self.fallback} instead"
        )

    def budget_or_default(self, budget: str | None) -> str | None:
        return budget if budget is not None else self.budget

    def tell_semantic(self, notice: str | None) -> None:
        """Say once on stderr (the client's log) that recall runs without vectors."""
        if notice is not None and notice.startswith("off") and not self._told_semantic:
            self._told_semantic = True
            print(f"synapse: semantic recall {notice}", file=sys.stderr, flush=True)


def _root_folder(uri: str) -> Path | None:
    """The folder a `file:` root names; None for another kind of root or a missing
    folder; BadInput for a path no folder can have (too long, a NUL)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    folder = Path(unquote(parsed.path))
    try:
        return folder if folder.is_dir() else None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BadInput(
            f"the client's root {uri[:80]}{'…' if len(uri) > 80 else ''} names no folder"
            f" ({reason}); nothing was done"
        ) from None
