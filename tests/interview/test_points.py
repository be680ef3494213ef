"""`points:` — each bank card's key points, verbatim clauses of its answer: loaded, refused with file:line, required."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content
from drill.errors import ContentError

PACKS = Path(__file__).resolve().parents[1] / "content" / "packs"


def test_every_shipped_bank_card_has_points_copied_from_its_answer():
    library = load_content(cache=False)
    bank = [c for c in library.cards.values() if c.bank is not None]
    assert len(bank) >= 38
    for card in bank:
        assert card.points, card.id
        for point in card.points:
            assert point in card.answer or point in (card.bank_answer or ""), (card.id, point)


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "mini"
    shutil.copytree(PACKS / "mini", pack)
    return pack


def test_the_loader_refuses_a_point_that_is_not_in_the_answer_with_file_and_line(tmp_path):
    pack = _pack(tmp_path)
    q = pack / "questions.yaml"
    lines = q.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("points: ['RNN"))
    lines[at] = "    points:\n      - RNN 的长程依赖难以学习\n      - 注意力是检索"
    q.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_content(pack, cache=False)
    # the bad point is the second item, two lines below `points:` (file lines count from 1)
    assert str(err.value).startswith(f"{q}:{at + 3}: cards[0].points[1]: point '注意力是检索' is not in")


def test_drill_check_errors_on_a_bank_card_without_points(tmp_path):
    pack = _pack(tmp_path)
    q = pack / "questions.yaml"
    q.write_text(
        "\n".join(line for line in q.read_text(encoding="utf-8").split("\n") if "points:" not in line),
        encoding="utf-8",
    )
    load_content(pack, cache=False)  # loading is fine: points are optional on any one card
    result = CliRunner().invoke(cli, ["check", str(pack)])
    assert result.exit_code == 2
    assert f"{pack / 'questions.yaml'}: bank cards without points: q01, q03" in result.output
    assert "Traceback" not in result.output


def test_drill_check_passes_when_every_bank_card_has_points():
    result = CliRunner().invoke(cli, ["check", str(PACKS / "mini"), "--plain"])
    assert result.exit_code == 0, result.output
