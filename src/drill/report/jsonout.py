"""The report as JSON, following the versioned JSON Schema shipped as ``drill/report/schema.json``."""

from __future__ import annotations

import json
from importlib import resources

from drill.report.data import ReportData

SCHEMA_ID = "https://drill.invalid/schemas/report-1.json"


def to_json(data: ReportData) -> str:
    document = {"$schema": SCHEMA_ID, **data.to_dict()}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def schema() -> dict:
    """The JSON Schema (draft 2020-12) a report document follows."""
    return json.loads(resources.files("drill.report").joinpath("schema.json").read_text(encoding="utf-8"))
