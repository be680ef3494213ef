"""One CSV row per card. Text that a spreadsheet would run as a formula is neutralised; numbers stay numbers.

Every text cell passes the output sanitiser (drill.report.sanitise.cell): control and format characters become
visible stand-ins, then a cell starting with ``=``, ``+``, ``-``, ``@``, TAB or CR gets a ``'`` prefix.

``section`` is the card's section as written; ``section_key`` the same with every number after the first two
digits wide (7.02, 7.10), so sorting the column, or reading it as a number (pandas, Excel), keeps the chapter's
order and never merges 7.10 with 7.1. ``interview_recall`` is the card's predicted recall on the interview
day set with ``drill plan`` if it is not reviewed again (empty when no date is set, or for a card not in the
plan). ``code_*`` are filled on a `drill code` task's card (``code-<task>``) once the task was run: runs,
whether a run passed every hidden test (1/0), time spent (seconds, runs plus writing) and the mistakes
diagnosed, most often first, joined by ``;`` (the report's coding section, per task). ``mock_*`` are filled on a
card asked in a mock interview (`drill interview`, the report's mock-interview section, per card): answers,
mean coverage of the key points (0..1), mean answering time (seconds), answers that ran out of time, traps hit,
and the points missed, most often first, joined by ``;``. ``excel=True`` starts the file with a UTF-8 byte order
mark, without which Excel shows Chinese as mojibake. The rows are written from the report's card columns (drill.report.card_columns): no object per card.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from drill.report import charts, sanitise
from drill.report.card_columns import CardColumns
from drill.report.data import ReportData
from drill.report.sanitise import FORMULA_STARTS, neutralise
from drill.report.sections import sortable

COLUMNS = (
    "id",
    "section",
    "section_key",
    "state",
    "due",
    "stability",
    "difficulty",
    "retrievability",
    "reviews",
    "lapses",
    "last_rating",
    "flag",
    "marked",
    "question",
    "interview_recall",
    "code_runs",
    "code_passed",
    "code_seconds",
    "code_mistakes",
    "mock_answers",
    "mock_coverage",
    "mock_seconds",
    "mock_timed_out",
    "mock_traps_hit",
    "mock_missed",
)
CODE_CARD = "code-"  # a `drill code` task's card: code-<task> (drill.tui.screens.code)
BOM = "\ufeff"
BATCH = 5000  # cards per piece of csv_chunks


def _numbers(values: list[float | None]) -> list[str]:
    """Each value rounded to 6 decimals as Python writes it (``repr(round(v, 6))``), empty for None. Python's
    ``round`` is correctly rounded; numpy's is not (it scales by 10**6 first: 274877.9720335 -> ...034)."""
    return ["" if v is None else repr(round(v, 6)) for v in values]


def _cells(values: list[str]) -> list[str]:
    return list(map(neutralise, sanitise.texts(values)))


def _code_columns(data: ReportData, ids: list[str]) -> list[list]:
    tasks = {} if data.coding is None else {CODE_CARD + t.task: t for t in data.coding.tasks}
    if not tasks:
        return [[""] * len(ids)] * 4
    rows = [tasks.get(cid) for cid in ids]
    return [
        ["" if t is None else t.runs for t in rows],
        ["" if t is None else int(t.passed) for t in rows],
        ["" if t is None else repr(round(t.seconds, 3)) for t in rows],
        ["" if t is None else sanitise.cell(";".join(t.mistakes)) for t in rows],
    ]


def _mock_columns(data: ReportData, ids: list[str]) -> list[list]:
    scores = {} if data.interview_scores is None else data.interview_scores.by_card
    if not scores:
        return [[""] * len(ids)] * 6
    rows = [scores.get(cid) for cid in ids]
    return [
        ["" if s is None else s.answers for s in rows],
        _numbers([None if s is None else s.coverage for s in rows]),
        _numbers([None if s is None else s.seconds for s in rows]),
        ["" if s is None else s.timed_out for s in rows],
        ["" if s is None else s.traps_hit for s in rows],
        ["" if s is None else sanitise.cell(";".join(" ".join(p.split()) for p in s.missed)) for s in rows],
    ]


def to_csv(data: ReportData, *, excel: bool = False) -> str:
    return "".join(csv_chunks(data, excel=excel))


def csv_chunks(data: ReportData, *, excel: bool = False) -> Iterator[str]:
    """``to_csv``'s text in pieces, ``BATCH`` cards at a time (a caller writing them as they come never holds
    the whole file, nor every column of a million cards)."""
    if data.cards is None:
        raise ValueError("this report was computed without its per-card list: compute(..., cards=True)")
    cards = CardColumns.of(data.cards)
    sections = {s: (sanitise.cell(s), sanitise.cell(sortable(s))) for s in set(cards.section)}
    questions = {q: sanitise.cell(charts.one_line(q)) for q in set(cards.question)}
    recall = {} if data.interview is None else data.interview.recall
    out = io.StringIO()
    if excel:
        out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for start in range(0, len(cards), BATCH):
        part = slice(start, start + BATCH)
        ids, card_sections = cards.id[part], cards.section[part]
        columns = [
            _cells(ids),
            [sections[s][0] for s in card_sections],
            [sections[s][1] for s in card_sections],
            cards.state[part],
            ["" if d is None else d for d in cards.due[part]],
            _numbers(cards.stability[part]),
            _numbers(cards.difficulty[part]),
            _numbers(cards.retrievability[part]),
            cards.reviews[part],
            cards.lapses[part],
            ["" if r is None else r for r in cards.last_rating[part]],
            cards.flag[part],
            cards.marked[part],
            list(map(questions.__getitem__, cards.question[part])),
            _numbers([recall.get(cid) for cid in ids]) if recall else [""] * len(ids),
            *_code_columns(data, ids),
            *_mock_columns(data, ids),
        ]
        writer.writerows(zip(*columns, strict=True))
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


__all__ = ["BOM", "COLUMNS", "FORMULA_STARTS", "csv_chunks", "neutralise", "to_csv"]
