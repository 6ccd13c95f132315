"""Checks shared by the native state classes: their field lists, read from the source,
and their immutability.

A state class compiled as a native class (``BoardState``, ``CardsState``) writes its
field list out in several places for speed: the annotations, ``__init__``, ``fields``,
``evolve`` and, where there is one, ``new_state``. The tests compare each list read here
with the module's ``FIELD_NAMES``, so a field added to one place and missed in another
fails a test rather than a game.
"""

from __future__ import annotations

import ast
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "koth"


def _function(tree: ast.AST, name: str) -> ast.FunctionDef | None:
    return next(
        (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name == name
        ),
        None,
    )


def _passed(function: ast.FunctionDef) -> list[str]:
    """The names a function passes on in its final ``return call(...)``."""
    call = function.body[-1]
    assert isinstance(call, ast.Return) and isinstance(call.value, ast.Call)
    if call.value.keywords:
        return [str(keyword.arg) for keyword in call.value.keywords]
    return [arg.id for arg in call.value.args if isinstance(arg, ast.Name)]


def field_lists(module: str, class_name: str) -> dict[str, list[str]]:
    """Every field list of ``class_name`` in ``src/koth/<module>`` (the source, not the
    imported module: the compiled build imports a shared library), by where it is
    written."""
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    cls = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name
    )
    init = _function(cls, "__init__")
    fields = _function(cls, "fields")
    evolve = _function(tree, "evolve")
    assert init is not None and fields is not None and evolve is not None
    returned = fields.body[-1]
    assert isinstance(returned, ast.Return) and isinstance(returned.value, ast.Tuple)
    lists = {
        "annotations": [
            node.target.id
            for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
        ],
        "__init__": [arg.arg for arg in init.args.args[1:]],
        "fields": [node.attr for node in returned.value.elts if isinstance(node, ast.Attribute)],
        "evolve arguments": [arg.arg for arg in evolve.args.kwonlyargs],
        "evolve passes": _passed(evolve),
    }
    new_state = _function(tree, "new_state")
    if new_state is not None:
        lists["new_state arguments"] = [arg.arg for arg in new_state.args.args]
        lists["new_state passes"] = _passed(new_state)
    return lists


def assert_field_is_frozen(state: object, name: str) -> None:
    """Assigning or deleting the field ``name`` of ``state`` is refused, naming it, and
    leaves it as it was."""
    before = getattr(state, name)
    with pytest.raises(FrozenInstanceError, match=name):
        setattr(state, name, before)
    with pytest.raises(FrozenInstanceError, match=name):
        delattr(state, name)
    assert getattr(state, name) == before


def assert_no_attribute_can_be_added(state: object) -> None:
    with pytest.raises((FrozenInstanceError, AttributeError)):
        state.colour = "red"  # type: ignore[attr-defined]
