"""The root `synapse` command and the one place errors become exit codes."""

from __future__ import annotations

import sqlite3
import sys

import typer

from synapse_git import __version__, exit_codes
from synapse_git.cli import backup, drift, maintenance, recall, semantic, team
from synapse_git.cli.demo import demo as demo_command
from synapse_git.cli.help_text import classic
from synapse_git.cli.hook import app as hook_app
from synapse_git.cli.memory import app as memory_app
from synapse_git.cli.output import shown_streams, unwritable_output
from synapse_git.cli.project import app as project_app
from synapse_git.cli.serve import app as mcp_app
from synapse_git.cli.setup import setup as setup_command
from synapse_git.cli.status import status as status_command
from synapse_git.cli.ui import ui as ui_command
from synapse_git.errors import StoreError, report
from synapse_git.store.database import as_store_error

app = typer.Typer(
    name="synapse",
    help="Synapse: git-aware memory for coding agents and the people who work with them.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
# Commands that live in modules of their own join their groups here, in the order
# `--help` lists them.
memory_app.command("backup")(backup.backup)
memory_app.command("drift")(drift.drift)
memory_app.command("check")(maintenance.check)
memory_app.command("export")(maintenance.export)
memory_app.command("import")(maintenance.import_)
memory_app.command("recall")(recall.recall)
memory_app.command("eval")(recall.eval_)
memory_app.command("embed")(semantic.embed)
memory_app.command("share")(team.share)
memory_app.command("unshare")(team.unshare)
memory_app.command("sync")(team.sync)
hook_app.command("merge-file")(team.merge_file)
app.add_typer(memory_app, name="memory")
app.add_typer(project_app, name="project")
app.add_typer(mcp_app, name="mcp")
app.command("setup")(setup_command)
app.command("status")(status_command)
app.command("demo")(demo_command)
app.command("ui")(ui_command)
app.add_typer(hook_app, name="hook")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"synapse {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """Remember facts about your code; recall them by a question."""


def _click_class(name: str) -> type[Exception]:
    """Recent typer carries its own copy of click; older ones use click itself. Either
    way `typer.BadParameter` descends from the classes the parser raises."""
    found: type[Exception] = next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == name)
    return found


_CLICK_ERROR = _click_class("ClickException")
_USAGE_ERROR = _click_class("UsageError")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; bad input exits 2 with one line on stderr, internal errors 3."""
    with shown_streams():
        code = _run(argv)
        return unwritable_output(code)


def _run(argv: list[str] | None) -> int:
    command = typer.main.get_command(app)
    classic(command)
    try:
        result = command.main(args=argv, prog_name="synapse", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("synapse: aborted", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except _USAGE_ERROR as exc:
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError":
            # A bare `synapse` or group (`synapse memory`) asked for nothing wrong: its
            # help, on standard output, and success.
            print(exc.format_message())  # type: ignore[attr-defined]
            return 0
        where = ctx.command_path if ctx is not None else "synapse"
        message = exc.format_message()  # type: ignore[attr-defined]
        print(f"synapse: {message} (see: {where} --help)", file=sys.stderr)
        return exit_codes.ERROR
    except _CLICK_ERROR as exc:
        print(f"synapse: {exc.format_message()}", file=sys.stderr)  # type: ignore[attr-defined]
        return exit_codes.ERROR
    except sqlite3.Error as exc:
        # The service translates these; any that slips past is still the store's state.
        return report(as_store_error(exc, None))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # A path the system refuses (a name too long, a loop of links) that no
        # command anticipated: still the user's to fix, said in one line.
        if exc.filename is None:
            return report(exc)
        name = str(exc.filename)
        name = name if len(name) <= 120 else name[:117] + "..."
        return report(StoreError(f"cannot use {name}: {exc.strerror or exc}"))
    except Exception as exc:
        return report(exc)
    return result if isinstance(result, int) else 0
