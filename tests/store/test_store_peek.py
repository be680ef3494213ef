"""The read-only first-card peek (drill.store.peek) answers exactly what Store.next_card answers, or None.

Real SQLite files: the default database in the isolated data directory, or one that DRILL_DB_URL or a
``--db`` URL names.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from drill.store import peek

CARDS = [("pack-a", f"c{i:02d}", f"7.{i % 3 + 1}") for i in range(12)]
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECTIONS = (None, "7.2")


def open_default(user="alice", cards=CARDS, url=None, **config):
    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store

    store = open_store(url, user)
    store.config = replace(DEFAULT_CONFIG, enable_fuzzing=False, **config)
    store.sync_content(cards)
    for section in SECTIONS:
        assert peek.save_plan(store, section) is not None
    return store


def packs_of(cards):
    return sorted({pack for pack, _, _ in cards})


def assert_same(store, now, cards=CARDS, db_url=None):
    for section in SECTIONS:
        expected = store.next_card(now, section)
        got = peek.peek_next_card(
            now, packs=packs_of(cards), section=section, user=store.user, config=store.config, db_url=db_url
        )
        if expected is None:
            # None from the peek means "don't know"; here it must know that nothing is left.
            assert got is None
        else:
            assert got == expected, (section, now)


def db_digest() -> tuple[str, int]:
    """The database file's bytes, and the length of its write-ahead log (0 when there is none)."""
    from drill.paths import default_db_path

    path = default_db_path()
    wal = path.with_name(path.name + "-wal")
    return hashlib.sha256(path.read_bytes()).hexdigest(), wal.stat().st_size if wal.exists() else 0


def test_states_new_due_limits_suspended_buried_retired_other_user():
    store = open_default(new_per_day=3, reviews_per_day=2)
    try:
        now = T0
        assert_same(store, now)  # all new
        assert store.next_card(now).kind.value == "new"
        for rating in (3, 1, 4):  # three new cards introduced: the new limit is reached
            card = store.next_card(now)
            store.grade(card.card_id, rating, now)
            assert_same(store, now)
        now += timedelta(minutes=11)  # the Again card is due again (learning)
        assert_same(store, now)
        assert store.next_card(now) is not None
        store.suspend(store.next_card(now).card_id)
        assert_same(store, now)
        first = store.next_card(now)
        if first is not None:
            store.bury(first.card_id, now)
        assert_same(store, now)
        # Next days: reviews due, the review limit applies
        for days in (1, 3, 10, 40):
            later = now + timedelta(days=days)
            assert_same(store, later)
            for _ in range(3):
                card = store.next_card(later)
                if card is None:
                    break
                store.grade(card.card_id, random.Random(days).choice((1, 2, 3, 4)), later)
                assert_same(store, later)
        # Retired cards: the content drops half its cards
        kept = CARDS[::2]
        store.sync_content(kept)
        for section in SECTIONS:
            peek.save_plan(store, section)
        assert_same(store, now + timedelta(days=41), kept)
        # Another user on the same database: its grades don't move alice's answer, its own peek is right too
        bob = open_default("bob")
        try:
            card = bob.next_card(now)
            bob.grade(card.card_id, 3, now)
            assert_same(bob, now)
        finally:
            bob.close()
        # bob's plan replaced alice's: the peek for alice now says "don't know", never bob's card
        assert peek.peek_next_card(now, packs=packs_of(kept), user="alice", config=store.config) is None
    finally:
        store.close()


@pytest.fixture(params=["default", "DRILL_DB_URL", "--db"])
def where(request, monkeypatch, tmp_path):
    """How the study command names the database: (URL given to open_store and the peek, or None)."""
    if request.param == "default":
        return None
    url = f"sqlite:///{tmp_path / 'elsewhere' / 'my progress.sqlite3'}"
    (tmp_path / "elsewhere").mkdir()
    if request.param == "DRILL_DB_URL":
        monkeypatch.setenv("DRILL_DB_URL", url)
        return None
    return url


