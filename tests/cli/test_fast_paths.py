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


def test_reading_fast_paths_take_exactly_the_typer_options_with_the_same_defaults() -> None:
    import inspect
    from pathlib import Path

    from synapse_git.cli import quick, reading

    functions = {"read": reading.read, "list": reading.list_, "recall": reading.recall}
    types = {
        quick.NUMBER: (int, None),
        quick.POSITIVE: (int, 1),
        quick.TEXT: (str, None),
        quick.PATH: (Path, None),
        quick.FLAG: (bool, None),
        quick.EACH: (list[str], None),
    }
    for name, (argument, options) in quick.COMMANDS.items():
        command = _command("memory", name)
        params = {p.name: p for p in command.params if p.name != "help"}
        typer_options = {
            flag: (p.name, p.is_flag, p.multiple)
            for p in params.values()
            if p.param_type_name == "option"
            for flag in p.opts
        }
        ours = {
            flag: (key, kind == quick.FLAG, kind == quick.EACH)
            for flag, (key, kind) in options.items()
        }
        assert ours == typer_options, name
        (typer_argument,) = (p for p in params.values() if p.param_type_name == "argument")
        assert (argument[0], argument[2]) == (typer_argument.name, typer_argument.required)
        kinds = {key: kind for key, kind in options.values()} | {argument[0]: argument[1]}
        for key, param in params.items():
            # The same type and bound, no environment variable, nothing more to check.
            annotation, minimum = types[kinds[key]]
            assert param.type_descriptor.annotation == annotation, (name, key)
            assert (param.min, param.max, param.envvar, param.callback) == (
                minimum,
                None,
                None,
                None,
            ), (name, key)
        # What the fast path leaves out, the function's default supplies: typer's own.
        signature = inspect.signature(functions[name]).parameters
        assert set(signature) == set(params), name
        for key, param in params.items():
            expected = None if param.multiple and param.default in ([], ()) else param.default
            if not param.required:
                assert signature[key].default == expected, (name, key)
