"""The web app keeps the shape ``docs/architecture.md`` states: no import climbs the
server's rank table, no feature imports another, and no import circle exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "src" / "koth" / "server"
DOC = REPO / "docs" / "architecture.md"
FEATURES = ("games", "quiz")


def rank_table() -> dict[str, int]:
    """Module name -> rank, read from the "Server layers" table of the architecture doc."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Server layers", 1)[1]
    ranks: dict[str, int] = {}
    for line in section.splitlines():
        row = re.match(r"\|\s*(\d+)\s*\|(.*)\|\s*$", line)
        if row:
            for name in re.findall(r"`(\w+)`", row.group(2)):
                ranks[name] = int(row.group(1))
    return ranks


def server_modules() -> dict[str, Path]:
    modules = {}
    for path in SERVER.rglob("*.py"):
        if "versions" in path.parts:  # revisions import only alembic and sqlalchemy
            continue
        parts = path.relative_to(SERVER.parent.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(path: Path, known: set[str]) -> set[str]:
    """The ``koth.server`` modules ``path`` imports when it runs (``from pkg import mod``
    counts as importing ``pkg.mod``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name in known and name.startswith("koth.server.")}


def graph() -> dict[str, set[str]]:
    modules = server_modules()
    known = set(modules)
    return {name: runtime_imports(path, known) - {name} for name, path in modules.items()}


def _is_package(name: str) -> bool:
    return name in ("koth.server", *(f"koth.server.{f}" for f in FEATURES)) or name.endswith(
        ".migrations"
    )


def rank_of(name: str, ranks: dict[str, int]) -> int | None:
    return None if _is_package(name) else ranks.get(name.rsplit(".", 1)[-1])


def feature_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[2] in FEATURES else None


def test_the_doc_names_every_server_module() -> None:
    ranks = rank_table()
    assert ranks["settings"] == 0 and ranks["app"] == max(ranks.values())
    unranked = [m for m in server_modules() if not _is_package(m) and rank_of(m, ranks) is None]
    assert unranked == [], "give these modules a rank in docs/architecture.md"


def climbs(imports: dict[str, set[str]], ranks: dict[str, int]) -> list[str]:
    problems = []
    for module, targets in sorted(imports.items()):
        own = rank_of(module, ranks)
        for target in sorted(targets):
            theirs = rank_of(target, ranks)
            if own is not None and theirs is not None and theirs > own:
                problems.append(f"{module} (rank {own}) imports {target} (rank {theirs})")
            mine, other = feature_of(module), feature_of(target)
            if mine and other and mine != other:
                problems.append(f"feature {mine} imports feature {other}: {module} -> {target}")
    return problems


def circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in imports.get(node, ()):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(imports):
        if node not in index:
            connect(node)
    return found


def test_no_server_import_climbs_a_rank_or_crosses_features() -> None:
    assert climbs(graph(), rank_table()) == []


def test_no_server_import_circle() -> None:
    assert circles(graph()) == []


@pytest.mark.parametrize(
    ("imports", "problem"),
    [
        ({"koth.server.errors": {"koth.server.app"}}, "climb"),
        ({"koth.server.quiz.store": {"koth.server.quiz.service"}}, "climb"),
        ({"koth.server.games.service": {"koth.server.quiz.model"}}, "feature"),
        ({"koth.server.quiz.views": {"koth.server.quiz.views"}}, None),
        ({"koth.server.quiz.service": {"koth.server.quiz.model"}}, None),
    ],
)
def test_the_checks_catch_what_they_are_for(
    imports: dict[str, set[str]], problem: str | None
) -> None:
    found = climbs(imports, rank_table())
    assert bool(found) == (problem is not None)
    if problem == "feature":
        assert "feature" in found[0]


def test_a_circle_is_found() -> None:
    imports = {
        "koth.server.quiz.model": {"koth.server.quiz.views"},
        "koth.server.quiz.views": {"koth.server.quiz.model"},
        "koth.server.errors": set(),
    }
    assert circles(imports) == [["koth.server.quiz.model", "koth.server.quiz.views"]]
