"""The documents a newcomer reads first tell the truth about installing: koth comes from
this repository (it is not on PyPI), and every system package that ``make test``
installs is named in the README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the user guides checked here (each says how to install what it needs)
GUIDES = [
    "README.md",
    "docs/agents.md",
    "docs/deploy.md",
    "docs/server.md",
    "docs/interop.md",
    "docs/performance.md",
    "docs/vector.md",
]


def _apt_packages() -> list[str]:
    """The Debian packages of the Makefile's ``system-deps`` target (each added to the
    install list when its command is missing: ``pkgs="$$pkgs chromium ..."``)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = makefile.split("\nsystem-deps:", 1)[1].split("\n\n", 1)[0]
    assert "apt-get install" in target
    found = re.findall(r'pkgs="\$\$pkgs ([^"]+)"', target)
    return [w for words in found for w in words.split()]


def test_the_readme_names_every_system_package_make_test_installs() -> None:
    packages = _apt_packages()
    assert "chromium" in packages  # the parse found the install line
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for package in packages:
        assert f"`{package}`" in readme, f"README does not name {package}"


@pytest.mark.parametrize("guide", GUIDES)
def test_koth_is_installed_from_the_repository(guide: str) -> None:
    text = " ".join((ROOT / guide).read_text(encoding="utf-8").split())
    # from PyPI by name alone: `pip install koth-games` or `pip install 'koth-games[x]'`
    published = re.findall(r"pip install ['\"]?koth-games(?:\[[\w,]+\])?['\"]?(?![\[\w-]| @)", text)
    assert not published, f"{guide} installs koth from PyPI, where it is not published"


def test_simulation_output_is_not_committed() -> None:
    assert "/simulations/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
