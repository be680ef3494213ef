"""One CSV row per card. Text that a spreadsheet would run as a formula is neutralised; numbers stay numbers.

``interview_recall`` is the card's predicted recall on the interview day set with ``drill plan`` if it is not
reviewed again (empty when no date is set, or for a card not in the plan)."""

from __future__ import annotations

import csv
import io

from drill.report.data import CardFigure, ReportData

COLUMNS = (
    "id",
    "section",
    "state",
    "due",
    "stability",
    "difficulty",
    "retrievability",
    "reviews",
    "lapses",
    "last_rating",
    "question",
    "interview_recall",
)
# A cell starting with one of these is a formula (or becomes one) in Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str) -> str:
    """Prefix a single quote to text a spreadsheet would evaluate (OWASP's CSV-injection advice)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _number(value: float | None, digits: int = 6) -> str:
    return "" if value is None else repr(round(value, digits))


def row(card: CardFigure, interview_recall: float | None = None) -> list[str]:
    return [
        neutralise(card.id),
        neutralise(card.section),
        card.state,
        card.due.isoformat() if card.due else "",
        _number(card.stability),
        _number(card.difficulty),
        _number(card.retrievability),
        str(card.reviews),
        str(card.lapses),
        card.last_rating or "",
        neutralise(" ".join(card.question.split())),
        _number(interview_recall),
    ]


def to_csv(data: ReportData) -> str:
    if data.cards is None:
        raise ValueError("this report was computed without its per-card list: compute(..., cards=True)")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    recall = {} if data.interview is None else data.interview.recall
    for card in data.cards:
        writer.writerow(row(card, recall.get(card.id)))
    return out.getvalue()
