"""The exports stream: JSON and CSV come in pieces, a batch of cards at a time, and the pieces make exactly the
document a single piece would (the batch boundary never shows); every card is there once, in order."""

from __future__ import annotations

import csv
import io
import json

import pytest

from drill.report import csvout, jsonout
from drill.report.data import card_json
from tests.report.report_history import compute_report


@pytest.fixture(scope="module")
def report(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    try:
        yield compute_report(engine, library, user="alice")
    finally:
        engine.dispose()


@pytest.mark.parametrize("batch", [1, 3, 7])
def test_json_in_batches_is_the_whole_document(report, monkeypatch, batch):
    whole = jsonout.to_json(report)
    monkeypatch.setattr(jsonout, "BATCH", batch)
    pieces = list(jsonout.json_chunks(report))
    assert len(report.cards) > batch and len(pieces) >= 3 + (len(report.cards) - 1) // batch
    assert "".join(pieces) == whole
    # Each card as json's own encoder writes the CardFigure (an oracle apart from the columns' line writer).
    assert json.loads(whole)["cards"] == [json.loads(json.dumps(card_json(card))) for card in report.cards]


@pytest.mark.parametrize("batch", [1, 4])
def test_csv_in_batches_is_the_whole_file(report, monkeypatch, batch):
    whole = csvout.to_csv(report, excel=True)
    monkeypatch.setattr(csvout, "BATCH", batch)
    pieces = list(csvout.csv_chunks(report, excel=True))
    assert len(pieces) >= 1 + len(report.cards) // batch
    assert "".join(pieces) == whole
    rows = list(csv.reader(io.StringIO(whole.removeprefix(csvout.BOM))))
    assert rows[0] == list(csvout.COLUMNS)
    assert [row[0] for row in rows[1:]] == [csvout.neutralise(card.id) for card in report.cards]


def test_an_empty_card_list_is_still_a_document(report):
    from dataclasses import replace

    from drill.report.card_columns import CardColumns

    empty = replace(report, cards=CardColumns.of([]))
    assert json.loads(jsonout.to_json(empty))["cards"] == []
    assert csvout.to_csv(empty).splitlines() == [",".join(csvout.COLUMNS)]
