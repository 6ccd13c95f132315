"""The engine's notes are codes with parameters; their words come from the wording
table (docs/translating.md), so every code has a text and the text forms round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koth.games.quiz.state import Note, NoteKind, Problem
from koth.games.quiz.wording import (
    DECLARATION_TEXTS,
    NOTE_TEXTS,
    PROBLEM_TEXTS,
    note_text,
)

names = st.text(min_size=1, max_size=20)
values = st.one_of(names, st.integers(-50, 50))


@given(
    st.integers(1, 999),
    names,
    st.sampled_from(list(NoteKind)),
    st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True), values, max_size=4),
)
def test_a_note_reads_back_from_its_text_form(
    question: int, team: str, kind: NoteKind, params: dict[str, str | int]
) -> None:
    params.pop("team", None)
    note = Note(question, team, kind, tuple(params.items()))
    assert Note.parse(str(note)) == note


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Q1",
        "Q1 crowned",
        "X1 crowned {}",
        'Q1 crowned {"x": 1}',
        'Q1 nope {"team": "A"}',
        'Q1 crowned {"team": "A", "n": [1]}',
        'Qx crowned {"team": "A"}',
    ],
)
def test_a_text_that_is_no_note_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match="not a note"):
        Note.parse(text)


def test_every_code_has_words() -> None:
    assert set(NoteKind) <= set(NOTE_TEXTS)
    assert set(Problem) <= set(PROBLEM_TEXTS)
    assert set(DECLARATION_TEXTS) == {"ordinary", "jump", "revolution"}


@pytest.mark.parametrize(
    ("note", "text"),
    [
        (Note(10, "A", NoteKind.KEPT_PEAK), "kept the Peak (Q10)"),
        (Note(3, "A", NoteKind.CROWNED), "reached the Peak: King (Q7)"),
        (Note(3, "A", NoteKind.CROWNED, (("by", "revolution"),)), "won the Revolution: King (Q10)"),
        (
            Note(3, "A", NoteKind.OVERTHROWN, (("king", "B"),)),
            "answered wrong and was overthrown by B (Q10)",
        ),
        (
            Note(
                3,
                "A",
                NoteKind.DOWNGRADED,
                (
                    ("declaration", "jump"),
                    ("reason", "jump_near_peak"),
                    ("rule", "Q3"),
                    ("left", 1),
                ),
            ),
            "jump downgraded to an ordinary move: a jump is not allowed with 1 step left to the "
            "Peak (Q3)",
        ),
        (
            Note(
                3,
                "A",
                NoteKind.DOWNGRADED,
                (
                    ("declaration", "revolution"),
                    ("reason", "not_below_peak"),
                    ("rule", "Q8"),
                    ("below", 9),
                    ("position", 4),
                ),
            ),
            "revolution downgraded to an ordinary move: only a team one step below the Peak "
            "(position 9) may declare a Revolution; the team stands on 4 (Q8)",
        ),
    ],
)
def test_notes_in_english(note: Note, text: str) -> None:
    assert note_text(note) == text