@pytest.mark.parametrize("seed", range(4))
def test_random_walk_matches_the_store(seed, where):
    rng = random.Random(seed)
    store = open_default(
        new_per_day=rng.choice((0, 2, 5, 20)), reviews_per_day=rng.choice((0, 1, 3, 200)), url=where
    )
    try:
        now = T0
        more = 0
        for _ in range(40):
            op = rng.random()
            card = store.next_card(now, rng.choice(SECTIONS))
            if op < 0.6 and card is not None:
                store.grade(card.card_id, rng.randint(1, 4), now)
            elif op < 0.67 and card is not None:
                store.suspend(card.card_id)
            elif op < 0.74 and card is not None:
                store.bury(card.card_id, now)
            elif op < 0.78:
                store.unsuspend(rng.choice(CARDS)[1])
            elif op < 0.84:  # "study more today": the peek reads the day's extras as the queue does
                store.study_more(now, new=rng.choice((1, 2, 4)), reviews=rng.choice((0, 1, 3)))
                more += 1
            else:
                now += timedelta(minutes=rng.choice((1, 10, 60 * 5, 60 * 24, 60 * 24 * 7)))
            assert_same(store, now, db_url=where)
        assert more  # the walk added to some day's limits
        # the peek answered (not only "don't know"): it read this database's plan
        assert peek.peek_next_card(
            now, packs=packs_of(CARDS), user="alice", db_url=where, config=store.config
        ) == (store.next_card(now))
        assert peek.plan_path(peek.database_file(where)).is_file()
    finally:
        store.close()


def tamper(path, edit):
    plan = json.loads(path.read_text(encoding="utf-8"))
    edit(plan)
    path.write_text(json.dumps(plan), encoding="utf-8")


def test_a_tampered_plan_runs_no_sql_of_its_own(tmp_path):
    from drill.paths import default_db_path

    store = open_default()
    try:
        card = store.next_card(T0)
        store.grade(card.card_id, 1, T0)
        now = T0 + timedelta(minutes=30)
        expected = store.next_card(now)
    finally:
        store.close()
    path = peek.plan_path(default_db_path())
    kwargs = {"packs": packs_of(CARDS), "user": "alice"}
    assert peek.peek_next_card(now, **kwargs) == expected
    original = path.read_text(encoding="utf-8")
    assert "SELECT" not in original.upper()  # the plan holds digests, not SQL

    # A plan in the old format (SQL and guards in the file) that would write: refused, nothing runs.
    evil = "CREATE TABLE pwned (x)"
    old_format = {
        "header": {
            "format": 1,
            "drill": __import__("drill").__version__,
            "user": "alice",
            "packs": packs_of(CARDS),
            "guards": [{"sql": evil, "params": [], "rows": []}],
        },
        "sections": {
            "*": {
                name: {"sql": evil, "params": [], "slots": [], "datetimes": []}
                for name in ("done", "due", "due_no_reviews", "new")
            }
        },
    }
    path.write_text(json.dumps(old_format), encoding="utf-8")
    assert peek.peek_next_card(now, **kwargs) is None
    # The current format with SQL added beside the digests, and the digests replaced by the digest of that
    # SQL: the peek runs only its own statements, so they no longer match and it does not know.
    path.write_text(original, encoding="utf-8")

    def inject(plan):
        for name in plan["sections"]["*"]:
            plan["sections"]["*"][name] = peek.digest(evil, [])
        plan["header"]["guards"] = [{"sql": evil, "params": [], "rows": []}]
        plan["sql"] = evil

    tamper(path, inject)
    assert peek.peek_next_card(now, **kwargs) is None
    # One digest changed: refused too.
    path.write_text(original, encoding="utf-8")
    tamper(path, lambda plan: plan["sections"]["*"].update(new="0" * 64))
    assert peek.peek_next_card(now, **kwargs) is None
    # Extra keys beside untouched digests change nothing: the peek still equals the store.
    path.write_text(original, encoding="utf-8")
    tamper(path, lambda plan: plan.update(sql=evil))
    assert peek.peek_next_card(now, **kwargs) == expected
    conn = sqlite3.connect(default_db_path())
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert "pwned" not in tables


