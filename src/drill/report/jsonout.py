"""The report as JSON, following the versioned JSON Schema shipped as ``drill/report/schema.json``.

Indented for reading, with one card per line in ``cards``: a collection can hold 100k cards, and json's
indenting encoder is pure Python (seconds for such a list), while the compact one is C.
"""

from __future__ import annotations

import json
import uuid
from importlib import resources

from drill.report.data import ReportData, card_json, jsonable

SCHEMA_ID = "https://drill.invalid/schemas/report-1.json"


def to_json(data: ReportData) -> str:
    if data.cards is None:
        raise ValueError("this report was computed without its per-card list: compute(..., cards=True)")
    placeholder = f"drill-cards-{uuid.uuid4().hex}"  # stands for the list while the rest is indented
    fields = jsonable(data, skip=("cards",))
    document = {
        "$schema": SCHEMA_ID,
        **{name: placeholder if name == "cards" else fields[name] for name in data.__dataclass_fields__},
    }
    text = json.dumps(document, ensure_ascii=False, indent=2)
    encode = json.JSONEncoder(ensure_ascii=False).encode
    cards = ",\n    ".join(map(encode, map(card_json, data.cards)))
    cards_text = f"[\n    {cards}\n  ]" if cards else "[]"
    return text.replace(json.dumps(placeholder), cards_text, 1) + "\n"


def schema() -> dict:
    """The JSON Schema (draft 2020-12) a report document follows."""
    return json.loads(resources.files("drill.report").joinpath("schema.json").read_text(encoding="utf-8"))
