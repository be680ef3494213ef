"""The report over rows written by the real Store (grade, sessions, quiz attempts), not only the generator's."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from drill.report.figures import compute
from drill.report.jsonout import to_json

TZ = ZoneInfo("America/New_York")


def test_a_report_of_grades_given_through_the_store(tmp_path):
    from drill.content import load_content
    from drill.store import open_store
    from drill.store.types import QuizAnswerRecord

    library = load_content()
    ids = list(library.cards)[:6]
    start = datetime(2026, 3, 5, 13, 0, tzinfo=UTC)  # the week New York moves its clocks (Mar 8)
    given = []
    with open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "dana") as store:
        store.sync_content(library)
        store.tz = TZ
        for day in range(8):
            session = store.start_session(start + timedelta(days=day))
            for i, cid in enumerate(ids):
                moment = start + timedelta(days=day, minutes=i)
                rating = 1 if (day + i) % 4 == 0 else 3
                store.grade(cid, rating, moment, 5000, session_id=session)
                given.append((cid, moment, rating))
                if rating == 1:  # a relearning step the same day: not a first-of-day review
                    store.grade(cid, 3, moment + timedelta(minutes=20), 3000, session_id=session)
                    given.append((cid, moment + timedelta(minutes=20), 3))
            store.end_session(session, start + timedelta(days=day, minutes=40))
        store.record_quiz_attempt(
            start,
            start + timedelta(minutes=3),
            {"quiz": "chapter"},
            [
                QuizAnswerRecord("quiz-a", "chapter", "A", True, False, 1000, start),
                QuizAnswerRecord("quiz-b", "chapter", "B", False, False, 1000, start),
            ],
        )
        now = start + timedelta(days=9)
        doc = json.loads(to_json(compute(store, library=library, now=now, day_start_hour=4, tz=TZ)))

    def day(moment):
        return (moment.astimezone(TZ) - timedelta(hours=4)).date()

    firsts = {}
    for cid, moment, rating in given:
        firsts.setdefault((cid, day(moment)), rating)
    assert doc["user"] == "dana"
    assert doc["timezone"] == "America/New_York"
    assert doc["totals"]["reviews"] == len(given)
    relearning_steps = sum(1 for _, moment, _ in given if moment.minute >= 20)
    assert doc["totals"]["review_seconds"] == 5 * (len(given) - relearning_steps) + 3 * relearning_steps
    assert doc["retention"]["overall"]["reviews"] == len(firsts)
    assert doc["retention"]["overall"]["passed"] == sum(1 for r in firsts.values() if r != 1)
    assert doc["totals"]["days_studied"] == 8
    assert doc["totals"]["session_seconds"] == 8 * 40 * 60
    counts = {}
    for _, moment, _ in given:
        counts[day(moment).isoformat()] = counts.get(day(moment).isoformat(), 0) + 1
    assert {d["day"]: d["reviews"] for d in doc["calendar"]["days"] if d["reviews"]} == counts
    assert doc["quizzes"][0]["correct"] == 1 and doc["quizzes"][0]["total"] == 2
    rows = {c["id"]: c for c in doc["cards"]}
    for cid in ids:
        last = [r for c, _, r in given if c == cid][-1]
        assert rows[cid]["last_rating"] == {1: "again", 3: "good"}[last]
        assert rows[cid]["reviews"] == sum(1 for c, _, _ in given if c == cid)
        assert rows[cid]["retrievability"] is not None
    untouched = [c for c in doc["cards"] if c["id"] not in ids]
    assert untouched and all(c["state"] == "new" and c["retrievability"] is None for c in untouched)
