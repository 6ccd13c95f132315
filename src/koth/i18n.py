"""Translated texts: gettext catalogs read with Babel.

Every text a person sees is written in English in the code, marked for extraction
(``N_`` where it is only named, ``_``/``gettext``/``ngettext`` in templates), and
translated in ``koth/locale/<lang>/LC_MESSAGES/messages.po`` (docs/translating.md). The
``.po`` files are compiled in memory on first use, so a fresh clone needs no build step
and no ``.mo`` file is ever out of date.

The catalogs sit at the top of the package, not inside the web app, because the quiz's
terminal commands render the same texts (in English) as the web app (in any language).
English needs no catalog (the texts are the English), so the terminal works without
Babel, which only the web app's extra installs.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Final, Protocol

#: the languages of the interface; the first is the language of the code's texts
LANGUAGES: Final = ("en", "ru")
DEFAULT: Final = "en"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "messages"
#: the cookie the language switch sets
COOKIE: Final = "koth_lang"


def N_(message: str) -> str:
    """Marks ``message`` for extraction where it is only named (translated later)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a text with a count for extraction (its forms are chosen later by the
    count: Russian has three)."""
    return singular, plural


class Term(str):
    """A parameter that is itself a text of the catalogs (a part's name such as
    "semifinal 1"): translated along with the text it fills in."""

    __slots__ = ()


class Text:
    """A parameter that is itself a text with parameters (why a declaration was
    refused): worded in the reader's language along with the text it fills in; ``str``
    gives the English."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)


class Gettext(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> Gettext:
    """The compiled catalog of ``lang`` (English and unknown languages: the texts as
    written)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)


class Translator:
    """The texts of one language, with ``{name}`` parameters filled in."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self._t = translations(self.lang)

    def __call__(self, message: str, /, **params: object) -> str:
        text = self._t.gettext(message)
        return text.format(**self._terms(params)) if params else text

    def translates(self, message: str) -> bool:
        """Whether the catalog has ``message`` (English has every text)."""
        return self.lang == DEFAULT or self._t.gettext(message) != message

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form for ``n`` (Russian has three); ``{n}`` is filled in too."""
        return self._t.ngettext(singular, plural, n).format(n=n, **self._terms(params))

    def _terms(self, params: dict[str, object]) -> dict[str, object]:
        return {k: self._term(v) for k, v in params.items()}

    def _term(self, value: object) -> object:
        if isinstance(value, Term):
            return self._t.gettext(value)
        if isinstance(value, Text):
            return self(value.template, **value.params)
        return value

    def plural_forms(self, singular: str, plural: str) -> dict[str, str]:
        """Every form by its CLDR category (one, few, many, other), for the scripts,
        which pick the form with ``Intl.PluralRules``."""
        return {
            category: self._t.ngettext(singular, plural, n)
            for category, n in _plural_samples(self.lang).items()
        }


@functools.cache
def _plural_samples(lang: str) -> Mapping[str, int]:
    """One number per CLDR plural category of ``lang`` (the smallest that has it)."""
    if lang == DEFAULT:
        return {"one": 1, "other": 2}
    from babel import Locale

    rule = Locale.parse(lang).plural_form
    samples: dict[str, int] = {}
    for n in range(200):
        samples.setdefault(rule(n), n)
    return samples


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language, else the first supported one the browser prefers."""
    if cookie in LANGUAGES:
        return str(cookie)
    best: tuple[float, str] | None = None
    for i, part in enumerate((accept_language or "").split(",")):
        fields = part.strip().split(";")
        code = fields[0].strip().lower().split("-")[0]
        quality = 1.0
        for f in fields[1:]:
            name, _, value = f.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if code in LANGUAGES and quality > 0:
            key = (quality - i * 1e-6, code)
            if best is None or key[0] > best[0]:
                best = key
    return best[1] if best else DEFAULT
