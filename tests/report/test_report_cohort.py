"""`--cohort`: every user of a shared database, on SQLite (always) and PostgreSQL (when DRILL_TEST_PG_URL is set).

Each question's failure rate across the cohort and the users' ranking equal plain-Python recomputations, and the
personal figures are the same on both databases.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import defaultdict
from datetime import date

import pytest

from drill.report.jsonout import to_json
from tests.report import expected as ex
from tests.report.report_history import compute_report, simulate, write_history

PG_URL = os.environ.get("DRILL_TEST_PG_URL")
USERS = ["alice", "bob", "chen"]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def cohort_db(request, tmp_path_factory):
    history = simulate(USERS, seed=11)
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('cohort') / 'cohort.sqlite3'}"
        write_history(history, url)
        yield history, url
        return
    if not PG_URL:
        pytest.skip("DRILL_TEST_PG_URL is not set (.ci/run starts a PostgreSQL server)")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"drill_report_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        write_history(history, url)
        yield history, url
    finally:
        from sqlalchemy import create_engine as _ce

        _ce(url).dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="module")
def cohort_doc(cohort_db, library):
    from sqlalchemy import create_engine

    history, url = cohort_db
    engine = create_engine(url)
    try:
        return (
            history,
            json.loads(to_json(compute_report(engine, library, user="chen", cohort=True))),
            engine.dialect.name,
        )
    finally:
        engine.dispose()


def test_question_failure_rates_across_the_cohort(cohort_doc):
    history, doc, _ = cohort_doc
    firsts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    users: dict[str, set[str]] = defaultdict(set)
    first_of_day: dict[tuple, object] = {}
    for r in history.reviews:
        key = (r.user, r.card, ex.day_of(r.reviewed_at))
        if key not in first_of_day or r.reviewed_at < first_of_day[key].reviewed_at:
            first_of_day[key] = r
        users[r.card].add(r.user)
    for r in first_of_day.values():
        firsts[r.card][0] += 1
        firsts[r.card][1] += r.rating == 1
    got = {q["card"]: q for q in doc["cohort"]["questions"]}
    assert set(got) == set(firsts)
    for card, (n, fails) in firsts.items():
        assert (got[card]["reviews"], got[card]["failures"], got[card]["users"]) == (
            n,
            fails,
            len(users[card]),
        )
        assert got[card]["failure_rate"] == pytest.approx(fails / n)
    rates = [q["failure_rate"] for q in doc["cohort"]["questions"]]
    assert rates == sorted(rates, reverse=True)


def test_users_ranked_by_progress(cohort_doc):
    history, doc, _ = cohort_doc
    active = [cid for cid, _, _ in history.cards if cid != history.retired]
    rows = {u["user"]: u for u in doc["cohort"]["users"]}
    assert set(rows) == set(USERS)
    for user in USERS:
        mastered = sum(ex.mastered(history, user, cid) for cid in active)
        seen = sum(1 for cid, _, _ in history.cards if ex.state_of(history, user, cid) != "new")
        total, passed, _ = ex.true_retention(ex.reviews_of(history, user))
        row = rows[user]
        assert row["mastered"] == mastered
        assert row["cards_seen"] == seen
        assert row["progress"] == pytest.approx(mastered / len(active))
        assert row["reviews"] == len(ex.reviews_of(history, user))
        assert row["retention"] == pytest.approx(passed / total)
    ranked = doc["cohort"]["users"]
    assert [u["rank"] for u in ranked] == [1, 2, 3]
    keys = [(-u["progress"], -u["cards_seen"], -u["reviews"], u["user"]) for u in ranked]
    assert keys == sorted(keys)


def test_personal_figures_hold_on_every_database(cohort_doc):
    history, doc, _ = cohort_doc
    chen = ex.reviews_of(history, "chen")
    assert doc["user"] == "chen"
    assert doc["totals"]["reviews"] == len(chen)
    total, passed, per_section = ex.true_retention(chen)
    assert (doc["retention"]["overall"]["reviews"], doc["retention"]["overall"]["passed"]) == (total, passed)
    start, end, counts = ex.calendar(chen)
    assert {d["day"]: d["reviews"] for d in doc["calendar"]["days"] if d["reviews"]} == {
        d.isoformat(): n for d, n in counts.items()
    }


@pytest.mark.parametrize(
    "since, section",
    [
        (date(2026, 10, 25), None),
        (None, "7.12"),
        (date(2026, 9, 1), "7.12"),
    ],
    ids=["since", "section", "both"],
)
def test_since_and_section_on_every_database(cohort_db, library, since, section):
    # --since reads the log's first-of-day rows per card, --section the log's days for its cards: the same
    # statements must give the same figures on SQLite and PostgreSQL.
    from sqlalchemy import create_engine

    history, url = cohort_db
    engine = create_engine(url)
    try:
        doc = json.loads(to_json(compute_report(engine, library, user="chen", since=since, section=section)))
    finally:
        engine.dispose()
    reviews = ex.reviews_of(history, "chen", since=since, section=section)
    assert reviews  # (the filters leave something to count)
    assert doc["totals"]["reviews"] == len(reviews)
    assert doc["totals"]["days_studied"] == len({ex.day_of(r.reviewed_at) for r in reviews})
    total, passed, per_section = ex.true_retention(reviews)
    assert (doc["retention"]["overall"]["reviews"], doc["retention"]["overall"]["passed"]) == (total, passed)
    assert {
        s["section"]: (s["retention"]["reviews"], s["retention"]["passed"])
        for s in doc["retention"]["by_section"]
    } == per_section
