"""A chapter quiz's wrong options each say why they are wrong (issue 28, "Quiz"): drill's own note (zh and en in
quizzes.yaml's ``why_wrong``, marked as drill's on screen), with the words of the chapter's explanation it rests
on where there are some; and at 80x24 the question stays in view with the feedback once answered.

Oracles: the YAML file itself (read with PyYAML, not through drill's loader) for what each option's note is, the
rendered screen (an SVG screenshot read back as rows of text) for what is in view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import drill.i18n
from drill.content import load_content
from drill.errors import ContentError
from tests.content.conftest import PACKS
from tests.helpers import plain
from tests.tui.conftest import wait_until
from tests.tui.screenshots import screen_lines
from tests.tui.test_quiz import question_shown

DATA = Path(__file__).resolve().parents[2] / "data" / "quizzes.yaml"
RAW = {q["id"]: q for q in yaml.safe_load(DATA.read_text(encoding="utf-8"))["quizzes"]}


def test_every_wrong_option_of_every_chapter_quiz_has_a_note_in_both_languages():
    assert len(RAW) == 8
    for qid, quiz in RAW.items():
        wrong = {k for k in quiz["options"] if k != quiz["answer"]}
        assert set(quiz["why_wrong"]) == wrong, qid
        for key, note in quiz["why_wrong"].items():
            assert note["zh"].strip() and note["en"].strip(), (qid, key)
            assert any("\u4e00" <= ch <= "\u9fff" for ch in note["zh"]), (qid, key)
            assert not any("\u4e00" <= ch <= "\u9fff" for ch in note["en"]), (qid, key)
            if "quote" in note:  # the chapter's words: in the quiz's explanation, word for word
                assert note["quote"] in quiz["explanation"], (qid, key)
    quoted = sum("quote" in n for q in RAW.values() for n in q["why_wrong"].values())
    assert quoted >= 16  # most notes rest on the chapter's own explanation


def _pack_with(tmp_path, why: str) -> Path:
    pack = tmp_path / "mini"
    shutil.copytree(PACKS / "mini", pack)
    quizzes = pack / "quizzes.yaml"
    quizzes.write_text(quizzes.read_text(encoding="utf-8") + why, encoding="utf-8")
    return pack


GOOD = {
    "A": "{zh: 这是 Q 的形状。, en: That is the shape of Q.}",
    "C": "{zh: 那是 QᵀK。, en: That is QᵀK., quote: 每个 query 与每个 key 打分。}",
    "D": "{zh: 丢了 batch 维。, en: It drops the batch dimension.}",
}


def _why(**entries: str) -> str:
    return "    why_wrong:\n" + "".join(f"      {k}: {v}\n" for k, v in entries.items())


def test_a_pack_s_notes_load_and_bad_ones_are_refused_with_file_line_and_field(tmp_path):
    quiz = next(q for q in load_content(_pack_with(tmp_path / "ok", _why(**GOOD))).quizzes)
    assert quiz.why_wrong["C"]["quote"] == "每个 query 与每个 key 打分。"
    bad = [
        (_why(**{**GOOD, "B": "{zh: 对的。, en: Right.}"}), r"why_wrong.B: 'B' is not a wrong option"),
        (_why(A=GOOD["A"], C=GOOD["C"]), r"why_wrong: wrong option 'D' has no note"),
        (_why(**{**GOOD, "A": "{zh: 这是 Q 的形状。}"}), r"why_wrong.A.en: required field 'en' is missing"),
        (
            _why(**{**GOOD, "C": "{zh: 那是 QᵀK。, en: That is QᵀK., quote: 不在解析里}"}),
            r"why_wrong.C.quote: the quote is not in the quiz's explanation",
        ),
        (_why(**{**GOOD, "A": "{zh: x, en: y, why: z}"}), r"why_wrong.A.why: unknown field 'why'"),
    ]
    for i, (why, message) in enumerate(bad):
        with pytest.raises(ContentError, match=r"quizzes.yaml:\d+: quizzes\[0\]\." + message):
            load_content(_pack_with(tmp_path / str(i), why))


async def _answer(pilot, key: str):
    screen = await question_shown(pilot)
    await pilot.press(screen.item.option_by_key(key).letter.lower())
    await wait_until(pilot, lambda: screen.answered is not None)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_wrong_option_chosen_says_why_and_the_others_follow(quiz_app, lang):
    drill.i18n.set_language(lang)
    qid = "quiz-flashattention"
    quiz = RAW[qid]
    app = quiz_app(count=8)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await question_shown(pilot)
        while screen.item.id != qid:
            await pilot.press(screen.item.options[0].letter.lower())
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None)
        await pilot.press(screen.item.option_by_key("A").letter.lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        feedback = plain(screen.query_one("#quiz-feedback"))
        note = quiz["why_wrong"]["A"][lang]
        first = feedback.index(note)
        # the chosen option's note comes before the chapter's explanation, the other wrong options' after it
        assert first < feedback.index(quiz["explanation"])
        assert quiz["why_wrong"]["A"]["quote"] in feedback
        for key in ("C", "D"):
            assert feedback.index(quiz["why_wrong"][key][lang]) > feedback.index(quiz["explanation"])
        assert feedback.count("drill") >= 3  # each note marked as drill's own words


def _squeezed(lines: list[str]) -> str:
    return "".join("".join(line.split()) for line in lines)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_question_stays_in_view_with_the_feedback(quiz_app, lang):
    """Every chapter quiz answered wrong at 80x24: the question's first words, the verdict and the note on the
    option chosen are all on screen at once (before: the body scrolled to the feedback, the question above it)."""
    drill.i18n.set_language(lang)
    verdict = "✗错误" if lang == "zh" else "✗Wrong"
    app = quiz_app(count=8)
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await question_shown(pilot)
        for _ in range(8):
            item = screen.item
            wrong = next(o for o in item.options if o.key != item.answer)
            await pilot.press(wrong.letter.lower())
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.pause()
            shown = _squeezed(screen_lines(app.export_screenshot(), 80))
            note = RAW[item.id]["why_wrong"][wrong.key][lang]
            assert "".join(item.stem.split())[:14] in shown, (item.id, shown)
            assert verdict in shown and "".join(note.split())[:14] in shown, (item.id, shown)
            seen.append(item.id)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None or screen.run.finished)
    assert sorted(seen) == sorted(RAW)


@pytest.fixture
def quiz_app(library, store):
    from tests.tui.conftest import fixed_quiz

    return lambda **overrides: fixed_quiz(library, store, **overrides)
