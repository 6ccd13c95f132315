"""The translation catalogs are complete and current: every text the code marks is in
the committed template and translated in every language (no empty or fuzzy entry), with
the same ``{name}`` parameters, so a new untranslated text fails here
(docs/translating.md)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from koth.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, catalog_path

SOURCES = LOCALE_DIR.parent
#: the keywords `make messages` passes to pybabel extract, besides Babel's defaults
KEYWORDS = {"N_": None, "N_plural": (1, 2), "plural": (1, 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]


def _ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {m.id for m in catalog if m.id}


def _extracted() -> set[str | tuple[str, ...]]:
    from babel.messages.extract import DEFAULT_KEYWORDS

    with (LOCALE_DIR / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS}
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(SOURCES), method_map, options_map, keywords=keywords
    ):
        found.add(message)
    return found


def test_the_committed_template_holds_every_marked_text() -> None:
    with (LOCALE_DIR / "messages.pot").open("rb") as pot:
        template = read_po(pot)
    extracted = _extracted()
    assert not extracted - _ids(template), "run `make messages`: texts missing in messages.pot"
    assert not _ids(template) - extracted, "run `make messages`: messages.pot has stale texts"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated(lang: str) -> None:
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    assert _ids(catalog) == _extracted(), f"run `make messages` and translate {lang}"
    problems = []
    for m in catalog:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if (
            m.fuzzy
            or not all(forms)
            or len(forms) != (catalog.num_plurals if m.pluralizable else 1)
        ):
            problems.append(f"untranslated or fuzzy: {m.id!r}")
            continue
        wanted = _fields(m.id[0] if isinstance(m.id, tuple) else m.id)
        problems += [
            f"{m.id!r}: {form!r} changes the parameters"
            for form in forms
            if _fields(form) - wanted - {"n"} or wanted - _fields(form) - {"n"}
        ]
    assert not problems, "\n".join(problems)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_russian_plurals_have_three_forms() -> None:
    from koth.i18n import Translator

    _ = Translator("ru")
    assert [_.plural("{n} team", "{n} teams", n) for n in (1, 2, 5, 21, 11)] == [
        "1 команда",
        "2 команды",
        "5 команд",
        "21 команда",
        "11 команд",
    ]
    assert Translator("en").plural("{n} team", "{n} teams", 1) == "1 team"


def test_no_compiled_catalog_is_committed() -> None:
    # the .po files are compiled in memory; a stray .mo would go stale unnoticed
    assert not list(Path(LOCALE_DIR).rglob("*.mo"))
    assert re.fullmatch(r"[a-z]{2}", DEFAULT)
