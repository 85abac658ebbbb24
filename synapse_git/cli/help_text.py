"""Help that reads as git's and click's always have: `ID` and `[TEXT]` in the usage
line, values named in capitals (`--source TEXT`, `--limit N`), no Python type names
(`<int>`, `<list[str]>`) or braces around required arguments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.core import TyperArgument, TyperOption

# What a value is called in help, by the Python type typer parses it as.
_VALUE_NAMES = {int: "N", float: "NUMBER", Path: "PATH"}


class _Argument(TyperArgument):
    """An argument shown by its name alone: `ID`, `[TEXT]`, `PATH...`."""

    def _upper(self) -> str:
        return (self.metavar or self.name or "").upper()

    def _rich_display_name(self) -> str:
        return self._upper() + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        name = self._rich_display_name()
        return name if self.required else f"[{name}]"

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_error_hint(self, *args: Any) -> str:
        # `Missing argument 'CLIENT'`, as the usage line and the help name it (not `client`).
        return f"'{self._upper()}'"


def classic(command: Any) -> None:
    """Give every argument and option of `command` and its subcommands the classic look."""
    for param in command.params:
        if isinstance(param, TyperArgument) and not isinstance(param, _Argument):
            param.__class__ = _Argument
        elif isinstance(param, TyperOption) and param.metavar is None and not param.is_flag:
            param.metavar = None if param.count else _value_name(param)
    for sub in getattr(command, "commands", {}).values():
        classic(sub)


def _value_name(option: TyperOption) -> str:
    annotation = getattr(getattr(option, "type_descriptor", None), "annotation", None)
    return _VALUE_NAMES.get(annotation, "TEXT") if isinstance(annotation, type) else "TEXT"
