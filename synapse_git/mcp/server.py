"""`synapse mcp`: the memory store served to an agent over MCP stdio.

The only module that imports `mcp`. Every tool is a thin wrapper over
`Synapse`: it finds the caller's scope, makes one service call and returns
the JSON shapes of docs/json.md as structured output.

Nothing heavy happens at start (no store opening, no migration, no git
walk): the client's roots are asked for, and the project resolved, on the
first tool call, then kept until the client says its roots changed.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar
from urllib.parse import unquote, urlparse

import anyio
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp.types import (
    CallToolResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    NotificationParams,
    TextContent,
    ToolAnnotations,
)
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import Field, ValidationError

from synapse_git import __version__
from synapse_git.answers import (
    ForgetOut,
    ReadOut,
    RecallOut,
    RememberOut,
    SupersedeOut,
)
from synapse_git.errors import BadInput, SynapseError
from synapse_git.mcp.checks import CheckedInput, argument_errors, strict_errors
from synapse_git.session.guidance import instructions
from synapse_git.settings import BUDGET_NAMES, Config

if TYPE_CHECKING:
    from collections.abc import Iterator

    from synapse_git.git.project_scope import Scope
    from synapse_git.service import Synapse

# How long a client that offers roots gets to list them before the fallback folder
# is served instead: a client that never answers must not hold every call forever.
ROOTS_WAIT_S = 5.0
# Methods the SDK serves for prompts and resources; Synapse has none, so it does not
# offer them (an empty offer only invites calls that fail).
UNSERVED = (
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
)

BudgetName = Literal["lean", "balanced", "full"]
Noted = TypeVar("Noted", RecallOut, RememberOut)
assert BUDGET_NAMES == ("lean", "balanced", "full"), "keep BudgetName in step with config"


# -- the caller's scope -----------------------------------------------------------------


class SynapseServer(MCPServer[Any]):
    """An MCPServer that knows where its client works.

    One stdio process serves one client. Under the handshake protocols the
    client's roots are asked for once and kept until it sends
    `notifications/roots/list_changed`; the 2026-07-28 protocol has no such
    notification, so there they are asked for on every call (the client answers
    from its own state, without a model turn). The scope is kept for as long as
    the roots offered stay the same.
    """

    def __init__(self, config: Config, fallback: Path, budget: str | None, guidance: str) -> None:
        # WARNING: tool errors are the caller's business, not log lines on stderr.
        super().__init__("synapse", instructions=guidance, version=__version__, log_level="WARNING")
        self.config = config
        self._synapse: Synapse | None = None
        self.fallback = fallback
        self.budget = budget
        self._lock = threading.Lock()
        self._roots: ListRootsResult | None = None
        self._scope: tuple[tuple[str, ...] | None, Scope] | None = None
        self.roots_note: str | None = None
        # Requests whose text held a lone surrogate, which JSON allows and Unicode does not.
        self.bad_text: set[str] = set()
        # The low-level registry is the one place the SDK's handlers are listed.
        for method in UNSERVED:
            self._lowlevel_server._request_handlers.pop(method, None)
        self._told_semantic = False
        # MCPServer has no public hook for client notifications; the low-level
        # server's registration is the supported way underneath it.
        self._lowlevel_server.add_notification_handler(
            "notifications/roots/list_changed", NotificationParams, self._roots_changed
        )

    @property
    def started(self) -> bool:
        """Whether any call has made the service (and so may have counted reads)."""
        return self._synapse is not None

    @property
    def synapse(self) -> Synapse:
        """The service, made on the first call: importing it loads pygit2, which start-up skips."""
        with self._lock:
            if self._synapse is None:
                from synapse_git.service import Synapse

                self._synapse = Synapse(self.config)
            return self._synapse

    async def _roots_changed(self, ctx: Any, params: NotificationParams) -> None:
        with self._lock:
            self._roots, self._scope, self.roots_note = None, None, None

    async def run_stdio_async(self) -> None:
        """Serve stdio, reading each line through `_checked_line` first."""
        lines = anyio.wrap_file(CheckedInput(self.bad_text))  # type: ignore[arg-type]  # readline is all it uses
        async with stdio_server(stdin=lines) as (reader, writer):
            await self._lowlevel_server.run(
                reader, writer, self._lowlevel_server.create_initialization_options()
            )

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        if context is not None and context.request_id in self.bad_text:
            self.bad_text.discard(context.request_id)
            raise ToolError(
                f"Error executing tool {name}: the arguments hold a lone surrogate "
                "(such as \\ud800), which is not Unicode text; nothing was done"
            )
        tool = self._tool_manager.get_tool(name)
        wrong = [] if tool is None else strict_errors(tool.parameters, arguments)
        if wrong:
            raise ToolError(f"Error executing tool {name}: bad arguments: " + "; ".join(wrong))
        try:
            result = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            # The SDK's own message is empty and it logs a long traceback: one line instead.
            cause = exc.__cause__ or exc
            detail = f"{type(cause).__name__}: {str(cause)[:300]}".rstrip(": ")
            raise ToolError(f"Error executing tool {name}: internal error ({detail})") from None
        except ToolError as exc:
            # pydantic's report spans lines and links its docs; say it in one line.
            if isinstance(exc.__cause__, ValidationError):
                message = argument_errors(exc.__cause__)
                raise ToolError(f"Error executing tool {name}: {message}") from exc.__cause__
            raise
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            # The SDK renders the text copy indented, larger than the response cap that
            # the structured output was held to; the cap counts this compact form.
            text = json.dumps(result.structured_content, ensure_ascii=False)
            result = result.model_copy(update={"content": [TextContent(type="text", text=text)]})
        return result

    def cached_roots(self) -> ListRootsResult | None:
        with self._lock:
            return self._roots

    def scope_for(self, roots: ListRootsResult | None, protocol: str | None) -> Scope:
        """The scope of the first root inside a git repository, else of the fallback folder."""
        key = None if roots is None else tuple(str(root.uri) for root in roots.roots)
        with self._lock:
            if protocol in HANDSHAKE_PROTOCOL_VERSIONS:
                self._roots = roots
            if self._scope is not None and self._scope[0] == key:
                return self._scope[1]
        found = None
        for root in roots.roots if roots is not None else ():
            folder = _root_folder(str(root.uri))
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

    def budget_or_default(self, budget: str | None) -> str | None:
        return budget if budget is not None else self.budget

    def tell_semantic(self, notice: str | None) -> None:
        """Say once on stderr (the client's log) that recall runs without vectors."""
        if notice is not None and notice.startswith("off") and not self._told_semantic:
            self._told_semantic = True
            print(f"synapse: semantic recall {notice}", file=sys.stderr, flush=True)


def _root_folder(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    folder = Path(unquote(parsed.path))
    return folder if folder.is_dir() else None


def _noted(server: SynapseServer, answer: Noted) -> Noted:
    """`answer`, saying so when the client's roots could not be had and the fallback was used."""
    if server.roots_note is not None:
        answer["note"] = server.roots_note
    return answer


def _server(ctx: Context[Any, Any]) -> SynapseServer:
    server = ctx.mcp_server
    assert isinstance(server, SynapseServer)
    return server


async def _client_roots(ctx: Context[Any, Any]) -> ListRoots | ListRootsResult | None:
    """The client's roots: kept from an earlier call, asked for, or None when it has none."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.roots is None:
        return None
    cached = _server(ctx).cached_roots()
    if cached is not None:
        return cached
    if ctx.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        # 2026-07-28: the SDK asks within the call (an input_required round).
        return ListRoots()
    server = _server(ctx)
    try:
        with anyio.fail_after(ROOTS_WAIT_S):
            found: ListRootsResult = await ctx.session.send_request(
                ListRootsRequest(),
                ListRootsResult,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
            )
    except MCPError:
        # It offers roots but cannot list them: serve the fallback folder rather than fail.
        return ListRootsResult(roots=[])
    except TimeoutError:
        # Kept as no roots until the client says they changed: one wait, not one a call.
        server.roots_note = (
            f"the client did not list its roots within {ROOTS_WAIT_S:g} s; "
            f"serving {server.fallback} instead"
        )
        return ListRootsResult(roots=[])
    return found


ClientRoots = Annotated[ListRootsResult | None, Resolve(_client_roots)]


@contextlib.contextmanager
def _tool_errors() -> Iterator[None]:
    """Synapse's errors, whose messages say what to do, as tool errors."""
    try:
        yield
    except SynapseError as exc:
        raise ToolError(str(exc)) from None


# -- tools --------------------------------------------------------------------------------

MemoryId = Annotated[int, Field(description="A memory id, as a recall hit gives it.")]
Budget = Annotated[
    BudgetName | None,
    Field(description="lean, balanced or full; omit for the configured default."),
]


def recall(
    query: Annotated[
        str,
        Field(description="A question or keywords; empty for the newest memories."),
    ] = "",
    budget: Budget = None,
    limit: Annotated[
        int | None, Field(ge=1, description="At most this many hits (default: the budget's).")
    ] = None,
    alternatives: Annotated[
        list[str] | None,
        Field(
            description="Up to 4 rewordings of the query in the words a note would"
            " use: likely terms, identifiers, synonyms.",
            max_length=4,
        ),
    ] = None,
    *,
    ctx: Context[Any, Any],
    roots: ClientRoots,
) -> RecallOut:
    """Recall what is known about this repository (and the user) by a question.

    Call it before starting a task, before changing code you have not seen
    in this session, and whenever you wonder how something is done here or
    why: decisions, conventions, where things live, commands, past failures.
    Plain words work best; identifiers, file names and error codes match
    inside longer words, and small typos are forgiven. Hits come best first.
    A hit with `abridged: true` shows only part of its body: read the rest
    with readmemory. `drift` lists findings about the hits (a path that is
    gone, two memories that contradict each other); `cut` says how many
    candidates were left out and why.

    Notes rarely use your question's words. Pass 2-3 `alternatives` worded
    as the note likely is: its probable terms, identifiers, file or tool
    names, synonyms ("how long is a login valid" -> "access token expiry",
    "OAuth2 token lifetime minutes"). A hit with `weak: true` covers little
    of the question: treat it as a guess, and recall again with rewordings.

    Example: recall(query="how do we run the integration tests?") ->
    {"query": "how do we run the integration tests?", "project": "/home/me/src/app",
    "budget": "balanced", "hits": [{"id": 57, "project": "/home/me/src/app",
    "source": "Makefile", "sourceabridged": false, "body": "Integration tests need
    `make db-up` first; they use port 5433.", "abridged": false, "bytes": 61,
    "score": 1.032}], "drift": [], "searched": 140, "cut": {"floor": 2, "limit": 0,
    "budget": 0, "weak": 0}}
    """
    server = _server(ctx)
    with _tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        found = server.synapse.recall(
            query,
            where,
            budget=server.budget_or_default(budget),
            limit=limit,
            alternatives=alternatives or (),
        )
    server.tell_semantic(found.semantic)
    return _noted(server, found.as_json())


def readmemory(
    id: MemoryId,
    project: Annotated[
        str | None,
        Field(description="The hit's project exactly as recall gave it (null for global)."),
    ],
    offset: Annotated[
        int, Field(ge=0, description="Byte offset to start at: 0, then each page's next.")
    ] = 0,
    budget: Budget = None,
    *,
    ctx: Context[Any, Any],
    roots: ClientRoots,
) -> ReadOut:
    """Read one memory exactly, a page at a time.

    Use it when a recall hit is abridged (its `abridged` is true) or when you
    need the full, exact text of a memory: code, whitespace and every
    character come back unchanged. Start at offset 0 and call again with each
    page's `next` until `next` is null; the pages joined in order are the
    whole body. Offsets and `total` count UTF-8 bytes.

    A missing, superseded, forgotten or out-of-scope id gives
    {"memory": null}.

    Example: readmemory(id=42, project="/home/me/src/app") ->
    {"memory": {"id": 42, "project": "/home/me/src/app", "source": "docs/db.md",
    "sourceabridged": false, "body": "…", "offset": 0, "next": 6000, "total": 9120}},
    then readmemory(id=42, project="/home/me/src/app", offset=6000).
    """
    server = _server(ctx)
    with _tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        page = server.synapse.read(
            id,
            where,
            offset=offset,
            budget=server.budget_or_default(budget),
            project=project,
            check_project=True,
            count=True,
        )
    return {"memory": None if page is None else page.as_json()}


def remember(
    body: Annotated[str, Field(description="The fact, in a sentence or a short paragraph.")],
    source: Annotated[
        str, Field(description="Where it comes from: a file, URL or session name.")
    ] = "",
    scope: Annotated[
        Literal["project", "global"],
        Field(description="project (this repository, the default) or global (everywhere)."),
    ] = "project",
    supersedes: Annotated[
        int | None, Field(description="Id of a memory this one corrects; it stops being recalled.")
    ] = None,
    share: Annotated[
        bool,
        Field(
            description="Also share it with the team through the repository's tracked "
            "file (the user commits it). Never for personal or secret facts."
        ),
    ] = False,
    *,
    ctx: Context[Any, Any],
    roots: ClientRoots,
) -> RememberOut:
    """Remember a short fact for later sessions.

    Call it when you learn something a later session on this repository
    should know and could not see from the code at a glance: a decision and
    its reason, a convention, where something lives, a command that works,
    what broke and why. One fact per call; keep it specific. Use scope
    "global" for facts about the user or their tools that hold in every
    repository. An exact duplicate is not stored twice: the existing id comes
    back with `duplicate_of`. `drift` lists existing memories the new one
    contradicts or repeats; supersede the outdated one when that is right.

    Example: remember(body="Integration tests need `make db-up` first; they use
    port 5433.", source="Makefile") -> {"id": 57, "project": "/home/me/src/app",
    "duplicate_of": null, "drift": []}
    """
    server = _server(ctx)
    with _tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        if scope == "project" and where.project is None:
            raise BadInput(f'{where.note}: pass scope "global" to remember globally')
        result = server.synapse.remember(
            body,
            where,
            source=source,
            is_global=scope == "global",
            supersedes=supersedes,
            share=share,
        )
    return _noted(server, result.as_json())


def supersede(
    id: Annotated[int, Field(description="The memory that is wrong or out of date.")],
    body: Annotated[
        str | None, Field(description="The corrected fact, stored in the old memory's scope.")
    ] = None,
    by: Annotated[
        int | None, Field(description="Instead of body: an existing memory that replaces it.")
    ] = None,
    source: Annotated[str, Field(description="Where the correction comes from.")] = "",
    *,
    ctx: Context[Any, Any],
    roots: ClientRoots,
) -> SupersedeOut:
    """Replace a memory that is wrong or out of date.

    Give either `body` (the corrected fact, stored as a new memory in the
    same scope as the old one) or `by` (the id of an existing memory that
    already says it right, e.g. the newer side of a conflict recall
    reported). The old memory is no longer recalled or readable; its owner
    can still restore it from the command line.

    Example: supersede(id=12, body="Deploys go out from the release branch.")
    -> {"id": 58, "project": "/home/me/src/app", "duplicate_of": null,
    "drift": [], "supersedes": 12}
    """
    server = _server(ctx)
    with _tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        if (body is None) == (by is None):
            # Worded with this tool's argument names; the service checks the same.
            raise BadInput("give either body (the corrected fact) or by (an existing memory id)")
        done = server.synapse.replace(id, where, body=body, by=by, source=source, live_only=True)
    return done.as_json()


def forget(
    id: Annotated[int, Field(description="The memory to forget.")],
    *,
    ctx: Context[Any, Any],
    roots: ClientRoots,
) -> ForgetOut:
    """Stop a memory from being recalled or read, when it should never have been stored.

    Use it for a memory that is plainly wrong, private or noise. When a
    memory is merely out of date, prefer supersede with the correction, so
    later sessions learn the new fact. The owner can restore a forgotten
    memory from the command line.

    Example: forget(id=31) -> {"id": 31, "project": "/home/me/src/app",
    "state": "forgotten"}
    """
    server = _server(ctx)
    with _tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        # The agent never sees hidden memories: only a live, visible one can be forgotten.
        memory = server.synapse.forget(id, where, live_only=True)
    return memory.state_json()


READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


def _writes(*, destructive: bool, idempotent: bool) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


def build(
    config: Config, *, project: Path | None = None, budget: str | None = None
) -> SynapseServer:
    """The server with its tools; cheap: nothing is opened or walked here."""
    if budget is not None:
        config.budget(budget)
    fallback = Path.cwd() if project is None else project.expanduser()
    if not fallback.is_dir():
        raise BadInput(f"--project {project}: not a folder")
    server = SynapseServer(config, fallback, budget, instructions(config))
    for tool, title, hints in (
        (recall, "Recall memories", READ_ONLY),
        (readmemory, "Read a memory exactly", READ_ONLY),
        (remember, "Remember a fact", _writes(destructive=False, idempotent=True)),
        (supersede, "Replace an outdated memory", _writes(destructive=True, idempotent=False)),
        (forget, "Forget a memory", _writes(destructive=True, idempotent=True)),
    ):
        # The model reads the description: without the docstring's indentation.
        description = inspect.cleandoc(tool.__doc__ or "")
        server.add_tool(
            tool,
            title=title,
            description=description,
            annotations=hints,
            structured_output=True,
        )
    return server


def serve(config: Config, *, project: Path | None = None, budget: str | None = None) -> None:
    """Serve over stdio until the client closes the connection."""
    server = build(config, project=project, budget=budget)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            server.run("stdio")
    finally:
        if server.started:
            server.synapse.reads.flush()