def test_the_peeks_statements_are_the_queues(tmp_path):
    """For several pack lists and sections, the statements the peek runs are exactly (text and parameters)
    what drill's queue compiles for SQLite: the digests in a fresh plan match."""
    from drill.store import open_store
    from drill.store.queue import next_card_statements

    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "alice")
    try:
        for packs in (["a"], ["a", "b-c", "d"]):
            store.sync_content((pack, f"{pack}-{i}", "7.1") for pack in packs for i in range(2))
            for section in (None, "7.1", 'it\'s; -- "x"'):
                compiled = {
                    name: peek.compile_statement(stmt, store.engine.dialect)
                    for name, stmt in next_card_statements(store, section).items()
                }
                mine = peek.statements(store.user_id, packs, section)
                assert mine.keys() == compiled.keys()
                for name, (sql, params) in mine.items():
                    assert " ".join(sql.split()) == " ".join(compiled[name][0].split()), name
                    assert params == compiled[name][1], name
    finally:
        store.close()


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///relative/drill.sqlite3",
        "sqlite:////abs/drill.sqlite3",
        "sqlite+pysqlite:////abs/drill.sqlite3",
        "sqlite:////tmp/a%3Fb%23c%25d/x.db",
        "sqlite:///a%20b/c.db",
        "sqlite:///file:/p/a%2520b.db?mode=ro&uri=true",
        "sqlite:///file:/p/x.db?mode=memory&uri=true",
        "sqlite://",
        "sqlite:///:memory:",
        "postgresql+psycopg://user@host/db",
    ],
)
def test_sqlite_urls_are_read_as_the_store_reads_them(url):
    from drill.store import engine

    assert peek.sqlite_path(url) == engine.sqlite_file(url)


def test_peek_never_writes():
    store = open_default()
    card = store.next_card(T0)
    store.grade(card.card_id, 3, T0)
    store.close()  # checkpoints the WAL
    before = db_digest()
    assert before[1] == 0
    # (a reader of a WAL database may create the empty -wal/-shm companions; it adds nothing to them)
    assert peek.peek_next_card(T0 + timedelta(days=2), packs=packs_of(CARDS), user="alice") is not None
    assert db_digest() == before
    # and it leaves the database as the store set it up (WAL) for the next writer
    from drill.paths import default_db_path

    conn = sqlite3.connect(default_db_path())
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_none_when_it_cannot_know(monkeypatch, tmp_path):
    kwargs = {"packs": packs_of(CARDS), "user": "alice"}
    assert peek.peek_next_card(T0, **kwargs) is None  # no database yet
    store = open_default()
    store.close()
    assert peek.peek_next_card(T0, **kwargs) is not None
    assert peek.peek_next_card(T0, **dict(kwargs, packs=["pack-a", "pack-b"])) is None  # other content
    assert peek.peek_next_card(T0, section="9.9", **kwargs) is None  # no plan for that section
    assert peek.peek_next_card(T0, packs=packs_of(CARDS), user="carol") is None  # another user
    # another database than the one the plan was made for (a copy of the file and its plan), another
    # SQLite file with no plan, a URL that is no SQLite file (given or in the environment)
    from drill.paths import default_db_path

    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(default_db_path().read_bytes())
    peek.plan_path(copy).write_bytes(peek.plan_path(default_db_path()).read_bytes())
    assert peek.peek_next_card(T0, db_url=f"sqlite:///{copy}", **kwargs) is None
    assert peek.peek_next_card(T0, db_url=f"sqlite:///{tmp_path / 'x.db'}", **kwargs) is None
    monkeypatch.setenv("DRILL_DB_URL", "postgresql+psycopg://nobody@localhost/none")
    assert peek.peek_next_card(T0, **kwargs) is None
    monkeypatch.delenv("DRILL_DB_URL")
    # an old (or newer) schema than the one the plan was made for
    conn = sqlite3.connect(default_db_path())
    revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    conn.execute("UPDATE alembic_version SET version_num = 'older'")
    conn.commit()
    assert peek.peek_next_card(T0, **kwargs) is None
    conn.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    conn.commit()
    conn.close()
    assert peek.peek_next_card(T0, **kwargs) is not None
    # another drill version wrote the plan; a damaged plan
    with monkeypatch.context() as patch:  # only the version: the autouse fixture's data directory stays
        patch.setattr("drill.__version__", "0.0.0-other")
        assert peek.peek_next_card(T0, **kwargs) is None
    peek.plan_path(default_db_path()).write_text("{not json")
    assert peek.peek_next_card(T0, **kwargs) is None
    # the database file is gone (the plan stays)
    store = open_default()
    store.close()
    default_db_path().unlink()
    assert peek.peek_next_card(T0, **kwargs) is None


