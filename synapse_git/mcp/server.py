"""The five tools as the MCP SDK sees them: typed signatures, descriptions and hints.

These signatures are the one definition of what the tools take and answer: the SDK
derives each tool's input and output JSON schemas from them. What `initialize`
and `tools/list` carry, as this server puts them on the wire, is kept in
mcp/tools.json, which the standard-library stdio server (mcp/stdio_server.py)
serves and checks arguments against; tests/mcp/test_mcp_wire.py regenerates
the file from this server and compares, so the two cannot drift. Each tool body is one call of
mcp/tool_calls.py. Only this module and mcp/scoped_server.py import `mcp`.

The SDK serves a client that speaks the 2026-07-28 protocol (`serve_sdk`);
the handshake protocols are served without it.
"""

from __future__ import annotations

import contextlib
import inspect
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations
from pydantic import Field

from synapse_git.answers import (
    ForgetOut,
    ReadOut,
    RecallOut,
    RememberOut,
    SupersedeOut,
)
from synapse_git.mcp import tool_calls
from synapse_git.mcp.checks import CheckedInput, EscapedOutput
from synapse_git.mcp.scope_state import ServerState
from synapse_git.mcp.scoped_server import ClientRoots, SynapseServer, scoped, tool_errors
from synapse_git.settings import BUDGET_NAMES, Config

BudgetName = Literal["lean", "balanced", "full"]
assert BUDGET_NAMES == ("lean", "balanced", "full"), "keep BudgetName in step with config"

# -- tools --------------------------------------------------------------------------------

MemoryId = Annotated[int, Field(description="A memory id, as a recall hit gives it.")]
Budget = Annotated[
    BudgetName | None,
    Field(description="lean, balanced or full; omit for the configured default."),
]


def recall(
    query: Annotated[
        str,
        Field(
            description="A question or keywords; empty for the newest memories. At most"
            " 16 KiB of UTF-8; only the first 32 distinct words are searched."
        ),
    ] = "",
    budget: Budget = None,
    limit: Annotated[
        int | None, Field(ge=1, description="At most this many hits (default: the budget's).")
    ] = None,
    alternatives: Annotated[
        list[str] | None,
        Field(
            description="Up to 4 rewordings of the query in the words a note would"
            " use: likely terms, identifiers, synonyms; each at most 16 KiB of UTF-8.",
            max_length=4,
        ),
    ] = None,
    at: Annotated[
        str | None,
        Field(
            description="A revision (branch, tag, commit id): only the memories visible "
            "at that commit, e.g. when bisecting or reviewing an old branch.",
            max_length=256,
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
    with tool_errors():
        state, where = scoped(ctx, roots)
        return tool_calls.recall(state, where, query, budget, limit, alternatives, at)


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
    with tool_errors():
        state, where = scoped(ctx, roots)
        return tool_calls.readmemory(state, where, id, project, offset, budget)


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
    everywhere: Annotated[
        bool,
        Field(
            description="A project fact that holds on every branch, not only on the line "
            "of work it was learned on."
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
    with tool_errors():
        state, where = scoped(ctx, roots)
        return tool_calls.remember(state, where, body, source, scope, supersedes, share, everywhere)


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
    with tool_errors():
        state, where = scoped(ctx, roots)
        return tool_calls.supersede(state, where, id, body, by, source)


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
    with tool_errors():
        state, where = scoped(ctx, roots)
        return tool_calls.forget(state, where, id)


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
    return with_tools(ServerState.of(config, project, budget))


def with_tools(state: ServerState) -> SynapseServer:
    # The light part of the service: no store, no git library before the first call.
    from synapse_git.service.session_start import server_instructions

    server = SynapseServer(state, server_instructions(state.config))
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


def serve_sdk(state: ServerState, lines: CheckedInput, wire: EscapedOutput) -> None:
    """Serve the rest of the stdio session with the SDK, from the lines already read
    (`lines` gives them first); Ctrl-C is handled by the stdio server that called."""
    with contextlib.suppress(KeyboardInterrupt):
        with_tools(state).run_over(lines, wire)
