"""Chart geometry shared by the renderers: heatmap levels, Unicode bars and sparklines, number formats.

The terminal and Markdown reports draw with block characters; the HTML report draws SVG from the same levels,
so every format shows the same picture.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, timedelta

from drill.i18n import N_, _, pad, text_width
from drill.report.data import Calendar, ReportData

HEAT_CHARS = ("·", "░", "▒", "▓", "█")  # level 0..4; a shape per level, so colour is never the only carrier
SPARK_CHARS = "▁▂▃▄▅▆▇█"
EIGHTHS = " ▏▎▍▌▋▊▉"
WEEKDAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))
MONTHS = (
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)
# The card states' names as a report shows them (CSV and JSON keep the English keys of data.STATES).
STATE_NAMES = {
    "new": N_("new"),
    "learning": N_("learning"),
    "review": N_("review"),
    "relearning": N_("relearning"),
    "suspended": N_("suspended"),
    "retired": N_("retired"),
}
# A review's rating as a report's card lists show it (CSV and JSON keep the English of data.RATINGS).
RATING_NAMES = {"again": N_("again"), "hard": N_("hard"), "good": N_("good"), "easy": N_("easy")}


def weekday(day: date) -> str:
    """The day's weekday, abbreviated, in the report's language."""
    return _(WEEKDAYS[day.weekday()])


def month_name(day: date) -> str:
    """The day's month, abbreviated, in the report's language (Jan; 1月)."""
    return _(MONTHS[day.month - 1])


def heat_row_labels() -> list[str]:
    """The fixed-width heatmaps' row labels: the weekdays in the report's language, padded to one width in
    terminal columns (Mon = 3 columns; 周一 = 4: a Chinese character takes two)."""
    names = [_(name) for name in WEEKDAYS]
    width = max(map(text_width, names))
    return [pad(name, width) for name in names]


def heat_header(labels: list[str], indent: int) -> str:
    """The month labels over the fixed-width heatmap's columns (two terminal columns a week, after ``indent``
    columns), each starting over its week; a label runs on into the next weeks, which are unlabelled."""
    out, used = " " * indent, indent
    for i, label in enumerate(labels):
        start = indent + 2 * i
        if label and start >= used:
            out += " " * (start - used) + label
            used = start + text_width(label)
    return out.rstrip()


def state_name(state: str) -> str:
    return _(STATE_NAMES[state])


def rating_name(rating: str | None) -> str:
    """A card's last rating in the report's language; an em dash for a card never rated."""
    return "—" if rating is None else _(RATING_NAMES.get(rating, rating))


def heat_level(count: int, max_count: int) -> int:
    """0 for no reviews, else 1..4 in equal quarters of the busiest day."""
    if count <= 0 or max_count <= 0:
        return 0
    return max(1, min(4, math.ceil(4 * count / max_count)))


def level_ranges(max_count: int) -> list[tuple[int, int, int]]:
    """(level, lowest count, highest count) for each level that can occur, for the legend."""
    ranges = [(0, 0, 0)]
    if max_count <= 0:
        return ranges
    for level in range(1, 5):
        lo = math.floor((level - 1) * max_count / 4) + 1
        hi = math.floor(level * max_count / 4)
        if lo <= hi:
            ranges.append((level, lo, hi))
    return ranges


@dataclass(frozen=True)
class HeatCell:
    day: date
    reviews: int
    level: int
    in_range: bool  # False for the padding days after today in the last week


def heat_weeks(calendar: Calendar) -> list[list[HeatCell]]:
    """Columns of seven days (Monday first) from ``calendar.start`` to the end of today's week."""
    counts = {d.day: d.reviews for d in calendar.days}
    weeks: list[list[HeatCell]] = []
    monday = calendar.start
    while monday <= calendar.end:
        week = []
        for offset in range(7):
            day = monday + timedelta(days=offset)
            reviews = counts.get(day, 0)
            week.append(
                HeatCell(day, reviews, heat_level(reviews, calendar.max_reviews), day <= calendar.end)
            )
        weeks.append(week)
        monday += timedelta(days=7)
    return weeks


def month_labels(weeks: list[list[HeatCell]]) -> list[str]:
    """The month's abbreviation over the first week whose Monday falls in it, else ''.

    The first column is labelled only when the next label is at least three weeks away, so labels never collide.
    """
    labels = []
    for i, week in enumerate(weeks):
        month = week[0].day.month
        changed = i == 0 or weeks[i - 1][0].day.month != month
        labels.append(month_name(week[0].day) if changed else "")
    if len(labels) > 1 and labels[0] and any(labels[1:3]):
        labels[0] = ""
    return labels


