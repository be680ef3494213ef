"""The read-only first-card peek on PostgreSQL: psycopg alone (no SQLAlchemy), the plan in the cache directory,
and the same answer as Store.next_card, or None."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from datetime import timedelta

import pytest

from drill.store import locate, peek
from tests.store.test_store_peek import CARDS, SECTIONS, T0, packs_of


def test_the_peeks_statements_are_what_the_queue_compiles_for_psycopg(tmp_path):
    """No server needed: the queue's statements compiled with SQLAlchemy's psycopg dialect are, text and
    parameters, the peek's PostgreSQL spelling."""
    from sqlalchemy.dialects.postgresql import psycopg as pg_dialect

    from drill.store import open_store
    from drill.store.queue import next_card_statements

    dialect = pg_dialect.dialect()
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "alice")
    try:
        for packs in (["a"], ["a", "b-c", "d"]):
            store.sync_content((pack, f"{pack}-{i}", "7.1") for pack in packs for i in range(2))
            for section in (None, "7.1", 'it\'s; -- "x" %(now)s'):
                compiled = {
                    name: peek.compile_statement(stmt, dialect)
                    for name, stmt in next_card_statements(store, section).items()
                }
                mine = peek.statements(store.user_id, packs, section, "postgresql")
                assert mine.keys() == compiled.keys()
                for name, (sql, params) in mine.items():
                    assert " ".join(sql.split()) == " ".join(compiled[name][0].split()), name
                    assert params == compiled[name][1], name
                    assert peek.digest(sql, params) == peek.digest(*compiled[name])
    finally:
        store.close()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql+psycopg://u:secret@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
        (
            "postgresql+psycopg://u:p%40ss@h/db?options=-csearch_path%3Ds",
            "postgresql+psycopg://u@h/db?options=-csearch_path%3Ds",
        ),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg:///db?host=/run/postgresql", "postgresql+psycopg:///db?host=/run/postgresql"),
    ],
)
def test_a_server_plan_lives_in_the_cache_and_never_records_the_password(url, shown):
    from drill.paths import cache_dir

    path, identity = locate.plan_target(url)
    assert identity == shown
    assert path.parent == cache_dir() and "secret" not in str(path)
    assert locate.plan_target(url.replace("secret", "other"))[0] == path  # the same server and database
    assert locate.plan_target("postgresql://u@h/db") is None  # psycopg2's URL: the peek does not read it


def open_pg(url, user="alice", cards=CARDS, **config):
    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store

    store = open_store(url, user)
    store.config = replace(DEFAULT_CONFIG, enable_fuzzing=False, **config)
    store.sync_content(cards)
    for section in SECTIONS:
        assert peek.save_plan(store, section) is not None
    return store


def assert_same(store, url, now):
    for section in SECTIONS:
        expected = store.next_card(now, section)
        got = peek.peek_next_card(
            now, packs=packs_of(CARDS), section=section, user=store.user, config=store.config, db_url=url
        )
        assert got == expected if expected is not None else got is None, (section, now)


@pytest.mark.postgres
@pytest.mark.parametrize("seed", range(2))
def test_random_walk_matches_the_store_on_postgres(pg_url, seed):
    rng = random.Random(seed)
    store = open_pg(pg_url, new_per_day=rng.choice((2, 5, 20)), reviews_per_day=rng.choice((1, 3, 200)))
    try:
        now = T0
        for _ in range(30):
            op = rng.random()
            card = store.next_card(now, rng.choice(SECTIONS))
            if op < 0.6 and card is not None:
                store.grade(card.card_id, rng.randint(1, 4), now)
            elif op < 0.7 and card is not None:
                store.bury(card.card_id, now)
            elif op < 0.75 and card is not None:
                store.suspend(card.card_id)
            else:
                now += timedelta(minutes=rng.choice((1, 10, 60 * 5, 60 * 24, 60 * 24 * 7)))
            assert_same(store, pg_url, now)
        # it answered (not only "don't know"): it read this server's plan
        expected = store.next_card(now)
        assert expected is not None
        got = peek.peek_next_card(
            now, packs=packs_of(CARDS), user="alice", db_url=pg_url, config=store.config
        )
        assert got == expected
        assert got.due is None or got.due.tzinfo is not None
    finally:
        store.close()


