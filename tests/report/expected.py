"""Every report figure recomputed in plain Python from the generated history (no SQL, no drill.report code).

Study days here are computed as "local wall-clock time minus the day-start hours, then its date", in the
fixture's zone; true retention as "per card and day, the earliest review; Again fails".
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from tests.report.report_history import DAY_START, NOW, TZ, History

MATURE = 21.0


def day_of(moment) -> date:
    return (moment.astimezone(TZ) - timedelta(hours=DAY_START)).date()


def day_start_utc(day: date):
    from datetime import UTC, datetime

    return datetime(day.year, day.month, day.day, DAY_START, tzinfo=TZ).astimezone(UTC)


def sections(history: History) -> dict[str, str]:
    return {cid: section for cid, section, _ in history.cards}


def state_of(history: History, user: str, cid: str) -> str:
    if cid == history.retired:
        return "retired"
    st = history.states.get((user, cid))
    if st is None:
        return "new"
    if st.suspended:
        return "suspended"
    return st.state


def in_section(card_section: str, wanted: str | None) -> bool:
    return wanted is None or card_section == wanted or card_section.startswith(wanted + ".")


def scoped_cards(history: History, section: str | None) -> list[str]:
    return [cid for cid, sec, _ in history.cards if in_section(sec, section)]


def reviews_of(history: History, user: str, since: date | None = None, section: str | None = None):
    secs = sections(history)
    out = [r for r in history.reviews if r.user == user and in_section(secs[r.card], section)]
    if since is not None:
        out = [r for r in out if r.reviewed_at >= day_start_utc(since)]
    return out


def true_retention(reviews) -> tuple[int, int, dict[str, tuple[int, int]]]:
    first: dict[tuple[str, str, date], object] = {}
    for r in reviews:
        key = (r.user, r.card, day_of(r.reviewed_at))
        if key not in first or r.reviewed_at < first[key].reviewed_at:
            first[key] = r
    per_section: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in first.values():
        per_section[r.section][0] += 1
        per_section[r.section][1] += r.rating != 1
    total = sum(v[0] for v in per_section.values())
    passed = sum(v[1] for v in per_section.values())
    return total, passed, {s: (v[0], v[1]) for s, v in per_section.items()}


def retrievability(history: History, user: str, cid: str) -> float | None:
    from fsrs import Scheduler

    st = history.states.get((user, cid))
    if st is None or st.last_review is None:
        return None
    return Scheduler().get_card_retrievability(st.fsrs_card, NOW)


def calendar(reviews) -> tuple[date, date, dict[date, int]]:
    today = day_of(NOW)
    monday = today - timedelta(days=today.weekday())
    start = monday - timedelta(weeks=25)
    counts: dict[date, int] = defaultdict(int)
    for r in reviews:
        d = day_of(r.reviewed_at)
        if start <= d <= today:
            counts[d] += 1
    return start, today, counts


def forecast(history: History, user: str, section: str | None = None) -> tuple[int, dict[date, int]]:
    today = day_of(NOW)
    overdue = 0
    counts: dict[date, int] = defaultdict(int)
    for cid in scoped_cards(history, section):
        state = state_of(history, user, cid)
        if state not in ("learning", "review", "relearning"):
            continue
        d = day_of(history.states[(user, cid)].due)
        if d < today:
            overdue += 1
        elif (d - today).days < 30:
            counts[d] += 1
    return overdue, counts


def last_rating(history: History, user: str, cid: str) -> str | None:
    mine = [r for r in history.reviews if r.user == user and r.card == cid]
    if not mine:
        return None
    return {1: "again", 2: "hard", 3: "good", 4: "easy"}[max(mine, key=lambda r: r.reviewed_at).rating]


def mastered(history: History, user: str, cid: str) -> bool:
    st = history.states.get((user, cid))
    return state_of(history, user, cid) == "review" and st is not None and (st.stability or 0) >= MATURE


def streak(days: set[date]) -> int:
    today = day_of(NOW)
    d = today if today in days else today - timedelta(days=1)
    n = 0
    while d in days:
        n += 1
        d -= timedelta(days=1)
    return n