def bar(value: float, maximum: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at most, in eighth-block steps."""
    if maximum <= 0 or value <= 0:
        return ""
    eighths = round(8 * width * min(value, maximum) / maximum)
    full, rest = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[rest] if rest else "")


def sparkline(values: list[float], maximum: float | None = None) -> str:
    if not values:
        return ""
    top = maximum if maximum is not None else max(values)
    if top <= 0:
        return SPARK_CHARS[0] * len(values)
    return "".join(SPARK_CHARS[min(7, int(round(7 * max(v, 0) / top)))] for v in values)


def pct(rate: float | None, digits: int = 1) -> str:
    return "—" if rate is None else f"{100 * rate:.{digits}f}%"


def num(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=f"{minutes:02d}")
    if minutes:
        return _("{minutes} min {seconds} s").format(minutes=minutes, seconds=f"{secs:02d}")
    return _("{seconds} s").format(seconds=secs)


def short_duration(seconds: float) -> str:
    """Compact: 4h03, 12m, 40s."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    if hours:
        return _("{hours}h{minutes}").format(hours=hours, minutes=f"{rest // 60:02d}")
    if rest >= 60:
        return _("{n}m").format(n=rest // 60)
    return _("{n}s").format(n=rest)


def one_line(text: str, width: int | None = None) -> str:
    """Card text on one line (a table as the row it asks; newlines and runs of spaces collapsed), cut to
    ``width`` with an ellipsis."""
    if width is not None and HIDDEN in text and split_tables(text)[1:]:
        # A narrow column shows what the card asks first: the asked row, not the prompt every table card shares.
        prompt, *rest = split_tables(text)
        if isinstance(prompt, str) and rest:
            text = asked("\n".join(part if isinstance(part, str) else _as_table(part) for part in rest))
    flat = " ".join(asked(text).split())
    if width is not None and len(flat) > width:
        return flat[: max(0, width - 1)] + "…"
    return flat


def column_chart(values: list[int], height: int = 4, width: int = 1) -> list[str]:
    """Rows (top first) of a vertical bar chart, ``height`` cells tall, in eighth-block steps."""
    top = max(values, default=0)
    rows = []
    for row in range(height - 1, -1, -1):
        line = ""
        for value in values:
            eighths = round(8 * height * value / top) if top else 0
            if value > 0:
                eighths = max(eighths, 1)
            filled = eighths - 8 * row
            ch = " " if filled <= 0 else ("█" if filled >= 8 else SPARK_CHARS[filled - 1])
            line += ch * width
        rows.append(line)
    return rows


_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_DELIMITER = re.compile(r"^[\s|:-]+$")
HIDDEN = "［？］"  # a table card's hidden cell (drill.content.kinds.HIDDEN)


def split_tables(text: str) -> list[str | list[list[str]]]:
    """``text`` as runs of prose (str) and Markdown tables (rows of cells, the header first, the ``| --- |``
    delimiter row dropped), in order."""
    parts: list[str | list[list[str]]] = []
    prose: list[str] = []
    rows: list[list[str]] = []
    for line in [*text.split("\n"), ""]:
        if _TABLE_LINE.match(line):
            if prose:
                parts.append("\n".join(prose))
                prose = []
            if not _DELIMITER.match(line):
                rows.append([cell.strip() for cell in line.strip()[1:-1].split("|")])
            continue
        if rows:
            parts.append(rows)
            rows = []
        prose.append(line)
    if prose and "\n".join(prose).strip():
        parts.append("\n".join(prose).rstrip("\n"))
    return parts


def _as_table(rows: list[list[str]]) -> str:
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def asked_rows(rows: list[list[str]]) -> list[list[str]]:
    """A table card's table cut to what it asks: the header and the rows with a hidden cell (every row when
    none is hidden)."""
    asked = [row for row in rows[1:] if HIDDEN in row]
    return [rows[0], *(asked or rows[1:])]


def asked(text: str) -> str:
    """Card text on a report's line: a table becomes the row it asks, cell by cell under its header
    (``原始分数：1；缩放后：［？］``), never a run of raw ``|`` pipes."""
    if "|" not in text:
        return text
    out = []
    for part in split_tables(text):
        if isinstance(part, str):
            out.append(part)
            continue
        head, *body = asked_rows(part)
        out.append(
            " / ".join(
                "；".join(f"{h}：{cell}" if h else cell for h, cell in zip(head, row, strict=False))
                for row in body
            )
        )
    return "\n".join(out)


def display_text(text: str) -> str:
    """Card text for reading: a table as the row it asks (`asked`), $…$ formulas as Unicode
    (drill.content.latex), else the text as written."""
    text = asked(text)
    try:
        from drill.content.latex import render_text
    except ImportError:
        return text
    try:
        return render_text(text)
    except Exception:  # a formula the renderer cannot draw is shown as written
        return text


def empty_cards_note(data: ReportData, lapses: bool = False) -> str:
    """What an empty weakest-cards (or, ``lapses``, most-lapses) list means, in every format.

    The weakest list holds reviewed cards in rotation: when every reviewed card is suspended or retired it is
    empty although cards were reviewed, so "no reviewed cards yet" would be wrong (issue 13).
    """
    by_state = data.totals.by_state
    in_rotation = by_state["learning"] + by_state["review"] + by_state["relearning"]
    out = by_state["suspended"] + by_state["retired"]
    if lapses and (in_rotation or out):
        return _("No card has lapsed yet.")
    if not lapses and out:
        return _("No card in rotation has been reviewed (suspended and retired cards are not listed).")
    return _("No reviewed cards yet.")
