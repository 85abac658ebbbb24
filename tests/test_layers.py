"""The house plan of docs/architecture.md, held by the imports themselves: no two
folders of the package import each other, even by a detour, and the edges reach
below the service only for what every layer shares."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "synapse_git"
EDGES = ("cli", "mcp", "ui", "hooks")
# What every layer shares: the error hierarchy and its exit codes, escaping for output,
# settings (and where the data folder is), the typed JSON shapes of the answers.
SHARED = {"errors", "exit_codes", "escaping", "settings", "data_folder", "answers", "__init__"}


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def imported(name: str, path: Path) -> set[str]:
    """Every module of the package `path` imports, lazily or only for types included:
    as dotted names below `synapse_git`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".") if package else []
                up = up[: len(up) - (node.level - 1)]
                base = ".".join(["synapse_git", *up, *([base] if base else [])])
            # `from package import module` names the module; `from module import name`
            # the module itself.
            for alias in node.names:
                dotted = f"{base}.{alias.name}"
                found.add(dotted if _is_module(dotted) else base)
    return {
        n.removeprefix("synapse_git.")
        for n in found
        if n.startswith("synapse_git.") and _is_module(n)
    }


def _is_module(dotted: str) -> bool:
    rest = Path(*dotted.split(".")[1:]) if "." in dotted else Path()
    return (PACKAGE / rest).is_dir() or (PACKAGE / rest).with_suffix(".py").is_file()


def folder(module: str) -> str:
    """A subpackage, or a module at the package's root, is one room of the house."""
    return module.split(".")[0]


def folder_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        if not name:
            continue
        mine = folder(name)
        graph.setdefault(mine, set())
        for other in imported(name, path):
            if folder(other) != mine:
                graph[mine].add(folder(other))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one folder (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_two_folders_import_each_other_even_by_a_detour() -> None:
    graph = folder_graph()
    assert {"cli", "service", "store", "hooks"} <= set(graph)
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_detour() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def below_service(edge: str) -> set[str]:
    """What the modules of `edge` import that is neither an edge, the service, nor shared."""
    found: set[str] = set()
    for name, path in modules():
        if folder(name) != edge:
            continue
        for other in imported(name, path):
            room = folder(other)
            if room in (*EDGES, "service") or room in SHARED:
                continue
            found.add(other)
    return found


def test_edges_reach_below_the_service_only_for_what_every_layer_shares() -> None:
    for edge in EDGES:
        below = below_service(edge)
        assert not below, (
            f"{edge}/ imports {sorted(below)} from below the service: add a service call"
        )


def test_the_rule_sees_an_import_from_below(tmp_path: Path) -> None:
    """The rule reads lazy imports and imports for types alone too."""
    module = tmp_path / "edge.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from synapse_git.store.memories import Memory\n"
        "def f():\n    from synapse_git.drift import paths\n",
        encoding="utf-8",
    )
    assert imported("cli.edge", module) >= {"store.memories", "drift.paths"}
