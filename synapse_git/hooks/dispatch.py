"""`synapse hook session|post-checkout|post-merge|post-rewrite` parsed without typer:
an agent or git runs them on every start or checkout, and typer's import alone
costs more than the work. `--help` goes to the full CLI, whose commands
(`cli/hook.py`) take the same options (tests/cli/test_fast_paths.py holds both)."""

from __future__ import annotations

from pathlib import Path

from synapse_git.errors import BadInput, SynapseError
from synapse_git.hooks.terminal import say

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

FAST = ("session", "post-checkout", "post-merge", "post-rewrite")


_VALUED = {
    "session": {"-C": "folder", "--folder": "folder", "--budget": "budget", "--format": "fmt"},
    "post-checkout": {"-C": "folder", "--folder": "folder"},
    "post-merge": {"-C": "folder", "--folder": "folder"},
    "post-rewrite": {"-C": "folder", "--folder": "folder"},
}
_POSITIONALS = {"session": 0, "post-checkout": 3, "post-merge": 1, "post-rewrite": 1}


def _parse(name: str, args: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """Options and positionals of `synapse hook NAME` (argparse alone would cost
    this path ~15 ms of a 100 ms budget)."""
    valued = _VALUED[name]
    options: dict[str, str] = {}
    positionals: list[str] = []
    items = list(args)
    while items:
        item = items.pop(0)
        key, eq, value = item.partition("=")
        if key in valued:
            if not eq:
                if not items:
                    raise BadInput(f"{key} needs a value")
                value = items.pop(0)
            options[valued[key]] = value
        elif item.startswith("-") and item != "-":
            raise BadInput(f"unknown option {item} (see: synapse hook {name} --help)")
        else:
            positionals.append(item)
    if len(positionals) > _POSITIONALS[name]:
        raise BadInput(f"too many arguments for synapse hook {name}: {' '.join(positionals)}")
    return options, positionals


def fast_main(argv: Sequence[str]) -> int:
    """Run `synapse hook NAME ARGS…` (`argv`), NAME being one of FAST."""
    name = argv[0]
    try:
        options, positionals = _parse(name, argv[1:])
        folder = Path(options["folder"]) if "folder" in options else None
        if name == "session":
            from synapse_git.hooks.session_hook import session

            return session(folder, options.get("budget"), options.get("fmt", "text"))
    except SynapseError as exc:
        say(f"synapse: {exc}", err=True)
        return exc.exit_code
    from synapse_git.hooks import checkout

    if name == "post-merge":
        return checkout.post_checkout(None, None, "1", folder)
    if name == "post-rewrite":
        return checkout.post_rewrite(positionals[0] if positionals else None, folder)
    old, new, flag = [*positionals, None, None, None][:3]
    flag = flag if flag is not None else checkout.checkout_flag()
    return checkout.post_checkout(old, new, flag, folder)
