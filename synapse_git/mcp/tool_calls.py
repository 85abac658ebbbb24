"""What each MCP tool does once its arguments are checked and its scope found: one
service call, answered with the JSON shapes of docs/json.md.

Shared by both transports: mcp/server.py wraps these in the SDK's typed tools,
mcp/stdio_server.py calls them directly. Standard library only; a failure is a
`SynapseError` whose message says what to do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synapse_git.errors import BadInput

if TYPE_CHECKING:
    # Types only: answers.py loads typing_extensions, which start-up need not pay for.
    from synapse_git.answers import ForgetOut, ReadOut, RecallOut, RememberOut, SupersedeOut
    from synapse_git.mcp.scope_state import ServerState
    from synapse_git.service import Scope


def recall(
    state: ServerState,
    where: Scope,
    query: str = "",
    budget: str | None = None,
    limit: int | None = None,
    alternatives: list[str] | None = None,
    at: str | None = None,
) -> RecallOut:
    found = state.synapse.recall(
        query,
        where,
        budget=state.budget_or_default(budget),
        limit=limit,
        alternatives=alternatives or (),
        at=at,
    )
    state.tell_semantic(found.semantic)
    answer = found.as_json()
    if state.roots_note is not None:
        answer["note"] = state.roots_note  # the client's roots could not be had
    return answer


def readmemory(
    state: ServerState,
    where: Scope,
    id: int,
    project: str | None,
    offset: int = 0,
    budget: str | None = None,
) -> ReadOut:
    page = state.synapse.read(
        id,
        where,
        offset=offset,
        budget=state.budget_or_default(budget),
        project=project,
        check_project=True,
        count=True,
    )
    return {"memory": None if page is None else page.as_json()}


def remember(
    state: ServerState,
    where: Scope,
    body: str,
    source: str = "",
    scope: str = "project",
    supersedes: int | None = None,
    share: bool = False,
    everywhere: bool = False,
) -> RememberOut:
    if scope == "project" and where.project is None:
        raise BadInput(f'{where.note}: pass scope "global" to remember globally')
    result = state.synapse.remember(
        body,
        where,
        source=source,
        is_global=scope == "global",
        supersedes=supersedes,
        share=share,
        everywhere=everywhere,
    )
    answer = result.as_json()
    if state.roots_note is not None:
        answer["note"] = state.roots_note
    return answer


def supersede(
    state: ServerState,
    where: Scope,
    id: int,
    body: str | None = None,
    by: int | None = None,
    source: str = "",
) -> SupersedeOut:
    if (body is None) == (by is None):
        # Worded with this tool's argument names; the service checks the same.
        raise BadInput("give either body (the corrected fact) or by (an existing memory id)")
    done = state.synapse.replace(id, where, body=body, by=by, source=source, live_only=True)
    return done.as_json()


def forget(state: ServerState, where: Scope, id: int) -> ForgetOut:
    # The agent never sees hidden memories: only a live, visible one can be forgotten.
    memory = state.synapse.forget(id, where, live_only=True)
    return memory.state_json()


def internal_error(name: str, cause: BaseException) -> str:
    """The one-line tool error of an unexpected failure (the SDK's own is empty)."""
    first = str(cause).strip().splitlines()[:1]  # one line, never a report's tail
    detail = f"{type(cause).__name__}: {' '.join(first)[:300]}".rstrip(": ")
    return f"Error executing tool {name}: internal error ({detail})"
