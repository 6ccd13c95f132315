"""The web app keeps the shape ``docs/architecture.md`` states: no import climbs the
server's rank table, no feature imports another, and no import circle exists."""

from __future__ import annotations

import re

import pytest

from tests.test_layering import ARCHITECTURE as DOC
from tests.test_layering import GRAPH, circles

FEATURES = ("games", "quiz")
#: folders inside a feature (their modules are ranked by their own names)
SUBPACKAGES = ("koth.server.quiz.season",)


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


def graph() -> dict[str, set[str]]:
    """The server's modules and the server modules each imports when it runs (the
    migrations' revisions aside: they import only alembic and sqlalchemy)."""
    return {
        name: {m for m in imported if m.startswith("koth.server.")}
        for name, imported in GRAPH.items()
        if name.startswith("koth.server.") and ".migrations.versions." not in name
    }


def _is_package(name: str) -> bool:
    return name in (
        "koth.server",
        *(f"koth.server.{f}" for f in FEATURES),
        *SUBPACKAGES,
    ) or name.endswith(".migrations")


def rank_of(name: str, ranks: dict[str, int]) -> int | None:
    return None if _is_package(name) else ranks.get(name.rsplit(".", 1)[-1])


def feature_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[2] in FEATURES else None


def test_the_doc_names_every_server_module() -> None:
    ranks = rank_table()
    assert ranks["settings"] == 0 and ranks["app"] == max(ranks.values())
    unranked = [m for m in graph() if not _is_package(m) and rank_of(m, ranks) is None]
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
    assert circles(imports) == [frozenset({"koth.server.quiz.model", "koth.server.quiz.views"})]
