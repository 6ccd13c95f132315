"""Question packs: the CSV and JSON/YAML forms, every error message (line and field),
the picture checks and ``koth quiz pack check``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from koth.games.quiz.cli import quiz_app
from koth.games.quiz.pack import (
    PICTURE_MAX_BYTES,
    Pack,
    PackError,
    PackQuestion,
    check_picture,
    pack_csv,
    pack_form,
    parse_pack,
    picture_type,
)

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "quiz" / "pack"
runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"
HEAD = "number,text,answer,accepted,comment,source,picture,partner,backup,part\n"


def problems(text: str, form: str = "csv") -> list[str]:
    with pytest.raises(PackError) as caught:
        parse_pack(text, form)  # type: ignore[arg-type]
    return caught.value.problems


def test_the_example_packs_agree() -> None:
    csv_pack = parse_pack((EXAMPLES / "pack.csv").read_text(encoding="utf-8"), "csv")
    json_pack = parse_pack((EXAMPLES / "pack.json").read_text(encoding="utf-8"), "json")
    assert csv_pack.questions == json_pack.questions
    q2 = csv_pack.find("game", 2, main=5)
    assert q2 is not None and q2.picture == "mountain.png" and "гора" in q2.accepted
    backup = csv_pack.find("game", 6, main=5)
    assert backup is not None and backup.backup and backup.answer == "Mars"
    assert csv_pack.find("game", 7, main=5) is None
    partner = csv_pack.find("final", 4, main=5)
    assert partner is not None and partner.partner == "The board game club"


def test_a_part_s_own_question_comes_before_one_for_every_part() -> None:
    text = HEAD + "1,For all,a,,,,,,,\n1,Final only,b,,,,,,,final\n"
    pack = parse_pack(text, "csv")
    assert pack.find("final", 1, main=1).text == "Final only"  # type: ignore[union-attr]
    assert pack.find("semifinal 1", 1, main=1).text == "For all"  # type: ignore[union-attr]


def test_a_spreadsheet_byte_order_mark_and_blank_rows_are_fine() -> None:
    pack = parse_pack("\ufeff" + HEAD + "1,Q,A,,,,,,,\n,,,,,,,,,\n", "csv")
    assert len(pack.questions) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("number,text\n1,Q\n", "line 1, field 'answer': the column is missing"),
        ("number,text,answer,colour\n", "line 1, field 'colour': unknown column"),
        (HEAD + "x,Q,A,,,,,,,\n", "line 2, field 'number': Input should be a valid integer"),
        (HEAD + "0,Q,A,,,,,,,\n", "line 2, field 'number': Input should be greater than or equal"),
        (HEAD + "1,,A,,,,,,,\n", "line 2, field 'text': String should have at least 1 character"),
        (HEAD + "1,Q,,,,,,,,\n", "line 2, field 'answer': String should have at least 1"),
        (HEAD + "1,Q,A,,,,,,maybe,\n", "line 2, field 'backup': Input should be a valid boolean"),
        (HEAD + "1,Q,A,,,,,,,quarterfinal\n", "line 2, field 'part': a part is one of game"),
        (
            HEAD + "1,Q,A,,,,../x.png,,,\n",
            "line 2, field 'picture': a picture is a plain file name",
        ),
        (HEAD + "1,Q,A,,,,,,,,extra\n", "line 2: more cells than columns"),
        (
            HEAD + "1,Q,A,,,,,,,\n1,R,B,,,,,,,\n",
            "line 3, field 'number': question 1 is already on line 2",
        ),
        (
            HEAD + "1,Q,A,,,,,,,\n3,R,B,,,,,,,\n",
            "field 'number': questions run 1 to 3 but 2 is missing",
        ),
        (HEAD + '1,"Q\nacross lines",A,,,,,,,\nx,R,B,,,,,,,\n', "line 4, field 'number'"),
        (HEAD, "the pack, field 'questions': List should have at least 1 item"),
    ],
)
def test_csv_errors_name_the_line_and_field(text: str, expected: str) -> None:
    found = problems(text)
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    ("text", "form", "expected"),
    [
        (
            '{"questions": [\n {"number": "x", "text": "Q", "answer": "A"}]}',
            "json",
            "line 2, field 'number'",
        ),
        (
            '{"questions": [\n {"number": 1,\n  "text": "",\n "answer": "A"}]}',
            "json",
            "line 3, field 'text'",
        ),
        (
            '{"questions": [\n {"number": 1, "text": "Q", "answer": "A",\n "colour": 1}]}',
            "json",
            "line 3, field 'colour': Extra inputs are not permitted",
        ),
        (
            '{"questions": [\n {"number": 1, "text": "Q", "answer": "A",\n "accepted": [""]}]}',
            "json",
            "line 3, field 'accepted': each accepted variant",
        ),
        ('{"questions": [', "json", "not valid JSON/YAML"),
        ("[1, 2]", "json", "line 1: a pack is an object with 'questions'"),
        (
            "questions:\n  - number: 1\n    text: Q\n  - number: 2\n    text: R\n    answer: B\n",
            "yaml",
            "line 2, field 'answer': Field required",
        ),
        (
            "title: t\nquestions: 3\n",
            "yaml",
            "line 2, field 'questions': Input should be a valid list",
        ),
    ],
)
def test_json_and_yaml_errors_name_the_line_and_field(text: str, form: str, expected: str) -> None:
    found = problems(text, form)
    assert any(expected in p for p in found), found


def test_every_problem_is_reported_at_once() -> None:
    found = problems(HEAD + "x,Q,A,,,,,,,\n2,,A,,,,,,,\n")
    assert len(found) == 2 and found[0].startswith("line 2") and found[1].startswith("line 3")


def test_pack_form_by_extension() -> None:
    assert [pack_form(n) for n in ("a.CSV", "b.json", "c.yml", "d.yaml")] == [
        "csv",
        "json",
        "yaml",
        "yaml",
    ]
    with pytest.raises(PackError, match=r"a pack is a \.csv"):
        pack_form("pack.txt")


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (b"\x89PNG\r\n\x1a\n" + b"0" * 8, "image/png"),
        (b"\xff\xd8\xff\xe0" + b"0" * 8, "image/jpeg"),
        (b"GIF89a" + b"0" * 8, "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", None),
        (b"", None),
    ],
)
def test_pictures_are_recognised_by_their_first_bytes(data: bytes, mime: str | None) -> None:
    assert picture_type(data) == mime


def test_picture_checks_name_the_picture() -> None:
    png = (EXAMPLES / "mountain.png").read_bytes()
    assert check_picture("m.png", png, 10_000).mime == "image/png"
    assert "the file is missing" in str(check_picture("m.png", None, 10).problem)
    assert "more than the 10 allowed" in str(check_picture("m.png", png, 10).problem)
    assert "not a PNG, JPEG" in str(check_picture("m.png", b"hello", 10).problem)


_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=30
).filter(lambda s: s.strip() == s and s != "" and "|" not in s)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(_text, _text, st.lists(_text, max_size=3), st.booleans(), st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_the_csv_form_round_trips(rows: list[tuple[str, str, list[str], bool, bool]]) -> None:
    counters = {False: 0, True: 0}
    questions = []
    for text, answer, accepted, backup, partner in rows:
        counters[backup] += 1
        questions.append(
            PackQuestion(
                number=counters[backup],
                text=text,
                answer=answer,
                accepted=accepted,
                backup=backup,
                partner=answer if partner else None,
            )
        )
    pack = Pack(questions=questions)
    assert parse_pack(pack_csv(pack), "csv").questions == pack.questions


def test_cli_pack_check_prints_the_pack() -> None:
    result = runner.invoke(quiz_app, ["pack", "check", str(EXAMPLES / "pack.csv")])
    assert result.exit_code == 0, result.output
    assert "Everest" in result.stdout and "mountain.png" in result.stdout
    assert "5 questions, 1 backup question" in result.stdout


def test_cli_pack_check_lists_each_error_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(HEAD + "x,Q,A,,,,,,,\n2,,A,,,,,,,\n", encoding="utf-8")
    result = runner.invoke(quiz_app, ["pack", "check", str(bad)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("bad.csv: line 2, field 'number'")
    assert lines[1].startswith("bad.csv: line 3, field 'text'")


def test_cli_pack_check_refuses_a_missing_or_false_picture(tmp_path: Path) -> None:
    pack = tmp_path / "p.csv"
    pack.write_text(HEAD + "1,Q,A,,,,a.png,,,\n2,R,B,,,,b.png,,,\n", encoding="utf-8")
    (tmp_path / "b.png").write_bytes(b"not a picture")
    result = runner.invoke(quiz_app, ["pack", "check", str(pack)])
    assert result.exit_code == 2
    assert "picture 'a.png': the file is missing" in result.stderr
    assert "picture 'b.png': not a PNG, JPEG, WebP or GIF file" in result.stderr


def test_cli_pack_check_refuses_an_unreadable_file(tmp_path: Path) -> None:
    pack = tmp_path / "p.csv"
    pack.write_bytes(b"number,text,answer\n1,\xff\xfe,A\n")
    result = runner.invoke(quiz_app, ["pack", "check", str(pack)])
    assert result.exit_code == 2 and "cannot be read as UTF-8 text" in result.stderr


def test_cli_pack_check_applies_the_servers_picture_limit(tmp_path: Path) -> None:
    """One limit for both: a picture the check passes is one the server stores (the
    server's default is the same constant: tests/server/quiz/test_show.py)."""
    pack = tmp_path / "p.csv"
    pack.write_text(HEAD + "1,Q,A,,,,big.png,,,\n", encoding="utf-8")
    (tmp_path / "big.png").write_bytes(PNG + bytes(PICTURE_MAX_BYTES))
    result = runner.invoke(quiz_app, ["pack", "check", str(pack)])
    assert result.exit_code == 2
    assert f"more than the {PICTURE_MAX_BYTES} allowed" in result.stderr
    (tmp_path / "big.png").write_bytes(PNG + bytes(PICTURE_MAX_BYTES - len(PNG)))
    assert runner.invoke(quiz_app, ["pack", "check", str(pack)]).exit_code == 0


LIGHTNING_HEAD = "number,text,answer,backup,lightning\n"


def test_lightning_questions_are_numbered_on_their_own_and_listed() -> None:
    pack = parse_pack(
        LIGHTNING_HEAD + "1,Q,A,,\n1,B,Bb,yes,\n1,Quick one,Q1,,yes\n2,Quick two,Q2,,yes\n",
        "csv",
    )
    assert [q.kind for q in pack.questions] == ["main", "backup", "lightning", "lightning"]
    assert pack.find("game", 1, 1) is not None and pack.find("game", 1, 1).text == "Q"
    assert pack.lightning_question("game", 2).text == "Quick two"  # type: ignore[union-attr]
    assert pack.lightning_question("game", 3) is None
    assert parse_pack(pack_csv(pack), "csv") == pack
    result = runner.invoke(quiz_app, ["pack", "check", str(EXAMPLES / "pack.csv")])
    assert "lightning questions" in result.stdout


def test_lightning_numbering_and_kind_errors_name_the_line() -> None:
    found = problems(LIGHTNING_HEAD + "1,Q,A,,\n1,X,Y,yes,yes\n2,Quick,Q,,yes\n")
    assert any("line 3" in p and "not both" in p for p in found), found
    found = problems(LIGHTNING_HEAD + "1,Q,A,,\n2,Quick,Q,,yes\n")
    assert found == ["the pack, field 'number': lightning questions run 1 to 2 but 1 is missing"]


def test_cli_pack_check_lists_lightning_questions(tmp_path: Path) -> None:
    pack = tmp_path / "p.csv"
    pack.write_text(LIGHTNING_HEAD + "1,Q,A,,\n1,Quick one,Q1,,yes\n", encoding="utf-8")
    result = runner.invoke(quiz_app, ["pack", "check", str(pack)])
    assert result.exit_code == 0, result.stderr
    words = " ".join(result.stdout.split())  # the caption wraps to the table's width
    assert "L1" in words and "1 question, 0 backup questions, 1 lightning question" in words


def test_a_refused_row_does_not_hide_the_packs_other_errors() -> None:
    found = problems("number,text,answer\n1,,A\n2,Q,A\n2,R,B\n")
    assert found == [
        "line 2, field 'text': String should have at least 1 character (got '')",
        "line 4, field 'number': question 2 is already on line 3",
    ]
