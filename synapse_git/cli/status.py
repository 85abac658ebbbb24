"""`synapse status`: the store here, how it was chosen, and who else opens it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json, service


def status(
    folder: Path = typer.Option(
        None, "--folder", "-C", help="Act as if run in this folder (default: here)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Show the store (and how it was chosen), its memories, this project, the hooks
    installed here, whether the MCP client files here open the same store, what
    `synapse setup` wired, and whether semantic recall is on. Writes nothing."""
    svc = service()
    found = svc.status(svc.scope(folder))
    if as_json:
        print_json(found.as_json())
    else:
        semantic = None if found.semantic is None else found.semantic.line()
        for line in lines(found.as_json(), found.scope.note, semantic):
            typer.echo(line)


def lines(data: dict[str, Any], note: str | None, semantic: str | None) -> list[str]:
    """`status` as text: from its JSON (docs/json.md), with why the folder is no
    project (`note`) and semantic recall in a line."""
    store = data["store"]
    out = [f"store     {store['path']} (chosen by {store['chosen_by']})"]
    if store["problem"]:
        out.append(f"          problem: {store['problem']}")
    elif not store["exists"] or store["schema"] is None:
        out.append("          not created yet: the first write creates it")
    else:
        out.append(f"schema    {store['schema']} (this Synapse writes {store['schema_supported']})")
    memories = data["memories"]
    counted = "-" if memories["global"] is None else str(memories["global"])
    if data["project"] is None:
        out.append(f"memories  {counted} global")
        out.append(f"project   none: {note}")
    else:
        mine = "-" if memories["project"] is None else str(memories["project"])
        out.append(f"memories  {counted} global, {mine} in this project")
        out.append(f"project   {data['project']}")
    hooks = dict(data["hooks"])
    folder = hooks.pop("folder")
    if folder is not None:
        states = ", ".join(f"{name} {state}" for name, state in hooks.items())
        out.append(f"hooks     {states} (in {folder})")
        if "overwritten" in hooks.values():
            out.append("hooks     something wrote over Synapse's: run `synapse hook install` again")
    clients = data["mcp_clients"]
    if not clients:
        # No hint: the agent line names `synapse setup` when nothing is wired, and a
        # client wired for the user (~/.claude.json) needs no file here.
        out.append("mcp       no client file here")
    for client in clients:
        if client.get("problem"):
            verdict = f"cannot be used: {client['problem']}"
        elif not client["server"]:
            verdict = "no synapse server in it"
        elif client["store"] is None:
            verdict = "store not pinned: the client's environment decides which one opens"
        elif client["same_store"]:
            verdict = "opens this store"
        else:
            verdict = f"opens ANOTHER store: {client['store']}"
        out.append(f"mcp       {client['file']}: {verdict}")
    for wired in data["agents"]:
        what = ", ".join(wired["wired"])
        line = f"agent     {wired['client']} ({wired['scope']}): {what} in {wired['file']}"
        out.append(line + (f" ({wired['beside']})" if wired.get("beside") else ""))
    if not data["agents"]:
        out.append("agent     none wired here: `synapse setup claude|codex|cursor`")
    if semantic is not None:
        out.append(f"semantic  {semantic}")
    return out
