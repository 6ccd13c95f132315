"""The build in use: pure Python in the development checkout, fully compiled when the
compiled build is under test (``make test-compiled`` sets KOTH_EXPECT_COMPILED=1)."""

from __future__ import annotations

import ast
import importlib.util
import os
import tomllib
from pathlib import Path

from typer.testing import CliRunner

from koth.build import COMPILED_MODULES, build_kind, compiled_modules
from koth.cli import app

ROOT = Path(__file__).resolve().parents[1]


def test_the_compiled_module_list_matches_the_build_configuration() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    files = [
        name.removeprefix("src/").removesuffix(".py").replace("/", ".") for name in hook["include"]
    ]
    assert files == list(COMPILED_MODULES)
    assert hook["path"] == "hatch_build.py"


def test_every_listed_module_runs_compiled_or_none_does() -> None:
    # In the development checkout a compiled module would be a stale copy shadowing the
    # source under edit; under test-compiled a pure module would mean it was not built.
    expected = list(COMPILED_MODULES) if os.environ.get("KOTH_EXPECT_COMPILED") == "1" else []
    assert compiled_modules() == expected


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and f"({build_kind()})" in result.output


def _module_tree(name: str) -> ast.Module:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).with_suffix(".py")
    if not source.exists():  # the compiled build: read the checkout's source instead
        source = ROOT / "src" / (name.replace(".", "/") + ".py")
    return ast.parse(source.read_text())


def _is_type_variable(value: ast.expr) -> bool:
    # ``A = TypeVar("A")``: typing only, never read by compiled code (and mypy refuses
    # a Final type variable)
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "TypeVar"
    )


def test_compiled_modules_keep_to_what_mypyc_makes_fast() -> None:
    # docs/performance.md: a module constant that is not Final is a dictionary lookup
    # at every use, and a closure turns the enclosing function's locals into attributes
    for name in COMPILED_MODULES:
        tree = _module_tree(name)
        for node in tree.body:
            if isinstance(node, ast.Assign) and not _is_type_variable(node.value):
                targets = [t for t in node.targets if isinstance(t, ast.Name | ast.Tuple)]
                names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                constants = [n for n in names if n.lstrip("_").isupper()]
                assert not constants, f"{name}:{node.lineno}: make {constants} Final"
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for inner in ast.walk(node):
                    closure = isinstance(inner, ast.Lambda | ast.FunctionDef) and inner is not node
                    assert not closure, f"{name}:{inner.lineno}: a closure in {node.name}()"
