"""Every command makes one call into the service (docs/architecture.md, "The shape"),
counted in its source: on the way through a command that calls the most, at most one
call on the service, or one helper handed the service. Resolving the folder it runs in
to a scope (`Synapse.scope`, `scope_of`) reads its input and is not counted."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

import typer

from synapse_git.cli import app as app_module

# What makes a service: the command line's helper, and the class itself.
MAKERS = ("service", "Synapse")
# Reading the input, not acting on it.
NOT_COUNTED = ("scope", "scope_of")


def commands(group: typer.Typer, path: str = "synapse") -> Iterator[tuple[str, Callable[..., Any]]]:
    if group.registered_callback is not None and group.registered_callback.callback is not None:
        yield path, group.registered_callback.callback
    for command in group.registered_commands:
        assert command.callback is not None
        yield f"{path} {command.name}", command.callback
    for sub in group.registered_groups:
        assert sub.typer_instance is not None
        yield from commands(sub.typer_instance, f"{path} {sub.name}")


def _made_here(node: ast.AST) -> bool:
    """`service()` or `Synapse()`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MAKERS


class Counter:
    """The most service calls any way through one function's statements can make."""

    def __init__(self, function: ast.FunctionDef) -> None:
        self.services = {
            target.id
            for node in ast.walk(function)
            if isinstance(node, ast.Assign) and _made_here(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }

    def _is_service(self, node: ast.AST) -> bool:
        return _made_here(node) or (isinstance(node, ast.Name) and node.id in self.services)

    def calls(self, node: ast.AST | None) -> int:
        """Service calls in `node` itself, blocks of statements inside it aside."""
        if node is None:
            return 0
        found = 0
        for part in ast.walk(node):
            if not isinstance(part, ast.Call):
                continue
            func = part.func
            if isinstance(func, ast.Attribute) and self._is_service(func.value):
                found += func.attr not in NOT_COUNTED
            elif isinstance(func, ast.Name) and func.id not in NOT_COUNTED:
                # A helper handed the service makes its calls out of sight: one at least.
                found += any(self._is_service(arg) for arg in part.args)
        return found

    def most(self, body: list[ast.stmt]) -> int:
        total = 0
        for index, statement in enumerate(body):
            if isinstance(statement, ast.If):
                rest = body[index + 1 :]
                ways = [
                    self.most(branch) + (0 if _ends(branch) else self.most(rest))
                    for branch in (statement.body, statement.orelse)
                ]
                return total + self.calls(statement.test) + max(ways)
            if isinstance(statement, ast.Return | ast.Raise):
                return total + self.calls(statement)
            total += self._statement(statement)
        return total

    def _statement(self, statement: ast.stmt) -> int:
        if isinstance(statement, ast.With):
            return sum(self.calls(item) for item in statement.items) + self.most(statement.body)
        if isinstance(statement, ast.For | ast.While):
            head = statement.iter if isinstance(statement, ast.For) else statement.test
            return self.calls(head) + self.most(statement.body) + self.most(statement.orelse)
        if isinstance(statement, ast.Try):
            handled = max((self.most(h.body) for h in statement.handlers), default=0)
            return (
                self.most(statement.body)
                + max(handled, self.most(statement.orelse))
                + self.most(statement.finalbody)
            )
        if isinstance(statement, ast.FunctionDef):
            # A callback the command hands its one call: its own calls are counted too.
            return self.most(statement.body)
        return self.calls(statement)


def _ends(body: list[ast.stmt]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.If):
        return _ends(last.body) and _ends(last.orelse)
    return isinstance(last, ast.Return | ast.Raise)


def most_calls(function: Callable[..., Any]) -> int:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    found = tree.body[0]
    assert isinstance(found, ast.FunctionDef)
    return Counter(found).most(found.body)


def test_every_command_makes_at_most_one_service_call() -> None:
    counted = {path: most_calls(f) for path, f in commands(app_module.build(None))}
    assert len(counted) > 40
    assert {path: n for path, n in counted.items() if n > 1} == {}


def test_the_counter_follows_the_ways_through_a_command() -> None:
    def two(folder: str, batch: int | None) -> None:
        svc = service()  # noqa: F821
        scope = scope_of(svc, folder)  # noqa: F821
        if batch is not None:
            svc.forget_import(batch)
            return
        svc.history(1, scope)
        svc.edit(1, scope)

    def helped() -> None:
        svc = Synapse()  # noqa: F821
        svc.scope(".")
        run_embed(svc)  # noqa: F821
        print(svc.check())

    def one_way_each(as_json: bool) -> None:
        if as_json:
            service().export()  # noqa: F821
        else:
            service().export_to("x")  # noqa: F821

    assert most_calls(two) == 2
    assert most_calls(helped) == 2
    assert most_calls(one_way_each) == 1
