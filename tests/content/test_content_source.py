"""The pack carries its source: the chapter ships in data/, and `drill check` finds every verbatim field in it.

The chapter's interview questions are read here with a plain parser of the chapter (the oracle), independent of
drill: each card's questions and answers must be the chapter's, each answer under the question it answers.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content
from drill.content.models import Card
from drill.content.source import check_sources

DATA = Path(__file__).resolve().parents[2] / "data"
CHAPTER = DATA / "transformer-chapter-7.md"


def chapter_questions() -> list[tuple[str, str, str, str]]:
    """(section, label, question, answer) for every **Qn：…** followed by a :::answer block."""
    lines = CHAPTER.read_text(encoding="utf-8").split("\n")
    out, section = [], None
    for i, line in enumerate(lines):
        if m := re.match(r"## (7\.\d+) ", line):
            section = m.group(1)
        if m := re.fullmatch(r"\*\*(Q\d*)：(.*)\*\*", line):
            j = i + 1
            while not lines[j].strip():
                j += 1
            assert lines[j].startswith(":::answer"), f"chapter line {i + 1}: no answer after the question"
            k = j + 1
            while not lines[k].startswith(":::"):
                k += 1
            out.append((section, m.group(1), m.group(2), "\n".join(lines[j + 1 : k]).strip()))
    return out


QUESTIONS = chapter_questions()
BANK = {int(label[1:]): (q, a) for section, label, q, a in QUESTIONS if section == "7.24"}
SECTION_QS = {q: (section, a) for section, label, q, a in QUESTIONS if section != "7.24"}


@pytest.fixture(scope="module")
def cards() -> list[Card]:
    """The question/answer cards (the other kinds quote tables, code and steps: tests/content/test_content_kinds.py)."""
    return [card for card in load_content(DATA, cache=False).cards.values() if card.kind == "qa"]


def test_the_chapter_ships_in_the_pack_and_the_oracle_reads_its_questions():
    library = load_content(DATA, cache=False)
    assert library.packs[0].source == CHAPTER.name and CHAPTER.is_file()
    # the heading says "39 问" but the bank numbers Q1-Q40 without Q22 and Q38: 38 questions
    assert sorted(BANK) == [n for n in range(1, 41) if n not in (22, 38)]
    assert len(SECTION_QS) == 35


def test_every_answer_is_shown_under_the_question_it_answers(cards):
    for card in cards:
        bank = BANK.get(card.bank) if card.bank else None
        if card.question in SECTION_QS:
            section, answer = SECTION_QS[card.question]
            assert card.answer == answer, card.id
            assert card.section == section, card.id
            if bank:
                assert card.bank_question == (bank[0] if bank[0] != card.question else None), card.id
                assert (card.bank_answer or card.answer) == bank[1], card.id
        else:  # a bank-only card: the bank's question and answer
            assert bank is not None, f"{card.id}: its question is neither a section's nor the bank's"
            assert (card.question, card.answer) == bank, card.id
            assert card.bank_question is None and card.bank_answer is None, card.id


def test_one_chapter_question_one_card(cards):
    section_cards = [card.question for card in cards if card.question in SECTION_QS]
    assert sorted(section_cards) == sorted(SECTION_QS)  # each section question on exactly one card
    fronts = sorted(card.front for card in cards if card.bank)
    assert fronts == sorted(q for q, _ in BANK.values())  # each bank question is exactly one card's front


def test_bank_cards_front_is_the_banks_wording(cards):
    by_id = {card.id: card for card in cards}
    named = "q02 q03 q05 q08 q09 q18 q20 q23 q24 q25 q27 q28 q31 q34 q35 q37 q39 q40".split()
    for card_id in named:
        card = by_id[card_id]
        assert card.front == BANK[card.bank][0] != card.question
    assert by_id["q03"].front == "为什么需要三套不同的投影矩阵？"
    assert by_id["q32"].question == "为什么 Transformer 用 LayerNorm 而不是 BatchNorm？"
    assert by_id["s7.20-ln-position"].question == "LayerNorm 在 Transformer 的位置？"


def test_the_shipped_pack_has_every_verbatim_field_in_its_source():
    report = check_sources(load_content(DATA, cache=False))
    assert report.missing == () and report.unsourced == ()
    assert report.checked > 250


def _pack_copy(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DATA, pack)
    return pack


def _edit(file: Path, old: str, new: str) -> int:
    """Replace the first ``old`` and return the 1-based line it was on."""
    text = file.read_text(encoding="utf-8")
    at = text.index(old)
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:at].count("\n") + 1


@pytest.mark.parametrize(
    ("file", "old", "new", "field"),
    [
        ("questions.yaml", "残差路径干净", "残差路径很干净", "answer"),
        ("questions.yaml", "**分数不是概率**", "**分数绝不是概率**", "pitfalls[0]"),
        ("quizzes.yaml", None, None, "stem"),
    ],
)
def test_drill_check_refuses_a_field_not_in_the_source_with_file_and_line(tmp_path, file, old, new, field):
    pack = _pack_copy(tmp_path)
    target = pack / file
    if old is None:  # the first quiz's stem
        old = re.search(r"stem: (.+)", target.read_text(encoding="utf-8")).group(1)
        new = old[:-1] + "吗" + old[-1]
    line = _edit(target, old, new)
    result = CliRunner().invoke(cli, ["check", str(pack), "--plain"])
    assert result.exit_code == 2, result.output
    assert f"{target}:{line}: " in result.output and f".{field}: not in the pack's source" in result.output
    assert "NOT IN SOURCE" in result.stdout


def test_a_missing_source_file_is_an_error(tmp_path):
    pack = _pack_copy(tmp_path)
    (pack / CHAPTER.name).unlink()
    result = CliRunner().invoke(cli, ["check", str(pack), "--plain"])
    assert result.exit_code == 2
    assert "questions.yaml:1: source: 'transformer-chapter-7.md' is not a file in the pack" in result.output


def test_bank_question_needs_a_bank_number(tmp_path):
    pack = _pack_copy(tmp_path)
    line = _edit(
        pack / "questions.yaml", "  asked_in: ['7.5']\n", "  asked_in: ['7.5']\n  bank_question: 问？\n"
    )
    result = CliRunner().invoke(cli, ["check", str(pack), "--plain"])
    assert result.exit_code == 2
    assert f"questions.yaml:{line + 1}: " in result.output and "bank_question needs bank" in result.output
