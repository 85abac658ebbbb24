"""`synapse --show-completion SHELL` and `--install-completion SHELL` for the shell
named, as docs/cli.md says.

typer's options take no value while it can detect the running shell, so the name
after them was ignored and the script was for whichever shell ran `synapse` (bash's
script for `--show-completion zsh`, or "Shell not supported" under a process with no
shell above it, as under a service manager). A name given is honoured here; without
one, typer's detection answers as before. `--install-completion` alone is answered
here too, with the shell typer detects: typer's own line is coloured, and the forced
colour of the CLI (cli/app.py) showed its escape sequences escaped, `\x1b[32mbash
completion installed in …\x1b[0m`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from synapse_git import exit_codes

OPTIONS = ("--show-completion", "--install-completion")
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
_PROG, _VAR = "synapse", "_SYNAPSE_COMPLETE"


def named(argv: Sequence[str]) -> int | None:
    """The exit code when `argv` is a completion option and a shell's name; None for
    anything else (typer's own handling)."""
    if list(argv) == ["--install-completion"]:
        from typer import _completion_shared as shared

        detected = shared._get_shell_name()
        if detected is None:
            print(
                "synapse: --install-completion: cannot tell which shell runs this;"
                f" name one of {', '.join(SHELLS)}",
                file=sys.stderr,
            )
            return exit_codes.ERROR
        argv = [argv[0], detected]
    if len(argv) != 2 or argv[0] not in OPTIONS or argv[1].startswith("-"):
        return None
    option, shell = argv
    if shell not in SHELLS:
        print(
            f"synapse: {option}: no completion for {shell!r}; name one of {', '.join(SHELLS)}",
            file=sys.stderr,
        )
        return exit_codes.ERROR
    from typer import _completion_shared as shared

    if option == "--show-completion":
        print(shared.get_completion_script(prog_name=_PROG, complete_var=_VAR, shell=shell))
        return exit_codes.OK
    done, path = shared.install(shell=shell, prog_name=_PROG, complete_var=_VAR)
    print(f"{done} completion installed in {path}")
    print("Completion will take effect once you restart the terminal")
    return exit_codes.OK