@pytest.mark.postgres
def test_none_when_it_cannot_know_on_postgres(pg_url, monkeypatch):
    store = open_pg(pg_url)
    try:
        card = store.next_card(T0)
        store.grade(card.card_id, 1, T0)
        now = T0 + timedelta(minutes=30)
        expected = store.next_card(now)
    finally:
        store.close()
    kwargs = {"packs": packs_of(CARDS), "user": "alice", "db_url": pg_url}
    assert peek.peek_next_card(now, **kwargs) == expected
    monkeypatch.setenv("DRILL_DB_URL", pg_url)  # named by the environment: the same
    assert peek.peek_next_card(now, packs=packs_of(CARDS), user="alice") == expected
    monkeypatch.delenv("DRILL_DB_URL")
    assert peek.peek_next_card(now, **dict(kwargs, user="carol")) is None  # another user
    assert peek.peek_next_card(now, **dict(kwargs, packs=["pack-a", "x"])) is None  # other content
    assert peek.peek_next_card(now, section="9.9", **kwargs) is None  # no plan for that section
    # another database on the same server (no plan), a server that is not there
    other = pg_url.replace("search_path%3D", "search_path%3Dnone_")
    assert peek.peek_next_card(now, **dict(kwargs, db_url=other)) is None
    assert peek.peek_next_card(now, **dict(kwargs, db_url="postgresql+psycopg://u@127.0.0.1:9/x")) is None
    # a tampered plan: digests of other SQL mean "don't know"; the SQL it names is never run
    path, _identity = locate.plan_target(pg_url)
    original = path.read_text(encoding="utf-8")
    assert "SELECT" not in original.upper()
    plan = json.loads(original)
    evil = "CREATE TABLE pwned (x int)"
    plan["sections"]["*"] = {name: peek.digest(evil, {}) for name in plan["sections"]["*"]}
    plan["sql"] = evil
    path.write_text(json.dumps(plan), encoding="utf-8")
    assert peek.peek_next_card(now, **kwargs) is None
    path.write_text(original, encoding="utf-8")
    # an older (or newer) schema than the plan's
    import psycopg

    with psycopg.connect(locate.conninfo(pg_url)) as conn:
        tables = {
            row[0]
            for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        }
        assert "pwned" not in tables
        conn.execute("UPDATE alembic_version SET version_num = 'older'")
    assert peek.peek_next_card(now, **kwargs) is None


@pytest.mark.postgres
def test_the_postgres_peek_imports_no_sqlalchemy(pg_url, tmp_path):
    open_pg(pg_url).close()
    code = (
        "import sys; from datetime import datetime, UTC; from drill.store import peek; "
        f"card = peek.peek_next_card(datetime.now(UTC), packs=['pack-a'], user='alice', db_url={pg_url!r}); "
        "print(card.card_id, ','.join(m for m in ('sqlalchemy', 'textual', 'rich', 'numpy', 'yaml') "
        "if m in sys.modules) or '-')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["c00", "-"]


@pytest.mark.postgres
def test_drill_study_on_postgres_shows_its_question_before_sqlalchemy(pg_url, tmp_path):
    """The installed `drill study` on a PostgreSQL URL: the first start opens the store (and saves the plan);
    the next draws its first question from the psycopg peek while sqlalchemy's and numpy's imports are held
    (benchmarks/ptyrun.py's HeldTerminal), and the store, opened once they may load, agrees (no other card is
    ever drawn)."""
    import os
    import re

    from tests.tui.conftest import STUDY_QUESTION, STUDY_READY, ptyrun

    card = re.compile(r"§\S+ · (\S+) · ")
    reader = ptyrun()
    env = dict(os.environ, DRILL_DB_URL=pg_url, DRILL_USER="pty-learner")
    with reader.Terminal([reader.drill_command(), "study"], env, size=(100, 30)) as term:
        term.wait_for(STUDY_READY)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0 and locate.plan_target(pg_url)[0].is_file()
    seen: set[str] = set()

    def ready(screen: str) -> bool:
        seen.update(card.findall(screen))
        return STUDY_READY.search(screen) is not None

    with reader.HeldTerminal(["study"], env, tmp_path / "loaded", size=(100, 30)) as term:
        term.wait_for(STUDY_QUESTION)
        assert term.loaded() == set()
        first = card.findall(term.settled())  # held: nothing more is coming but the rest of this frame
        term.release()
        term.wait_for(ready)
        assert "sqlalchemy" in term.loaded()
        assert len(first) == 1 and seen == set(first)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0