def test_read_only_store_saves_no_plan(tmp_path):
    from drill.paths import default_db_path
    from drill.store import open_store

    open_default().close()
    plan = peek.plan_path(default_db_path())
    plan.unlink()
    url = "sqlite:///file:" + str(default_db_path()) + "?mode=ro&uri=true"
    store = open_store(url, "alice")
    try:
        store.sync_content(CARDS)
        assert store.readonly
        assert peek.save_plan(store, None) is None
        assert not plan.exists()
    finally:
        store.close()


def test_timestamps_are_written_as_sqlalchemy_writes_them():
    from sqlalchemy.dialects import sqlite

    from drill.store.models import UTCDateTime
    from drill.store.times import sqlite_timestamp, sqlite_utc

    dialect = sqlite.dialect()
    processor = UTCDateTime().dialect_impl(dialect).bind_processor(dialect)
    for moment in (
        T0,
        datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2026, 6, 1, 12, 0, tzinfo=UTC).astimezone(__import__("zoneinfo").ZoneInfo("Asia/Shanghai")),
    ):
        assert sqlite_timestamp(moment) == processor(moment)
        assert sqlite_utc(sqlite_timestamp(moment)) == moment


def test_the_peek_imports_no_sqlalchemy():
    open_default().close()
    code = (
        "import sys; from datetime import datetime, UTC; from drill.store import peek; "
        "card = peek.peek_next_card(datetime.now(UTC), packs=['pack-a'], user='alice'); "
        "print(card.card_id, ','.join(m for m in ('sqlalchemy', 'textual', 'rich', 'numpy', 'yaml') "
        "if m in sys.modules) or '-')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["c00", "-"]


@pytest.mark.parametrize("new_per_day", [20, 1, 0])
def test_a_database_not_created_yet_is_peeked_from_the_content(tmp_path, new_per_day):
    """A first-ever start: no database file. Given the content, the peek answers what the store will choose
    once it has created the database and synced that content (the first new card, within the new limit)."""
    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store

    config = replace(DEFAULT_CONFIG, new_per_day=new_per_day)
    # Two packs, listed out of name order, so the pack order and the position within a pack both count.
    cards = [("pack-b", f"b{i}", f"7.{i % 2 + 1}") for i in range(3)] + CARDS
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    peeked = {
        section: peek.peek_next_card(
            T0, packs=packs_of(cards), section=section, user="alice", config=config, db_url=url, content=cards
        )
        for section in SECTIONS
    }
    assert peek.peek_next_card(T0, packs=packs_of(cards), user="alice", config=config, db_url=url) is None
    assert not (tmp_path / "new.sqlite3").exists()  # the peek created nothing
    store = open_store(url, "alice")
    try:
        store.config = config
        store.sync_content(cards)
        for section in SECTIONS:
            assert peeked[section] == store.next_card(T0, section), section
    finally:
        store.close()
    assert peeked[None] is None or peeked[None].card_id == "c00"
