"""Every text of the quiz pages with a count of things is a plural text (one form per
plural category: Russian has three), never "{n} question(s)" or a single form."""

from __future__ import annotations

import re

from koth.i18n import Translator
from koth.server.quiz.i18n import EN, PLURALS, strings

#: a count placeholder followed by what it counts
COUNTED = re.compile(r"\{(n|x|count|right)\} (?:of \{n\} )?(team|question|answer|command|group)")


def test_no_quiz_text_counts_things_in_a_single_form() -> None:
    singles = {k: t for k, t in EN.items() if "(s)" in t or COUNTED.search(t)}
    assert singles == {}, "make these N_plural texts in PLURALS"


def test_each_plural_text_has_every_russian_form_with_its_count() -> None:
    ru = Translator("ru")
    for key, (one, many) in PLURALS.items():
        forms = ru.plural_forms(one, many)
        assert forms.keys() >= {"one", "few", "many"}, key
        assert all("{n}" in form for form in forms.values()), (key, forms)
        assert strings("ru")[key] == forms


def test_the_offline_queue_and_mark_the_rest_wrong_agree_with_their_count() -> None:
    en, ru = Translator("en"), Translator("ru")
    one, many = PLURALS["offline_queued"]
    assert "1 command waits" in en.plural(one, many, 1)
    assert "3 commands wait" in en.plural(one, many, 3)
    assert "5 команд" in ru.plural(one, many, 5)
    one, many = PLURALS["mark_rest_wrong"]
    assert en.plural(one, many, 1) == "Mark the other 1 answer wrong"
    assert ru.plural(one, many, 2) == "Остальные 2 ответа — неверно"
