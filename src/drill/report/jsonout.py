"""The report as JSON, following the versioned JSON Schema shipped as ``drill/report/schema.json``.

Indented for reading, with one card per line in ``cards``: a collection can hold 100k cards, so the cards are
written from the report's columns (drill.report.card_columns), one compact object per line, while the rest is
indented by json. Every string passes the output sanitiser first (drill.report.sanitise): a control or format
character in a stored name or section arrives as a visible stand-in, never raw.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from importlib import resources

from drill.report import sanitise
from drill.report.card_columns import CardColumns
from drill.report.data import ReportData, jsonable

SCHEMA_ID = "https://drill.invalid/schemas/report-1.json"
BATCH = 5000  # cards per piece of json_chunks


def to_json(data: ReportData) -> str:
    return "".join(json_chunks(data))


def json_chunks(data: ReportData) -> Iterator[str]:
    """``to_json``'s text in pieces, the cards a batch at a time: a caller writing them as they come never
    holds the whole document (a million cards' text, or four bytes a character once one is outside the
    Basic Multilingual Plane: Python's strings are as wide as their widest character)."""
    if data.cards is None:
        raise ValueError("this report was computed without its per-card list: compute(..., cards=True)")
    data = sanitise.clean(data)
    placeholder = f"drill-cards-{uuid.uuid4().hex}"  # stands for the list while the rest is indented
    fields = jsonable(data, skip=("cards",))
    document = {
        "$schema": SCHEMA_ID,
        **{
            name: placeholder if name == "cards" else fields[name]
            for name in data.__dataclass_fields__
            if name == "cards" or name in fields
        },
    }
    head, tail = json.dumps(document, ensure_ascii=False, indent=2).split(json.dumps(placeholder), 1)
    cards = CardColumns.of(data.cards)
    yield head
    if not len(cards):
        yield "[]"
    for start in range(0, len(cards), BATCH):
        lines = ",\n    ".join(cards.json_lines(start, start + BATCH))
        yield ("[\n    " if start == 0 else ",\n    ") + lines
    if len(cards):
        yield "\n  ]"
    yield tail + "\n"


def schema() -> dict:
    """The JSON Schema (draft 2020-12) a report document follows."""
    return json.loads(resources.files("drill.report").joinpath("schema.json").read_text(encoding="utf-8"))
