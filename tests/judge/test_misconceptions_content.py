"""data/misconceptions.yaml through its loader: corrections resolved from the content (pitfalls and points
verbatim, errata's notes), every rubric's traps worded as mistakes, and line-exact errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drill.content import load_content
from drill.content.misconceptions import load_misconceptions
from drill.errors import ContentError

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def library():
    return load_content()


def test_each_pitfall_bullet_of_a_bank_card_has_its_wrong_belief(library):
    book = load_misconceptions(library)
    corrected = {c.text for m in book.items for c in m.corrections if not c.drills}
    for card in library.cards.values():
        if card.bank is not None and card.points:
            for pitfall in card.pitfalls:
                assert pitfall in corrected, (card.id, pitfall)


def test_corrections_come_from_the_content(library):
    book = load_misconceptions(library)
    kv = book.get("kvcache-total-linear")
    assert kv is not None and "q20" in kv.cards
    (note,) = kv.corrections
    assert note.drills and note.text == next(e.note for e in library.errata if e.id == "e7.15-kv-cache")
    dk = book.get("divide-by-dk")
    assert dk.corrections[0].text == library.cards["q07"].pitfalls[0]
    assert "d_k" in dk.wrong("zh") and dk.wrong("en").startswith("The scores")


def test_the_corrected_points(library):
    cards = library.cards
    assert "O(n)" not in " ".join(cards["q20"].points)
    assert not any("softmax 也是" in p for p in cards["q18"].points)
    assert "② FFN" in cards["q27"].points
    assert cards["q40"].points[0] == "不会"
    # points whose words an erratum corrects are no points (issue 25): the judge must not reward them
    assert not any("删头" in p for p in cards["q21"].points)
    assert not any("相当" in p for p in cards["q23"].points)
    assert not any("注意力权重" in p for p in cards["q39"].points)
    from drill.content.errata import corrections_in

    for card in cards.values():
        for point in card.points:
            assert not corrections_in(point, library.errata), (card.id, point)


def _pack_with(tmp_path: Path, text: str) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DATA, pack)
    (pack / "misconceptions.yaml").write_text(text, encoding="utf-8")
    return pack


@pytest.mark.parametrize(
    "body, line, needle",
    [
        ("- id: x1\n  cards: [q99]\n  wrong: {zh: 错, en: wrong}\n  corrects: [q07/pitfall/1]\n", 4, "q99"),
        ("- id: x1\n  cards: [q07]\n  wrong: {zh: 错}\n  corrects: [q07/pitfall/1]\n", 5, "both languages"),
        (
            "- id: x1\n  cards: [q07]\n  wrong: {zh: 错, en: wrong}\n  corrects: [q07/pitfall/9]\n",
            6,
            "3 pitfalls",
        ),
        ("- id: x1\n  cards: [q07]\n  wrong: {zh: 错, en: wrong}\n  corrects: [erratum/nope]\n", 6, "nope"),
    ],
)
def test_errors_name_file_line_and_field(tmp_path, body, line, needle):
    pack = _pack_with(tmp_path, "pack: transformer-ch7\nmisconceptions:\n" + body)
    library = load_content(pack, cache=False)
    with pytest.raises(ContentError) as err:
        load_misconceptions(library)
    message = str(err.value)
    assert f"misconceptions.yaml:{line}:" in message and needle in message


def test_drill_check_validates_the_misconceptions(tmp_path):
    import os
    import subprocess
    import sys

    body = "- id: x1\n  cards: [q07]\n  wrong: {zh: 错, en: wrong}\n  corrects: [q07/pitfall/9]\n"
    pack = _pack_with(tmp_path, "pack: transformer-ch7\nmisconceptions:\n" + body)
    env = dict(os.environ, DRILL_DATA_DIR=str(tmp_path / "d"), DRILL_CONFIG_DIR=str(tmp_path / "c"))
    done = subprocess.run(
        [sys.executable, "-m", "drill", "--lang", "en", "check", str(pack)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "misconceptions.yaml:6:" in line and "has 3 pitfalls, not 9" in line
