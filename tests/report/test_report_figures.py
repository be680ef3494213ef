"""Every figure of the JSON report equals the value recomputed in plain Python from the generated history."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from drill.errors import InputError
from drill.report.jsonout import to_json
from tests.report import expected as ex
from tests.report.report_history import NOW, compute_report


@pytest.fixture
def doc(engine, library):
    return json.loads(to_json(compute_report(engine, library, user="alice")))


def test_the_history_is_rich_enough_to_test_anything(history):
    alice = ex.reviews_of(history, "alice")
    assert len(alice) > 150
    assert {r.rating for r in alice} == {1, 2, 3, 4}
    # Reviews within minutes of the 04:00 day start exist, and same-day repeats (learning steps) too.
    assert any(
        abs((r.reviewed_at.astimezone(ex.TZ).hour * 60 + r.reviewed_at.astimezone(ex.TZ).minute) - 240) <= 2
        for r in alice
    )
    per_day = {(r.card, ex.day_of(r.reviewed_at)) for r in alice}
    assert len(per_day) < len(alice)


def test_totals(doc, history):
    alice = ex.reviews_of(history, "alice")
    totals = doc["totals"]
    states = [ex.state_of(history, "alice", cid) for cid, _, _ in history.cards]
    assert totals["cards"] == len(history.cards)
    assert totals["by_state"] == {
        s: states.count(s) for s in ("new", "learning", "review", "relearning", "suspended", "retired")
    }
    assert totals["by_state"]["suspended"] == 1 and totals["by_state"]["retired"] == 1
    assert totals["reviews"] == len(alice)
    assert totals["review_seconds"] == pytest.approx(sum(r.duration_ms for r in alice) / 1000)
    sessions = sum((s.ended_at - s.started_at).total_seconds() for s in history.sessions if s.user == "alice")
    assert totals["session_seconds"] == pytest.approx(sessions)
    assert totals["study_seconds"] == pytest.approx(max(sessions, totals["review_seconds"]))
    days = {ex.day_of(r.reviewed_at) for r in alice}
    assert totals["days_studied"] == len(days)
    assert totals["current_streak"] == ex.streak(days)


def test_calendar(doc, history):
    start, end, counts = ex.calendar(ex.reviews_of(history, "alice"))
    cal = doc["calendar"]
    assert cal["start"] == start.isoformat() and cal["end"] == end.isoformat()
    assert date.fromisoformat(cal["start"]).weekday() == 0
    got = {date.fromisoformat(d["day"]): d["reviews"] for d in cal["days"]}
    assert list(got) == [start + timedelta(days=i) for i in range((end - start).days + 1)]
    assert got == {d: counts.get(d, 0) for d in got}
    assert cal["max_reviews"] == max(counts.values())
    assert sum(got.values()) > 50


def test_true_retention_overall_and_per_section(doc, history):
    total, passed, per_section = ex.true_retention(ex.reviews_of(history, "alice"))
    overall = doc["retention"]["overall"]
    assert (overall["reviews"], overall["passed"]) == (total, passed)
    assert overall["rate"] == pytest.approx(passed / total)
    got = {
        item["section"]: (item["retention"]["reviews"], item["retention"]["passed"])
        for item in doc["retention"]["by_section"]
    }
    assert got == per_section
    assert [item["section"] for item in doc["retention"]["by_section"]][:4] == ["7.2", "7.3", "7.9", "7.10"]


def test_forecast(doc, history):
    overdue, counts = ex.forecast(history, "alice")
    fc = doc["forecast"]
    assert fc["overdue"] == overdue
    today = ex.day_of(NOW)
    assert [d["day"] for d in fc["days"]] == [(today + timedelta(days=i)).isoformat() for i in range(30)]
    assert {date.fromisoformat(d["day"]): d["due"] for d in fc["days"] if d["due"]} == dict(counts)


def test_weakest_cards_and_most_lapses(doc, history):
    active = [
        cid
        for cid, _, _ in history.cards
        if ex.state_of(history, "alice", cid) in ("learning", "review", "relearning")
    ]
    expected = sorted(
        (ex.retrievability(history, "alice", cid), -history.states[("alice", cid)].lapses, cid)
        for cid in active
    )[:10]
    got = doc["weakest"]
    assert [c["id"] for c in got] == [cid for _, _, cid in expected]
    assert [c["retrievability"] for c in got] == pytest.approx([r for r, _, _ in expected], rel=1e-12)
    lapsed = [
        (history.states[("alice", cid)].lapses, cid)
        for cid, _, _ in history.cards
        if ("alice", cid) in history.states and history.states[("alice", cid)].lapses > 0
    ]
    top = sorted(lapsed, key=lambda item: (-item[0],))[:10]
    assert [c["lapses"] for c in doc["most_lapses"]] == [n for n, _ in top]
    assert {c["id"] for c in doc["most_lapses"]} <= {cid for _, cid in lapsed}


def test_every_card_row(doc, history):
    rows = {c["id"]: c for c in doc["cards"]}
    assert list(rows) == [cid for cid, _, _ in history.cards]
    for cid, section, question in history.cards:
        row = rows[cid]
        st = history.states.get(("alice", cid))
        assert row["section"] == section
        assert row["state"] == ex.state_of(history, "alice", cid)
        assert row["reviews"] == len([r for r in history.reviews if r.user == "alice" and r.card == cid])
        assert row["lapses"] == (st.lapses if st else 0)
        assert row["last_rating"] == ex.last_rating(history, "alice", cid)
        r = ex.retrievability(history, "alice", cid)
        assert row["retrievability"] == (pytest.approx(r, rel=1e-12) if r is not None else None)
        if cid != history.retired:
            assert row["question"] == question
        if st is not None and st.last_review is not None:
            assert row["stability"] == pytest.approx(st.stability)
            assert row["due"] == st.due.isoformat()


def test_quiz_scores_over_time(doc, history):
    quizzes = sorted((q for q in history.quizzes if q.user == "alice"), key=lambda q: q.started_at)
    assert [(q["started_at"], q["quiz"], q["correct"], q["total"]) for q in doc["quizzes"]] == [
        (q.started_at.isoformat(timespec="microseconds"), q.quiz, q.score, q.total) for q in quizzes
    ]
    assert [q["percent"] for q in doc["quizzes"]] == pytest.approx([q.score / q.total for q in quizzes])


def test_mastery_per_section(doc, history):
    _, _, per_section = ex.true_retention(ex.reviews_of(history, "alice"))
    by_section: dict[str, list[str]] = {}
    for cid, section, _ in history.cards:
        by_section.setdefault(section, []).append(cid)
    got = {m["section"]: m for m in doc["mastery"]}
    assert set(got) == set(by_section)
    for section, cids in by_section.items():
        m = got[section]
        states = [ex.state_of(history, "alice", cid) for cid in cids]
        active = [cid for cid, s in zip(cids, states, strict=True) if s not in ("suspended", "retired")]
        n_mastered = sum(ex.mastered(history, "alice", cid) for cid in active)
        assert m["cards"] == len(cids)
        assert m["new"] == states.count("new")
        assert m["learning"] == states.count("learning") + states.count("relearning")
        assert m["review"] == states.count("review")
        assert m["mastered"] == n_mastered
        assert m["suspended"] == states.count("suspended") + states.count("retired")
        assert m["mastery"] == pytest.approx(n_mastered / len(active) if active else 0.0)
        rs = [ex.retrievability(history, "alice", cid) for cid in active]
        rs = [r for r in rs if r is not None]
        assert m["mean_retrievability"] == (pytest.approx(sum(rs) / len(rs)) if rs else None)
        firsts, passes = per_section.get(section, (0, 0))
        assert m["retention"] == (pytest.approx(passes / firsts) if firsts else None)


def test_since_filter_counts_only_later_reviews(engine, library, history):
    since = date(2026, 10, 25)  # the day the clocks went back in Berlin
    doc = json.loads(to_json(compute_report(engine, library, user="alice", since=since)))
    later = ex.reviews_of(history, "alice", since=since)
    assert doc["filters"]["since"] == "2026-10-25"
    assert doc["totals"]["reviews"] == len(later)
    total, passed, _ = ex.true_retention(later)
    assert (doc["retention"]["overall"]["reviews"], doc["retention"]["overall"]["passed"]) == (total, passed)
    assert [q["started_at"] for q in doc["quizzes"]] == sorted(
        q.started_at.isoformat()
        for q in history.quizzes
        if q.user == "alice" and q.started_at >= ex.day_start_utc(since)
    )


def test_section_filter_restricts_every_figure(engine, library, history):
    doc = json.loads(to_json(compute_report(engine, library, user="alice", section="7.12")))
    cids = ex.scoped_cards(history, "7.12")
    assert [c["id"] for c in doc["cards"]] == cids
    reviews = ex.reviews_of(history, "alice", section="7.12")
    assert doc["totals"]["reviews"] == len(reviews)
    assert doc["totals"]["session_seconds"] is None
    total, passed, _ = ex.true_retention(reviews)
    assert doc["retention"]["overall"]["reviews"] == total and doc["retention"]["overall"]["passed"] == passed
    assert [m["section"] for m in doc["mastery"]] == ["7.12"]
    overdue, counts = ex.forecast(history, "alice", "7.12")
    assert doc["forecast"]["overdue"] == overdue and sum(d["due"] for d in doc["forecast"]["days"]) == sum(
        counts.values()
    )


def test_bob_sees_his_own_history(engine, library, history):
    doc = json.loads(to_json(compute_report(engine, library, user="bob")))
    assert doc["user"] == "bob"
    assert doc["totals"]["reviews"] == len(ex.reviews_of(history, "bob"))
    assert doc["totals"]["by_state"]["suspended"] == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"user": "mallory"}, "--user 'mallory': no such user"),
        ({"section": "9.99"}, "--section '9.99': no cards in that section"),
    ],
)
def test_bad_filters_are_clear_errors(engine, library, kwargs, message):
    with pytest.raises(InputError, match=message):
        compute_report(engine, library, **kwargs)


def test_bad_since_date():
    from drill.report.figures import parse_since

    with pytest.raises(InputError, match="--since '2026-13-01' is not a date"):
        parse_since("2026-13-01")
    assert parse_since("2026-02-03") == date(2026, 2, 3)


def test_retrievability_follows_the_schedulers_parameters(engine, library, history):
    from fsrs import Scheduler
    from fsrs.scheduler import DEFAULT_PARAMETERS

    custom = list(DEFAULT_PARAMETERS)
    custom[20] = 0.35  # a steeper forgetting curve than the default decay
    scheduler = Scheduler(parameters=custom, enable_fuzzing=False)
    steep = {
        card.id: card.retrievability for card in compute_report(engine, library, parameters=custom).cards
    }
    default = {card.id: card.retrievability for card in compute_report(engine, library).cards}
    checked = 0
    for cid, _, _ in history.cards:
        st = history.states.get(("alice", cid))
        if st is None or st.last_review is None:
            assert steep[cid] is None
            continue
        assert steep[cid] == pytest.approx(scheduler.get_card_retrievability(st.fsrs_card, NOW), rel=1e-12)
        checked += steep[cid] != pytest.approx(default[cid], rel=1e-9)
    assert checked  # (the custom decay changed some card's figure)


def test_a_connection_gives_the_same_report_as_an_engine(engine, library):
    # An Engine lends the report a connection; a caller's Connection is used as it is (and left open).
    with engine.connect() as conn:
        inline = to_json(compute_report(conn, library, user="alice", cohort=True))
    assert inline == to_json(compute_report(engine, library, user="alice", cohort=True))


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"since": date(2026, 1, 1)},
        {"section": "7.12"},
        {"cohort": True},
        {"user": "bob"},
        {"section": "7.12", "since": date(2026, 6, 1), "cohort": True},
    ],
    ids=["whole", "since", "section", "cohort", "bob", "all-filters"],
)
def test_without_the_card_list_every_other_figure_is_the_same(engine, library, kwargs):
    # The terminal, Markdown and HTML reports skip the per-card list; nothing they show may change with it.
    import dataclasses

    full = compute_report(engine, library, **kwargs)
    lean = compute_report(engine, library, cards=False, **kwargs)
    assert lean.cards is None and len(full.cards) == full.totals.cards
    assert lean == dataclasses.replace(full, cards=None, generated_at=lean.generated_at)
    assert full.weakest and full.most_lapses  # (the comparison covers the listed cards, last grades included)


def test_exports_refuse_a_report_without_its_card_list(engine, library):
    from drill.report.csvout import to_csv

    lean = compute_report(engine, library, cards=False)
    for export in (to_json, to_csv):
        with pytest.raises(ValueError, match="per-card list"):
            export(lean)
