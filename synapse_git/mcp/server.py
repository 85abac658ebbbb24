"""`synapse mcp`: the memory store served to an agent over MCP stdio.

Every tool is a thin wrapper over `Synapse`: it finds the caller's scope
(mcp/scoped_server.py), makes one service call and returns the JSON shapes
of docs/json.md as structured output. Only this module and
mcp/scoped_server.py import `mcp`.

Nothing heavy happens at start (no store opening, no migration, no git
walk): the client's roots are asked for, and the project resolved, on the
first tool call, then kept until the client says its roots changed.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import signal
from pathlib import Path
from types import FrameType
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
from synapse_git.errors import BadInput
from synapse_git.mcp.scoped_server import (
    ClientRoots,
    SynapseServer,
    server_of,
    tool_errors,
    with_roots_note,
)
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
    server = server_of(ctx)
    with tool_errors():
        where = server.scope_for(roots, ctx.protocol_version)
        found = server.synapse.recall(
            query,
            where,
            budget=server.budget_or_default(budget),
            limit=limit,
            alternatives=alternatives or (),
            at=at,
        )
    server.tell_semantic(found.semantic)
    return with_roots_note(server, found.as_json())


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
    server = server_of(ctx)
    with tool_errors():
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
    server = server_of(ctx)
    with tool_errors():
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
            everywhere=everywhere,
        )
    return with_roots_note(server, result.as_json())


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
    server = server_of(ctx)
    with tool_errors():
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
    server = server_of(ctx)
    with tool_errors():
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
    # The light part of the service: no store, no git library before the first call.
    from synapse_git.service.session_start import server_instructions

    server = SynapseServer(config, fallback, budget, server_instructions(config))
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
    """Serve over stdio until the client closes the connection, or Ctrl-C."""
    server = build(config, project=project, budget=budget)
    # The SDK reads stdin in a worker thread that no cancellation reaches: Ctrl-C
    # in a terminal, turned into a cancelled task, would wait for a line forever.
    # It stops the process instead, as SIGTERM does; every write is one
    # transaction, so nothing confirmed is lost.
    signal.signal(signal.SIGINT, _interrupted)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            server.run("stdio")
    finally:
        if server.started:
            server.synapse.reads.flush()


def _interrupted(signum: int, frame: FrameType | None) -> None:
    with contextlib.suppress(OSError):
        os.write(2, b"synapse mcp: interrupted, stopped\n")
    os._exit(128 + signal.SIGINT)
