"""The console script's fast paths parse the same options as the typer commands they
stand in for, so a command never means one thing fast and another through typer."""

from __future__ import annotations

from typing import Any

import typer

from synapse_git.cli.app import app
from synapse_git.hooks import dispatch
from synapse_git.mcp import launch


# typer may carry its own copy of click, so commands are looked at by what they
# have, not by class.
def _command(*path: str) -> Any:
    command: Any = typer.main.get_command(app)
    for name in path:
        found = command.get_command(None, name)
        assert found is not None, path
        command = found
    return command


def _valued_options(command: Any) -> set[str]:
    return {
        name
        for param in command.params
        if param.param_type_name == "option" and not param.is_flag and not param.hidden
        for name in param.opts
    }


def _positionals(command: Any) -> int:
    return sum(1 for param in command.params if param.param_type_name == "argument")


def test_mcp_fast_path_takes_exactly_the_typer_options() -> None:
    assert set(launch.OPTIONS) == _valued_options(_command("mcp"))


def test_hook_fast_paths_take_exactly_the_typer_options_and_arguments() -> None:
    for name in dispatch.FAST:
        command = _command("hook", name)
        assert set(dispatch._VALUED[name]) == _valued_options(command), name
        assert dispatch._POSITIONALS[name] == _positionals(command), name
