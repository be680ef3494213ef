"""The card kinds beyond question/answer (drill.content.kinds): tables, formula ↔ code, hand calculation, code.

The oracles are independent of drill: the chapter's headings and tables are read here with a plain line parser,
the worked example (7.12) is recomputed in plain numpy from the chapter's inputs, and the code tasks come from
the engine's registry.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from drill import fields
from drill.cli import cli
from drill.content import load_content
from drill.content.kinds import KINDS, CalcCard, ClozeCard, CodeCard, FormulaCard, element_name, table_rows
from drill.content.schema import card_from
from drill.content.yamlio import parse_yaml
from drill.errors import ContentError

DATA = Path(__file__).resolve().parents[2] / "data"
CHAPTER = DATA / "transformer-chapter-7.md"
TEXT = CHAPTER.read_text(encoding="utf-8")
LINES = TEXT.split("\n")


def chapter_sections() -> list[str]:
    return [m.group(1) for line in LINES if (m := re.match(r"## (7\.\d+) ", line))]


def chapter_tables() -> list[tuple[str, list[str]]]:
    """(section, lines) of every Markdown table in the chapter."""
    out, section, i = [], None, 0
    while i < len(LINES):
        if m := re.match(r"## (7\.\d+) ", LINES[i]):
            section = m.group(1)
        if LINES[i].startswith("|"):
            j = i
            while j < len(LINES) and LINES[j].startswith("|"):
                j += 1
            out.append((section, LINES[i:j]))
            i = j
            continue
        i += 1
    return out


@pytest.fixture(scope="module")
def library():
    return load_content(DATA, cache=False)


def _of(library, cls):
    return [card for card in library.cards.values() if isinstance(card, cls)]


def test_every_section_of_the_chapter_has_a_card(library):
    sections = chapter_sections()
    assert sections == [f"7.{n}" for n in range(1, 26)]
    for section in sections:
        taught = [c for c in library.cards.values() if c.section == section]
        asked = [c for c in library.cards.values() if section in c.asked_in]
        assert taught or asked, f"section {section} has no card"
    # the sections that had none before the new kinds: now taught there (7.24 is the bank: asked there)
    for section, kinds in (("7.12", {"calc", "cloze"}), ("7.13", {"formula"}), ("7.25", {"cloze"})):
        assert {c.kind for c in library.cards.values() if c.section == section} >= kinds
    assert len([c for c in library.cards.values() if "7.24" in c.asked_in]) == 38


def test_every_table_of_the_chapter_is_covered(library):
    cloze = {card.table.strip(): card for card in _of(library, ClozeCard)}
    tables = chapter_tables()
    assert len(tables) == 37
    for section, lines in tables:
        body_rows = len(lines) - 2
        if section == "7.13":  # formula ↔ code: each row but the input's ($X$ ↔ `x`), both ways
            rows = [[c.strip() for c in line.strip()[1:-1].split("|")] for line in lines[3:]]
            pairs = {(c.formula, c.code, c.note) for c in _of(library, FormulaCard)}
            assert pairs == {(f, code.strip("`"), note) for f, code, note in rows}
            continue
        table = "\n".join(lines)
        assert table in cloze, f"the table of {section} starting {lines[0]!r} has no cloze cards"
        card = cloze[table]
        assert card.section == section
        rows = sorted(c.row for c in _of(library, ClozeCard) if c.table.strip() == table)
        assert rows == list(range(1, body_rows + 1))


def test_a_cloze_card_hides_its_row_and_answers_with_the_cells_word_for_word(library):
    card = library.cards["t7.1-1.r1"]
    assert card.kind == "cloze"
    assert "| RNN | ［？］ | ［？］ | ［？］ |" in card.question
    assert "| CNN | O(S/k)（要叠很多层） | ✅ 并行 | 一般（感受野有限） |" in card.question  # the rest shown
    for cell in ("O(S)（要一步步传）", "❌ 串行", "差（梯度消失）"):
        assert cell in card.answer and cell in TEXT
    # the 7.25 summary keeps "—" cells (nothing to ask) visible
    summary = library.cards["t7.25-1.r1"]
    assert "| 为什么 Attention | ［？］ | — |" in summary.question
    assert "任意两位置一步交互 + 完全并行" in summary.answer
    front = summary.front_text()
    assert "［？］" in front and "|" not in front.splitlines()[2]  # laid out as plain text, not Markdown
    assert summary.question in summary.front  # the front itself is Markdown (the Anki export renders it)


def test_formula_cards_ask_both_ways_with_the_chapters_code_and_pitfalls(library):
    to_code, to_formula = library.cards["f7.13-mask.to-code"], library.cards["f7.13-mask.to-formula"]
    assert to_code.question == "（可选）$+M$" and 'masked_fill(mask, float("-inf"))' in to_code.answer
    assert to_formula.question == '`scores = scores.masked_fill(mask, float("-inf"))`'
    assert "$+M$" in to_formula.answer and "causal/padding mask" in to_formula.answer
    assert to_code.pitfalls == ("**mask 要在 softmax 之前加**，加在之后是无效的。",)
    assert "QKᵀ" in library.cards["f7.13-scores.to-code"].front_text()  # the formula rendered
    pitfalls = {p for c in _of(library, FormulaCard) for p in c.pitfalls}
    warning = TEXT[TEXT.index("## 7.13") : TEXT.index("## 7.14")].split(":::warning 常见误区")[1]
    assert pitfalls == {line[2:] for line in warning.splitlines() if line.startswith("- ")}


def _worked() -> dict[str, np.ndarray]:
    """7.12 recomputed in plain numpy from the chapter's inputs (step 0 and step 1's weights)."""
    X = np.array([[1, 0], [0, 1], [1, 1]], dtype=float)
    W_Q, W_K, W_V = (np.array(m, dtype=float) for m in ([[1, 0], [1, 1]], [[0, 1], [1, 0]], [[1, 0], [0, 1]]))
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    S = Q @ K.T
    scaled = S / np.sqrt(2)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    return {"project_q": Q, "project_k": K, "project_v": V, "scores": S, "scale": scaled, "softmax": A,
            "weighted_sum": A @ V}  # fmt: skip


def test_calc_cards_ask_an_element_the_engine_recomputes(library):
    worked = _worked()
    checks = {check.id: check for check in library.checks}
    cards = _of(library, CalcCard)
    assert {c.step for c in cards} == {"project_q", "scores", "scale", "softmax", "weighted_sum"}
    for card in cards:
        check = checks[card.check]
        assert (card.step, card.index, card.decimals) == (check.step, check.index, check.decimals)
        value = float(worked[card.step][card.index])
        printed = f"{check.claimed:.{check.decimals}f}"
        assert printed in card.answer, card.id  # the chapter's own result, shown on reveal
        if abs(value - check.claimed) <= 0.5 * 10**-check.decimals + 1e-9:
            assert not check.erratum, card.id
            # its element is right; a note it shows is an erratum of something else it shows (the chapter's A)
            shown = [e for e in library.errata if card.id in e.cards]
            assert len(card.errata) == len(shown) and all(
                e.note in n for e, n in zip(shown, card.errata, strict=True)
            ), card.id
        else:  # the chapter is wrong: the card carries the note with the recomputed value
            assert card.errata and f"{value:.{check.decimals}f}" in card.errata[-1], card.id
    a23 = library.cards["c7.12-a23"]
    assert a23.element == "A₂₃" and "0.503" in a23.errata[-1] and "0.504" in a23.errata[-1]
    assert "A₂₃" in a23.front_text() and "3" in a23.front_text() and a23.question in a23.front
    assert element_name("scale", (2, 2)) == "(S/√d_k)₃₃"


def test_every_code_task_is_a_card_in_its_section():
    from drill.engine.codetasks import TASKS

    cards = _of(load_content(DATA, cache=False), CodeCard)
    assert {c.task: c.section for c in cards} == {t.name: t.section for t in TASKS.values()}
    assert all(c.id == f"code-{c.task}" for c in cards)


def test_every_new_kind_quotes_the_chapter_byte_for_byte(library):
    for card in library.cards.values():
        if card.kind in ("cloze", "formula", "calc"):
            for spec in fields.specs(type(card)):
                if getattr(spec.rule, "verbatim", False):
                    value = getattr(card, spec.name)
                    for text in (value,) if isinstance(value, str) else value or ():
                        assert text.strip() in TEXT, (card.id, spec.name, text)


def test_kinds_round_trip_through_the_cache(library, tmp_path, monkeypatch):
    from drill.content import cache

    monkeypatch.setenv("DRILL_CACHE_DIR", str(tmp_path))
    cache.write("k", library)
    back = cache.read("k")
    assert back is not None and back.cards == library.cards
    assert {type(c) for c in back.cards.values()} == set(KINDS.values())


# --- refused, with file and line ------------------------------------------------------------------------


def _card(text: str):
    doc = parse_yaml("cards:\n  - id: c1\n    section: '7.1'\n    tags: [t]\n" + text, Path("k.yaml"))
    return card_from(doc, 0, doc.data["cards"][0], "p")


def test_bad_kind_records_are_refused_with_file_and_line():
    with pytest.raises(ContentError, match=r"^k\.yaml:5: cards\[0\]\.kind: unknown card kind 'table'"):
        _card("    kind: table\n    table: '| a |'\n")
    with pytest.raises(ContentError, match=r"^k\.yaml:6: cards\[0\]\.rows\[0\]: row 3 is not a body row"):
        _card(
            "    kind: cloze\n    rows: [3]\n    table: |\n      | a | b |\n      | - | - |\n      | x | y |\n"
        )
    with pytest.raises(ContentError, match=r"^k\.yaml:6: cards\[0\]\.table: body row 1 has 1 cells"):
        _card("    kind: cloze\n    table: |\n      | a | b |\n      | x |\n")
    with pytest.raises(ContentError, match=r"^k\.yaml:\d+: cards\[0\]\.direction: unknown field|given"):
        _card("    kind: formula\n    formula: $x$\n    code: x\n    note: n\n    direction: to-code\n")
    with pytest.raises(ContentError, match=r"required field 'check' is missing from card c1"):
        _card("    kind: calc\n    given: [a]\n    shows: b\n")
    assert isinstance(_card("    kind: code\n    task: softmax\n"), CodeCard)
    assert table_rows("| a | b |\n| --- | --- |\n| x | y |") == [["a", "b"], ["x", "y"]]


def test_a_calc_card_naming_no_check_is_refused(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(DATA, pack)
    _edit(pack / "questions.yaml", "check: 7.12-worked-scores-1-2", "check: 7.12-worked-scores-9-9")
    with pytest.raises(
        ContentError, match=r"questions\.yaml:\d+: cards\[\d+\]\.check: check '7\.12-worked-scores-9-9'"
    ):
        load_content(pack, cache=False)


def _edit(file: Path, old: str, new: str) -> int:
    text = file.read_text(encoding="utf-8")
    at = text.index(old)
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:at].count("\n") + 1


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("    | RNN | O(S)（要一步步传） | ❌ 串行 | 差（梯度消失） |", "    | RNN | O(S)（要一步一步传） | ❌ 串行 | 差（梯度消失） |", "table"),
        ("  code: scores = Q @ K.transpose(-2, -1)", "  code: scores = Q @ K.transpose(-1, -2)", "code"),
        ("是第 i 个 token 对第 j 个 token 的匹配分数", "是第 i 个 token 与第 j 个 token 的匹配分数", "answer"),
    ],
)  # fmt: skip
def test_drill_check_refuses_a_cell_a_code_line_and_an_answer_not_in_the_source(tmp_path, old, new, field):
    pack = tmp_path / "pack"
    shutil.copytree(DATA, pack)
    target = pack / "questions.yaml"
    if old not in target.read_text(encoding="utf-8"):
        pytest.fail(f"the fixture text moved: {old!r}")
    line = _edit(target, old, new)
    result = CliRunner().invoke(cli, ["check", str(pack), "--plain"])
    assert result.exit_code == 2, result.output
    assert (
        f"{target}:{line}: cards[" in result.output
        and f"].{field}: not in the pack's source" in result.output
    )
