"""The import graph of ``koth`` keeps the layers of docs/architecture.md and has no
circles.

Every module's imports are read from its source (``ast``): module-level ones and those
inside functions alike, since both run; only those under ``if TYPE_CHECKING:`` are left
out, as they exist for annotations alone. The layer table is read from the document
itself, so the two cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: the one circle allowed, as in OpenSpiel: a game makes its states, a state asks its game
ALLOWED_CIRCLES = [frozenset({"koth.core.game", "koth.core.state"})]
#: layers whose inner structure is checked elsewhere (only their place among the layers
#: is checked here)
OPAQUE_LAYERS = ("koth.server",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCES).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted((SOURCES / "koth").rglob("*.py"))}


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run, anywhere in ``node`` (``if TYPE_CHECKING:``
    bodies aside)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and is_type_checking(child.test):
            for other in child.orelse:
                yield from import_nodes(other)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from import_nodes(child)


def imported_modules(name: str, path: Path) -> set[str]:
    """The ``koth`` modules that module ``name`` imports: for ``from package import x``
    the submodule ``package.x`` when there is one, else the package."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            found.add(sub if sub in MODULES else base)
    return {module for module in found if module == "koth" or module.startswith("koth.")}


GRAPH: dict[str, set[str]] = {
    name: {m for m in imported_modules(name, path) if m != name} for name, path in MODULES.items()
}


def layer_table() -> list[tuple[int, list[str]]]:
    """(level, layer names) of each row of the table in docs/architecture.md."""
    layers = ARCHITECTURE.read_text().split("\n## ", 1)[0]  # the first table only
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", layers, flags=re.MULTILINE)
    return [(int(level), re.findall(r"`([\w.]+)`", names)) for level, names in rows]


LAYERS: dict[str, int] = {name: level for level, names in layer_table() for name in names}


def layer_of(module: str) -> str:
    """The layer a module belongs to: the longest layer name that is it or contains it."""
    candidates = [name for name in LAYERS if module == name or module.startswith(name + ".")]
    assert candidates, f"{module} belongs to no layer of {ARCHITECTURE.name}"
    return max(candidates, key=len)


def climbs() -> list[str]:
    """Imports of a layer above, or of another layer on the same level."""
    found = []
    for importer, imported in sorted(GRAPH.items()):
        own = layer_of(importer)
        for module in sorted(imported):
            other = layer_of(module)
            if other != own and LAYERS[other] >= LAYERS[own]:
                found.append(
                    f"{importer} ({own}, level {LAYERS[own]}) imports {module} "
                    f"({other}, level {LAYERS[other]})"
                )
    return found


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.add(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def inside_opaque_layer(part: frozenset[str]) -> bool:
    return all(layer_of(module) in OPAQUE_LAYERS for module in part)


def test_the_table_is_read_from_the_document() -> None:
    levels = dict(layer_table())
    assert "koth.core" in levels[0]
    assert LAYERS["koth.core"] < LAYERS["koth.games"] < LAYERS["koth.agents"]
    assert LAYERS["koth.agents"] < LAYERS["koth.server"] < LAYERS["koth.cli"]
    assert LAYERS["koth.interop"] < LAYERS["koth.server"]


def test_every_module_belongs_to_a_layer() -> None:
    assert len(MODULES) > 100
    for module in MODULES:
        layer_of(module)


def test_no_import_climbs_the_layer_table() -> None:
    assert climbs() == []


def test_no_circle_of_imports() -> None:
    found = [
        sorted(part)
        for part in circles(GRAPH)
        if part not in ALLOWED_CIRCLES and not inside_opaque_layer(part)
    ]
    assert found == []


def test_the_core_imports_in_a_line() -> None:
    """With the allowed pair taken as one module, the core's modules can be ordered so
    that each imports only those before it."""
    core = {name: {m for m in deps if m.startswith("koth.core")} for name, deps in GRAPH.items()}
    core = {name: deps for name, deps in core.items() if name.startswith("koth.core")}
    assert all(part in ALLOWED_CIRCLES for part in circles(core))


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [{"a", "b"}]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [{"a", "b", "c"}]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_circles_are_found(graph: dict[str, set[str]], expected: list[set[str]]) -> None:
    assert [set(part) for part in circles(graph)] == expected


def test_imports_under_type_checking_are_left_out_and_deferred_ones_kept() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from koth.cli import app\n"
        "def f():\n    from koth.core import state\n"
    )
    names = {
        alias.name if isinstance(node, ast.Import) else f"{node.module}.{alias.name}"
        for node in import_nodes(ast.parse(source))
        for alias in node.names
    }
    assert names == {"typing.TYPE_CHECKING", "koth.core.state"}
