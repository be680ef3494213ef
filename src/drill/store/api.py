"""The progress store: one user's view of a SQLAlchemy database (SQLite by default, PostgreSQL for cohorts).

Contract (docs/architecture.md, "Scheduling and store"):

- Cards are named by their content id (the key of ``Library.cards``); ``sync_content`` maps them to rows.
- Every query is scoped to the store's user. Every datetime handed out is timezone-aware UTC; every datetime
  taken in must be timezone-aware.
- Each write is one short transaction (``BEGIN IMMEDIATE`` on SQLite; on PostgreSQL the user's row is locked
  ``FOR UPDATE`` so two drills of one user take turns) that has committed before the method returns; no
  transaction stays open between calls, so nothing that matters lives only in memory and a second drill on
  the same database can write between our grades.
- Failures the user can act on (corrupt, read-only, full disk, locked, newer schema) raise ``StoreError``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    null,
    or_,
    select,
    update,
)

from drill.errors import StoreError, StoreUpgradeNeeded
from drill.srs import (
    CardState,
    Phase,
    SrsConfig,
    day_bounds,
    is_leech,
    leech_suspends,
    load_config,
    next_day_start,
    remaining_today,
    retrievability,
    schedule,
    to_grade,
)
from drill.srs import preview as srs_preview
from drill.store import engine as engines
from drill.store import migrate
from drill.store.models import Card as CardRow
from drill.store.models import CardState as StateRow
from drill.store.models import QuizAnswer, QuizAttempt, ReviewLog, StudySession, User, UTCDateTime
from drill.store.peek import FALLBACK_USER, default_user  # noqa: F401 (FALLBACK_USER: public name)
from drill.store.peek import choose as choose_next
from drill.store.review_days import count_grade, review_day_fields
from drill.store.types import (
    BROWSE_STATES,
    BURIED,
    LEECH,
    SUSPENDED,
    BrowseRow,
    CardInfo,
    Counts,
    DueCard,
    GradeResult,
    QuizAnswerRecord,
    ReviewEntry,
    UndoResult,
)

cards_t = CardRow.__table__
states_t = StateRow.__table__
logs_t = ReviewLog.__table__
users_t = User.__table__
sessions_t = StudySession.__table__
attempts_t = QuizAttempt.__table__
answers_t = QuizAnswer.__table__

# A never-reviewed card's state has this due time, so its fuzz seed (and so ``preview``) doesn't depend on
# the moment it is looked at.
NEW_DUE = datetime(2000, 1, 1, tzinfo=UTC)

# The grade's statements, built once (executed with parameter dicts).
_UPDATE_STATE = update(states_t).where(
    states_t.c.user_id == bindparam("b_user"), states_t.c.card_id == bindparam("b_card")
)
_INSERT_STATE = insert(states_t)
_INSERT_LOG = insert(logs_t).returning(logs_t.c.id)


USER_NAME_MAX = 200  # users.name is String(200)


def check_user_name(name: str) -> str:
    """The user name, stripped; StoreError when it is empty, too long for the users table, or holds control
    characters (names are printed in reports and the cohort view: they must not drive the terminal)."""
    name = name.strip()
    if not name:
        raise StoreError("--user must not be empty")
    if len(name) > USER_NAME_MAX:
        raise StoreError(f"--user is {len(name)} characters long; at most {USER_NAME_MAX}")
    bad = next((ch for ch in name if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F), None)
    if bad is not None:
        raise StoreError(f"--user {name!r} contains the control character U+{ord(bad):04X}; use printable text")
    return name


def _aware(moment: datetime, what: str = "now") -> datetime:
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        raise ValueError(f"{what} must be a timezone-aware datetime, got {moment!r}")
    return moment.astimezone(UTC)


def open_store(url: str | None = None, user: str | None = None, *, readonly: bool = False) -> Store:
    """Open (creating or migrating as needed) the progress database and return a Store for ``user``.

    ``url``: any SQLAlchemy URL; default ``$DRILL_DB_URL`` or else a SQLite file at
    ``drill.paths.default_db_path()`` (created on first run). ``user``: default the login name
    (``getpass.getuser()``, falling back to ``"learner"``). ``readonly``: never write (also chosen
    automatically when the database cannot be written; ``Store.readonly`` says which).

    At open: ``PRAGMA quick_check`` (SQLite, unless read-only: see ``_prepare``); pending Alembic migrations are applied after an automatic
    backup (only when an existing database needs migrating). Raises ``StoreError`` with a message that
    names the database and what to do (e.g. ``drill restore``) when it is corrupt or unusable.
    """
    url = engines.resolve_url(url)
    user = check_user_name(user or default_user())
    where = engines.display_url(url)
    db_file = engines.sqlite_file(url)
    if db_file is not None:
        where = str(db_file)
    readonly = readonly or engines.is_readonly_url(url)
    if readonly and db_file is not None and not db_file.exists():
        raise StoreError(f"there is no progress database at {db_file} to open read-only")
    existed = db_file is not None and db_file.exists() and db_file.stat().st_size > 0

    engine = engines.make_engine(url)
    try:
        with engines.translate_errors(where):
            revision, readonly = _prepare(engine, where, readonly)
            if migrate.needs_upgrade(revision):
                migrate.check_known(revision, where)
                if readonly:
                    raise StoreUpgradeNeeded(
                        f"the progress database {where} needs an upgrade (schema {revision} -> "
                        f"{migrate.HEAD_REVISION}) but is read-only; open it once with write access"
                    )
                if revision is not None and existed and db_file is not None:
                    from drill.store.backup import make_backup

                    make_backup(db_file, reason=f"before-{migrate.HEAD_REVISION}")
                engine.dispose()  # the migration uses its own connection; no pooled one may hold old schema
                migrate.upgrade(url)
            user_id = _user_id(engine, user, readonly)
        return Store(engine, url=url, where=where, user=user, user_id=user_id, readonly=readonly)
    except BaseException:
        engine.dispose()
        raise


def _prepare(engine: Engine, where: str, readonly: bool) -> tuple[str | None, bool]:
    """Integrity check, WAL, and the schema revision; decides read-only mode for unwritable files."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            raw = conn.connection.driver_connection
            if not readonly:
                # Before anything may be written: writing onto damaged pages could spread the damage. The check
                # reads the whole file (seconds for millions of reviews), so an open asked to be read-only (a
                # report) skips it; damage such a reader meets is reported the same way (engines.describe).
                result = [row[0] for row in raw.execute("PRAGMA quick_check").fetchall()]
                if result != ["ok"]:
                    raise StoreError(engines.corrupt_message(where) + f" (quick_check: {'; '.join(result[:3])})")
                readonly = _sqlite_readonly(raw)
            if not readonly:
                mode = raw.execute("PRAGMA journal_mode").fetchone()[0]
                if mode.lower() != "wal":
                    raw.execute("PRAGMA journal_mode = WAL")
        revision = migrate.current_revision(conn)
        if revision is None and engine.dialect.name == "sqlite":
            # No drill schema: a new file, or another program's database that --db names by mistake.
            # Never create drill's tables beside someone else's.
            others = [
                row[0]
                for row in raw.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                ).fetchall()
            ]
            if others:
                raise StoreError(
                    f"{where} is not a drill progress database (it holds other tables: {', '.join(others[:5])}"
                    f"{', …' if len(others) > 5 else ''}); point --db at a new file or at drill's database"
                )
        conn.rollback()
    return revision, readonly


def _sqlite_readonly(raw) -> bool:
    """Whether this SQLite connection cannot write (a mode=ro URI, a read-only file or folder)."""
    import sqlite3

    try:
        raw.execute("BEGIN IMMEDIATE")
        raw.execute("ROLLBACK")
        # BEGIN IMMEDIATE succeeds on some read-only files; a real write tells for sure.
        raw.execute("BEGIN IMMEDIATE")
        try:  # rewrite the header's user_version with its own value, then roll back
            raw.execute("PRAGMA user_version = " + str(raw.execute("PRAGMA user_version").fetchone()[0]))
        finally:
            raw.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as err:
        if "readonly" in str(err).lower() or "read-only" in str(err).lower():
            return True
        raise


def _user_id(engine: Engine, name: str, readonly: bool) -> int | None:
    with engine.connect() as conn:
        found = conn.execute(select(users_t.c.id).where(users_t.c.name == name)).scalar()
        conn.rollback()
    if found is not None or readonly:
        return found
    with engine.connect() as conn:
        conn = conn.execution_options(**engines.WRITE)
        with conn.begin():
            conn.execute(
                _insert_ignore(engine, users_t).values(name=name, created_at=datetime.now(UTC))
            )
        found = conn.execute(select(users_t.c.id).where(users_t.c.name == name)).scalar_one()
        conn.rollback()
    return found


def _insert_ignore(engine_or_conn, table):
    """INSERT that skips rows clashing with a unique key (another drill inserted them first)."""
    name = engine_or_conn.dialect.name
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table).on_conflict_do_nothing()
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing()
    return insert(table)


@dataclass
class _Flags:
    suspended: bool = False
    buried_until: datetime | None = None
    leech: bool = False
    exists: bool = False


class Store:
    """One user's progress. Create with :func:`open_store`; close with :meth:`close` (or use ``with``).

    Public attributes: ``url`` (password hidden), ``where`` (file or URL, for messages), ``user``,
    ``user_id``, ``readonly``, ``config`` (drill.srs.SrsConfig, loaded from drill.toml; may be replaced),
    ``tz`` (the time zone of study days; None = the system's).
    """

    def __init__(
        self, engine: Engine, *, url: str, where: str, user: str, user_id: int | None, readonly: bool
    ) -> None:
        self._engine = engine
        self.url = engines.display_url(url)
        self.where = where
        self.user = user
        self.user_id = user_id if user_id is not None else -1  # read-only and unknown: sees nothing
        self.readonly = readonly
        self.config: SrsConfig = load_config()
        self.tz = None
        self._packs: tuple[str, ...] | None = None
        self._ids: dict[str, tuple[int, str, str]] = {}  # content id -> (row id, pack, section)
        self._stmts: dict[tuple, Any] = {}  # prebuilt statements (depend on the active packs)
        self._is_sqlite = engine.dialect.name == "sqlite"

    # -- lifecycle -----------------------------------------------------------------------------------

    def close(self) -> None:
        """Dispose of the connection pool. Nothing is pending: every write has already committed."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def errors_translated(self):
        """A context in which database failures the user can act on (corrupt, locked...) become StoreError:
        for callers that query ``engine`` themselves (reports)."""
        return engines.translate_errors(self.where)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for reports' read-only aggregate queries)."""
        return self._engine

    @property
    def packs(self) -> tuple[str, ...] | None:
        """The packs being studied (set by ``sync_content``); None means every pack in the database."""
        return self._packs

    @contextlib.contextmanager
    def _tx(self, *, write: bool = False) -> Iterator[Connection]:
        """One short transaction: committed on success, rolled back on error; never left open."""
        if write and self.readonly:
            raise StoreError(f"the progress database {self.where} is open read-only: progress cannot be saved")
        with engines.translate_errors(self.where):
            with self._engine.connect() as conn:
                if write:
                    conn = conn.execution_options(**engines.WRITE)
                with conn.begin():
                    if write and not self._is_sqlite:
                        # Serialise this user's writers (two terminals): the second waits for the first.
                        conn.execute(select(users_t.c.id).where(users_t.c.id == self.user_id).with_for_update())
                    yield conn

    def _active(self, query, section: str | None = None):
        query = query.where(cards_t.c.retired == False)  # noqa: E712 (SQL expression)
        if self._packs is not None:
            query = query.where(cards_t.c.pack.in_(self._packs))
        if section is not None:
            query = query.where(cards_t.c.section == section)
        return query

    def _card(self, conn: Connection, card_id: str) -> tuple[int, str, str]:
        found = self._ids.get(card_id)
        if found is not None:
            return found
        def build():
            query = select(cards_t.c.id, cards_t.c.pack, cards_t.c.section).where(
                cards_t.c.content_id == bindparam("content_id")
            )
            if self._packs is not None:  # (pack, content_id) is the unique index: name the packs to use it
                query = query.where(cards_t.c.pack.in_(self._packs))
            return query.order_by(cards_t.c.retired, cards_t.c.id).limit(1)

        row = conn.execute(self._stmt(("card",), build), {"content_id": card_id}).first()
        if row is None:
            raise StoreError(f"card {card_id!r} is not in the progress database {self.where}")
        self._ids[card_id] = (row.id, row.pack, row.section)
        return self._ids[card_id]

    # -- content -------------------------------------------------------------------------------------

    def sync_content(self, library_or_cards: Any) -> dict[str, int]:
        """Bring the cards table in line with the content.

        Takes a ``drill.content.Library`` or an iterable of ``(pack, content_id, section)``. New ids become
        new cards; a known id keeps its progress whatever its text (its section and position are updated);
        an id missing from a synced pack is retired (hidden from study, history kept); a retired id that
        comes back is restored. Only the packs present in the content are touched, and the store then
        studies only those packs. Returns counts ``{"added", "retired", "restored", "updated"}``.
        In read-only mode nothing is written and unknown ids are simply not studied.
        """
        items, packs = _content_items(library_or_cards)
        counts = {"added": 0, "retired": 0, "restored": 0, "updated": 0}
        self._packs = tuple(sorted(packs))
        self._ids.clear()
        self._stmts.clear()
        if not packs:
            return counts
        wanted: dict[tuple[str, str], tuple[str, int]] = {}
        positions: dict[str, int] = {}
        for pack, content_id, section in items:
            key = (pack, content_id)
            if key in wanted:
                raise StoreError(f"card id {content_id!r} appears twice in pack {pack!r}")
            positions[pack] = positions.get(pack, -1) + 1
            wanted[key] = (section, positions[pack])
        if self.readonly:
            return counts
        now = datetime.now(UTC)
        with self._tx(write=True) as conn:
            existing = {
                (row.pack, row.content_id): row
                for row in conn.execute(
                    select(
                        cards_t.c.id, cards_t.c.pack, cards_t.c.content_id, cards_t.c.section,
                        cards_t.c.position, cards_t.c.retired,
                    ).where(cards_t.c.pack.in_(self._packs))
                )
            }  # fmt: skip
            new_rows = [
                {"pack": pack, "content_id": cid, "section": section, "position": pos, "retired": False,
                 "created_at": now}
                for (pack, cid), (section, pos) in wanted.items()
                if (pack, cid) not in existing
            ]  # fmt: skip
            if new_rows:
                conn.execute(_insert_ignore(conn, cards_t), new_rows)
                counts["added"] = len(new_rows)
            for key, row in existing.items():
                if key not in wanted:
                    if not row.retired:
                        conn.execute(update(cards_t).where(cards_t.c.id == row.id).values(retired=True))
                        counts["retired"] += 1
                    continue
                section, pos = wanted[key]
                if row.retired:
                    counts["restored"] += 1
                elif row.section == section and row.position == pos:
                    continue
                else:
                    counts["updated"] += 1
                conn.execute(
                    update(cards_t)
                    .where(cards_t.c.id == row.id)
                    .values(section=section, position=pos, retired=False)
                )
            # Every card gets a state row for this user ("new", due NULL): see _new_query.
            missing = (
                select(literal(self.user_id), cards_t.c.id, literal(Phase.NEW.value), literal(0), literal(0),
                       literal(0), literal(False), literal(False))
                .where(cards_t.c.pack.in_(self._packs))
                .where(
                    ~select(states_t.c.card_id)
                    .where(states_t.c.user_id == self.user_id, states_t.c.card_id == cards_t.c.id)
                    .exists()
                )
            )  # fmt: skip
            conn.execute(
                insert(states_t).from_select(
                    ["user_id", "card_id", "state", "step", "reps", "lapses", "suspended", "leech"], missing
                )
            )
        return counts

    # -- study ---------------------------------------------------------------------------------------

    def _day(self, now: datetime) -> tuple[datetime, datetime]:
        return day_bounds(now, self.config.day_starts_at, self.tz)

    def _stmt(self, key: tuple, build):
        """A statement built once per store (and per set of active packs): building SQLAlchemy statements
        costs more than running these indexed queries."""
        stmt = self._stmts.get(key)
        if stmt is None:
            stmt = self._stmts[key] = build()
        return stmt

    def _done_today(self, conn: Connection, now: datetime) -> tuple[int, int, int]:
        """(all grades, new cards introduced, review-state grades) since the study day began."""
        by_state = self._done_by_state(conn, now)
        return sum(by_state.values()), by_state.get(Phase.NEW.value, 0), by_state.get(Phase.REVIEW.value, 0)

    def _done_by_state(self, conn: Connection, now: datetime) -> dict[str, int]:
        start, end = self._day(now)
        return {state: n for state, n in conn.execute(self._done_query(), {"start": start, "end": end})}

    def _done_query(self):
        """Today's grades counted by the state before the grade (parameters ``start``, ``end``)."""
        return self._stmt(
            ("done",),
            lambda: select(logs_t.c.state_before, func.count())
            .where(
                logs_t.c.user_id == self.user_id,
                logs_t.c.reviewed_at >= bindparam("start", type_=UTCDateTime()),
                logs_t.c.reviewed_at < bindparam("end", type_=UTCDateTime()),
            )
            .group_by(logs_t.c.state_before),
        )

    @staticmethod
    def _not_buried():
        return or_(states_t.c.buried_until.is_(None), states_t.c.buried_until <= bindparam("now", type_=UTCDateTime()))

    def _due_query(self, section: str | None, include_reviews: bool):
        """Due cards, earliest first (parameter ``now``). Served by ix_card_states_next_due."""

        def build():
            join = states_t.join(cards_t, cards_t.c.id == states_t.c.card_id)
            query = select(
                cards_t.c.content_id, cards_t.c.pack, cards_t.c.section, states_t.c.state, states_t.c.due,
                states_t.c.reps, states_t.c.lapses,
            ).select_from(join).where(
                states_t.c.user_id == self.user_id,
                states_t.c.suspended == False,  # noqa: E712
                states_t.c.due <= bindparam("now", type_=UTCDateTime()),
                self._not_buried(),
            )  # fmt: skip
            if not include_reviews:
                query = query.where(states_t.c.state != Phase.REVIEW.value)
            return self._active(query, section).order_by(states_t.c.due)

        return self._stmt(("due", section, include_reviews), build)

    def _new_query(self, section: str | None):
        """New cards in content order (parameter ``now``).

        ``sync_content`` gives this user a state row for every card ("new", due NULL), so new cards are
        found through ix_card_states_next_due (user_id, suspended, due IS NULL) rather than by scanning
        every card for a missing row. A read-only store could not write those rows: it looks for
        missing rows too (slower, still right).
        """

        def build():
            new_row = and_(
                states_t.c.due.is_(None),
                states_t.c.suspended == False,  # noqa: E712
                self._not_buried(),
            )
            cols = (cards_t.c.content_id, cards_t.c.pack, cards_t.c.section)
            if self.readonly:
                join = cards_t.outerjoin(
                    states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == self.user_id)
                )
                query = select(*cols).select_from(join).where(or_(states_t.c.card_id.is_(None), new_row))
            else:
                join = states_t.join(cards_t, cards_t.c.id == states_t.c.card_id)
                query = select(*cols).select_from(join).where(states_t.c.user_id == self.user_id, new_row)
            return self._active(query, section).order_by(cards_t.c.pack, cards_t.c.position, cards_t.c.id)

        return self._stmt(("new", section), build)

    def _first_due(self, conn: Connection, now: datetime, section: str | None, include_reviews: bool) -> tuple | None:
        """The earliest due card as (content_id, pack, section, state, due, reps, lapses), or None.

        The study screen asks for this after every grade. The query itself is an index seek of a few
        microseconds, so on SQLite it runs as SQL compiled once by SQLAlchemy on the pooled DBAPI
        connection: SQLAlchemy's per-execution bookkeeping would otherwise cost ten times the query.
        """
        fast = self._stmts.get(("fast", section, include_reviews))  # the hot path: one dict lookup
        if fast is not None:
            return fast.first(conn, now)
        stmt = self._first_due_stmt(section, include_reviews)
        if not self._is_sqlite:
            row = conn.execute(stmt, {"now": now}).first()
            return None if row is None else tuple(row)
        fast = self._stmt(("fast", section, include_reviews), lambda: _Prepared(stmt, self._engine.dialect, "now"))
        return fast.first(conn, now)

    def _first_due_stmt(self, section: str | None, include_reviews: bool):
        return self._stmt(("due1", section, include_reviews), lambda: self._due_query(section, include_reviews).limit(1))

    def _first_new_stmt(self, section: str | None):
        return self._stmt(("new1", section), lambda: self._new_query(section).limit(1))

    def next_card(self, now: datetime, section: str | None = None) -> DueCard | None:
        """The card to show at ``now``, or None when nothing is left today.

        Due learning/relearning/review cards first (earliest due first; review cards within the daily
        review limit), then new cards in content order within the daily new limit. Suspended, buried
        (until the next study day) and retired cards are never shown. ``section`` restricts to one section.
        The choice is `drill.store.peek.choose`, shared with the read-only first-card peek.
        """
        now = _aware(now)
        with self._tx() as conn:
            return choose_next(
                self._done_by_state(conn, now),
                self.config,
                lambda include_reviews: self._first_due(conn, now, section, include_reviews),
                lambda: conn.execute(self._first_new_stmt(section), {"now": now}).first(),
            )

    def counts(self, now: datetime, section: str | None = None) -> Counts:
        """Due now / new available / done today, with the daily limits and the day-start hour applied."""
        now = _aware(now)
        params = {"now": now}
        with self._tx() as conn:
            done, new_done, reviews_done = self._done_today(conn, now)
            new_left, reviews_left = remaining_today(new_done, reviews_done, self.config)
            due_rows = conn.execute(
                self._stmt(
                    ("due-count", section),
                    lambda: self._due_query(section, True)
                    .with_only_columns(states_t.c.state, func.count())
                    .order_by(None)
                    .group_by(states_t.c.state),
                ),
                params,
            ).all()
            by_state = {state: n for state, n in due_rows}
            reviews = by_state.pop(Phase.REVIEW.value, 0)
            due = sum(by_state.values()) + min(reviews, reviews_left)
            new_available = conn.execute(
                self._stmt(
                    ("new-count", section),
                    lambda: self._new_query(section).with_only_columns(func.count()).order_by(None),
                ),
                params,
            ).scalar_one()
            upcoming = self._stmt(
                ("upcoming", section),
                lambda: self._active(
                    select(func.min(states_t.c.due))
                    .select_from(states_t.join(cards_t, cards_t.c.id == states_t.c.card_id))
                    .where(
                        states_t.c.user_id == self.user_id,
                        states_t.c.suspended == False,  # noqa: E712
                        states_t.c.due > bindparam("now", type_=UTCDateTime()),
                        self._not_buried(),
                    ),
                    section,
                ),
            )
            next_due = conn.execute(upcoming, params).scalar()
        return Counts(
            due=due,
            new=min(new_available, new_left),
            done_today=done,
            new_today=new_done,
            reviews_today=reviews_done,
            next_due=_utc(next_due),
        )

    def _load_state(self, conn: Connection, row_id: int) -> tuple[CardState, _Flags]:
        stmt = self._stmt(
            ("state",),
            lambda: select(states_t).where(
                states_t.c.user_id == self.user_id, states_t.c.card_id == bindparam("card")
            ),
        )
        row = conn.execute(stmt, {"card": row_id}).first()
        if row is None:
            return CardState(state=Phase.NEW, step=0, due=NEW_DUE), _Flags()
        flags = _Flags(row.suspended, _utc(row.buried_until), row.leech, exists=True)
        if row.state == Phase.NEW.value:
            return CardState(state=Phase.NEW, step=0, due=NEW_DUE), flags
        state = CardState(
            state=Phase(row.state), step=row.step, stability=row.stability, difficulty=row.difficulty,
            due=row.due, last_review=row.last_review, reps=row.reps, lapses=row.lapses,
        )  # fmt: skip
        return state, flags

    def _write_state(self, conn: Connection, row_id: int, exists: bool, values: dict[str, Any]) -> None:
        if exists:
            conn.execute(_UPDATE_STATE, {"b_user": self.user_id, "b_card": row_id, **values})
        else:
            conn.execute(_INSERT_STATE, {"user_id": self.user_id, "card_id": row_id, **values})

    def grade(
        self,
        card_id: str,
        rating: int,
        now: datetime,
        duration_ms: int | None = None,
        *,
        session_id: int | None = None,
    ) -> GradeResult:
        """Grade a card (1 Again, 2 Hard, 3 Good, 4 Easy) at ``now``.

        One short write transaction: the card's state is read, scheduled by ``drill.srs.schedule``, written
        with its review-log row (including the whole state before, for undo), the leech rule applied, and
        committed before this returns. Raises ``StoreError`` in read-only mode or when the disk is full
        (nothing is written then; the grade can be retried).
        """
        now = _aware(now)
        grade = to_grade(rating)
        with self._tx(write=True) as conn:
            row_id, _pack, _section = self._card(conn, card_id)
            before, flags = self._load_state(conn, row_id)
            outcome = schedule(before, grade, now, self.config, fuzz_seed=row_id)
            after = outcome.after
            became_leech = is_leech(outcome, self.config)
            leech = flags.leech or became_leech
            suspended = flags.suspended or (became_leech and leech_suspends(self.config))
            self._write_state(conn, row_id, flags.exists, {
                "state": after.state.value, "step": after.step, "stability": after.stability,
                "difficulty": after.difficulty, "due": after.due, "last_review": after.last_review,
                "reps": after.reps, "lapses": after.lapses, "suspended": suspended,
                "buried_until": flags.buried_until, "leech": leech,
            })  # fmt: skip
            is_new = before.state is Phase.NEW
            day, first_of_day = review_day_fields(now, before.last_review, self.config.day_starts_at, self.tz)
            log_id = conn.execute(_INSERT_LOG, {
                "user_id": self.user_id, "card_id": row_id, "session_id": session_id, "rating": int(grade),
                "reviewed_at": now, "duration_ms": duration_ms,
                "state_before": before.state.value, "step_before": before.step,
                "stability_before": before.stability, "difficulty_before": before.difficulty,
                "due_before": None if is_new else before.due, "last_review_before": before.last_review,
                "reps_before": before.reps, "lapses_before": before.lapses,
                "suspended_before": flags.suspended, "buried_until_before": flags.buried_until,
                "leech_before": flags.leech,
                "state_after": after.state.value, "step_after": after.step,
                "stability_after": after.stability, "difficulty_after": after.difficulty,
                "due_after": after.due, "scheduled_days": outcome.scheduled_days,
                "elapsed_days": outcome.elapsed_days, "leech_after": leech,
                "study_day": day, "first_of_day": first_of_day,
            }).scalar_one()  # fmt: skip
            count_grade(conn, self.user_id, row_id, day, first_of_day, int(grade), duration_ms)
        return GradeResult(card_id, log_id, outcome, leech, became_leech, suspended)

    def preview(self, card_id: str, now: datetime) -> dict[int, datetime]:
        """When the card would next be due for each rating, without writing anything."""
        now = _aware(now)
        with self._tx() as conn:
            row_id, _, _ = self._card(conn, card_id)
            state, _flags = self._load_state(conn, row_id)
        return srs_preview(state, now, self.config, fuzz_seed=row_id)

    def undo_last(self) -> UndoResult | None:
        """Undo this user's latest grade: restore the card's exact state before it and delete its log row.

        Returns what was undone, or None when there is no grade to undo. (The row's study_day and
        first_of_day go with it — no other row depends on the latest one — and its share of the day totals
        and retention counters is taken back.)
        """
        with self._tx(write=True) as conn:
            log = conn.execute(
                select(logs_t, cards_t.c.content_id)
                .join(cards_t, cards_t.c.id == logs_t.c.card_id)
                .where(logs_t.c.user_id == self.user_id)
                .order_by(logs_t.c.id.desc())
                .limit(1)
            ).first()
            if log is None:
                return None
            self._write_state(conn, log.card_id, True, {
                "state": log.state_before, "step": log.step_before, "stability": log.stability_before,
                "difficulty": log.difficulty_before, "due": log.due_before,
                "last_review": log.last_review_before, "reps": log.reps_before, "lapses": log.lapses_before,
                "suspended": log.suspended_before, "buried_until": log.buried_until_before,
                "leech": log.leech_before,
            })  # fmt: skip
            conn.execute(delete(logs_t).where(logs_t.c.id == log.id))
            count_grade(conn, self.user_id, log.card_id, log.study_day, log.first_of_day, log.rating,
                        log.duration_ms, sign=-1)
        return UndoResult(log.content_id, log.rating, _utc(log.reviewed_at))

    def _set_flags(self, card_id: str, **values: Any) -> None:
        with self._tx(write=True) as conn:
            row_id, _, _ = self._card(conn, card_id)
            exists = conn.execute(
                select(literal(1)).where(states_t.c.user_id == self.user_id, states_t.c.card_id == row_id)
            ).first()
            if exists is None:
                values = {"state": Phase.NEW.value, "step": 0, "reps": 0, "lapses": 0, "suspended": False,
                          "leech": False, **values}  # fmt: skip
            self._write_state(conn, row_id, exists is not None, values)

    def suspend(self, card_id: str) -> None:
        """Hide a card from study until unsuspended (its schedule is kept)."""
        self._set_flags(card_id, suspended=True)

    def unsuspend(self, card_id: str) -> None:
        """Return a suspended card to study (clears the leech suspension too; the leech tag stays)."""
        self._set_flags(card_id, suspended=False)

    def bury(self, card_id: str, now: datetime) -> None:
        """Hide a card until the start of the next study day."""
        now = _aware(now)
        self._set_flags(card_id, buried_until=next_day_start(now, self.config.day_starts_at, self.tz))

    def make_due_now(self, card_ids: Iterable[str], now: datetime) -> int:
        """Make these (already studied) cards due at ``now`` (e.g. the cards of a failed quiz question).

        New cards stay new. Returns how many cards changed.
        """
        now = _aware(now)
        ids = list(dict.fromkeys(card_ids))
        if not ids:
            return 0
        with self._tx(write=True) as conn:
            rows = []
            for cid in ids:
                try:
                    rows.append(self._card(conn, cid)[0])
                except StoreError:
                    continue
            if not rows:
                return 0
            result = conn.execute(
                update(states_t)
                .where(
                    states_t.c.user_id == self.user_id,
                    states_t.c.card_id.in_(rows),
                    states_t.c.state != Phase.NEW.value,
                    states_t.c.due > now,
                )
                .values(due=now)
            )
            return result.rowcount or 0

    # -- inspection ----------------------------------------------------------------------------------

    def _entries(self, conn: Connection, where) -> list[ReviewEntry]:
        rows = conn.execute(
            select(logs_t, cards_t.c.content_id, cards_t.c.pack, cards_t.c.section)
            .join(cards_t, cards_t.c.id == logs_t.c.card_id)
            .where(logs_t.c.user_id == self.user_id, *where)
            .order_by(logs_t.c.reviewed_at, logs_t.c.id)
        )
        return [
            ReviewEntry(
                log_id=r.id, card_id=r.content_id, pack=r.pack, section=r.section, rating=r.rating,
                reviewed_at=_utc(r.reviewed_at), duration_ms=r.duration_ms, state_before=Phase(r.state_before),
                state_after=Phase(r.state_after), stability_after=r.stability_after,
                difficulty_after=r.difficulty_after, due_after=_utc(r.due_after),
                scheduled_days=r.scheduled_days, elapsed_days=r.elapsed_days, session_id=r.session_id,
            )
            for r in rows
        ]  # fmt: skip

    def card_info(self, card_id: str, now: datetime | None = None) -> CardInfo:
        """State, stability, difficulty, retrievability at ``now``, next due and the full history."""
        now = _aware(now) if now is not None else datetime.now(UTC)
        with self._tx() as conn:
            row_id, pack, section = self._card(conn, card_id)
            retired = conn.execute(select(cards_t.c.retired).where(cards_t.c.id == row_id)).scalar_one()
            state, flags = self._load_state(conn, row_id)
            history = self._entries(conn, [logs_t.c.card_id == row_id])
        is_new = state.state is Phase.NEW
        return CardInfo(
            card_id=card_id, pack=pack, section=section, retired=bool(retired), kind=state.state,
            step=state.step, stability=state.stability, difficulty=state.difficulty,
            retrievability=None if is_new else retrievability(state, now, self.config),
            due=None if is_new else state.due, last_review=state.last_review, reps=state.reps,
            lapses=state.lapses, suspended=flags.suspended, buried_until=flags.buried_until,
            leech=flags.leech, history=history,
        )  # fmt: skip

    def browse(
        self,
        text: str | None = None,
        section: str | None = None,
        state: str | None = None,
        *,
        now: datetime | None = None,
        limit: int | None = None,
    ) -> list[BrowseRow]:
        """Cards of the active packs with their state. ``text`` matches the content id or section
        (content text lives in the Library, so the TUI filters on text itself); ``state`` is one of
        ``drill.store.types.BROWSE_STATES``."""
        if state is not None and state not in BROWSE_STATES:
            raise StoreError(f"unknown card state {state!r}; choose one of {', '.join(BROWSE_STATES)}")
        now = _aware(now) if now is not None else datetime.now(UTC)
        join = cards_t.outerjoin(
            states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == self.user_id)
        )
        query = self._active(
            select(
                cards_t.c.content_id, cards_t.c.pack, cards_t.c.section, states_t.c.state, states_t.c.due,
                states_t.c.stability, states_t.c.difficulty, states_t.c.reps, states_t.c.lapses,
                states_t.c.suspended, states_t.c.buried_until, states_t.c.leech,
            ).select_from(join),
            section,
        )  # fmt: skip
        if text:
            pattern = f"%{_escape_like(text.lower())}%"
            query = query.where(
                or_(
                    func.lower(cards_t.c.content_id).like(pattern, escape="\\"),
                    func.lower(cards_t.c.section).like(pattern, escape="\\"),
                )
            )
        new_cond = or_(states_t.c.card_id.is_(None), states_t.c.state == Phase.NEW.value)
        if state == Phase.NEW.value:
            query = query.where(new_cond)
        elif state in (Phase.LEARNING.value, Phase.REVIEW.value, Phase.RELEARNING.value):
            query = query.where(states_t.c.state == state)
        elif state == SUSPENDED:
            query = query.where(states_t.c.suspended == True)  # noqa: E712
        elif state == BURIED:
            query = query.where(states_t.c.buried_until > now)
        elif state == LEECH:
            query = query.where(states_t.c.leech == True)  # noqa: E712
        query = query.order_by(cards_t.c.pack, cards_t.c.position, cards_t.c.id)
        if limit is not None:
            query = query.limit(limit)
        with self._tx() as conn:
            rows = conn.execute(query).all()
        return [
            BrowseRow(
                card_id=r.content_id, pack=r.pack, section=r.section, kind=Phase(r.state or Phase.NEW.value),
                due=None if r.state in (None, Phase.NEW.value) else _utc(r.due), stability=r.stability,
                difficulty=r.difficulty, reps=r.reps or 0, lapses=r.lapses or 0, suspended=bool(r.suspended),
                buried=r.buried_until is not None and _utc(r.buried_until) > now, leech=bool(r.leech),
            )
            for r in rows
        ]  # fmt: skip

    def review_logs(self, since: datetime | None = None) -> list[ReviewEntry]:
        """Every grade of this user in review order (for ``drill optimize`` and reports)."""
        where = [] if since is None else [logs_t.c.reviewed_at >= _aware(since, "since")]
        with self._tx() as conn:
            return self._entries(conn, where)

    # -- quizzes and sessions ------------------------------------------------------------------------

    def record_quiz_attempt(
        self,
        started_at: datetime,
        finished_at: datetime | None,
        settings: dict[str, Any],
        answers: Iterable[QuizAnswerRecord],
    ) -> int:
        """Store one quiz attempt with its answers (score and total computed from them); returns its id."""
        answers = list(answers)
        started_at = _aware(started_at, "started_at")
        finished_at = None if finished_at is None else _aware(finished_at, "finished_at")
        with self._tx(write=True) as conn:
            attempt_id = conn.execute(
                insert(attempts_t)
                .values(
                    user_id=self.user_id, started_at=started_at, finished_at=finished_at,
                    settings=dict(settings), score=sum(1 for a in answers if a.correct), total=len(answers),
                )
                .returning(attempts_t.c.id)
            ).scalar_one()  # fmt: skip
            if answers:
                conn.execute(
                    insert(answers_t),
                    [
                        {"attempt_id": attempt_id, "item_id": a.item_id, "kind": a.kind, "chosen": a.chosen,
                         "correct": a.correct, "timed_out": a.timed_out, "duration_ms": a.duration_ms,
                         "answered_at": _aware(a.answered_at, "answered_at")}
                        for a in answers
                    ],
                )  # fmt: skip
        return attempt_id

    def start_session(self, now: datetime) -> int:
        """Open a study session row (committed at once) and return its id."""
        now = _aware(now)
        with self._tx(write=True) as conn:
            return conn.execute(
                insert(sessions_t)
                .values(user_id=self.user_id, started_at=now, ended_at=null(), reviewed=0)
                .returning(sessions_t.c.id)
            ).scalar_one()

    def end_session(self, session_id: int, now: datetime) -> None:
        """Close a study session: set its end time and the number of grades given in it."""
        now = _aware(now)
        with self._tx(write=True) as conn:
            reviewed = conn.execute(
                select(func.count()).where(logs_t.c.user_id == self.user_id, logs_t.c.session_id == session_id)
            ).scalar_one()
            conn.execute(
                update(sessions_t)
                .where(sessions_t.c.id == session_id, sessions_t.c.user_id == self.user_id)
                .values(ended_at=now, reviewed=reviewed)
            )


class _Prepared:
    """A SELECT compiled once by SQLAlchemy (binds and result types included) and run on the DBAPI
    connection, for SQLite hot paths. One runtime parameter (``name``); every other value is fixed."""

    def __init__(self, stmt, dialect, name: str) -> None:
        compiled = stmt.compile(dialect=dialect)
        probe = datetime(2000, 1, 1, tzinfo=UTC)
        expanded = compiled.construct_expanded_state({name: probe})  # renders IN (...) for the packs
        self.sql = expanded.statement
        processors = {key: bind.type.dialect_impl(dialect).bind_processor(dialect) for key, bind in compiled.binds.items()}
        self.params = [_process(processors.get(key), expanded.parameters[key]) for key in expanded.positiontup]
        self.slots = [i for i, key in enumerate(expanded.positiontup) if key == name]
        self.runtime = processors.get(name)
        if isinstance(compiled.binds[name].type, UTCDateTime):
            self.runtime = _sqlite_timestamp  # same text as SQLAlchemy's processor, a few µs cheaper
        results = [
            _sqlite_utc if isinstance(column.type, UTCDateTime)
            else column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in stmt.selected_columns
        ]  # fmt: skip
        self.results = [(i, proc) for i, proc in enumerate(results) if proc is not None]

    def first(self, conn: Connection, value: Any) -> tuple | None:
        params = self.params.copy()
        runtime = self.runtime(value) if self.runtime is not None else value
        for slot in self.slots:
            params[slot] = runtime
        row = conn.connection.dbapi_connection.execute(self.sql, params).fetchone()
        if row is None or not self.results:
            return row
        row = list(row)
        for i, proc in self.results:
            row[i] = proc(row[i])
        return tuple(row)


def _sqlite_timestamp(value: datetime) -> str:
    """An aware datetime as SQLAlchemy's SQLite DateTime stores it (UTC, naive, microseconds)."""
    if value.tzinfo is not UTC:  # the common case (drill's own clocks) skips the conversion
        value = _aware(value)
    return value.replace(tzinfo=None).isoformat(" ", "microseconds")


def _sqlite_utc(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def _process(processor, value):
    return processor(value) if processor is not None else value


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _content_items(source: Any) -> tuple[list[tuple[str, str, str]], set[str]]:
    """(pack, content id, section) in content order, and the packs being synced."""
    cards = getattr(source, "cards", None)
    if isinstance(cards, dict):
        items = [(card.pack, card.id, card.section) for card in cards.values()]
        packs = {pack.id for pack in getattr(source, "packs", [])} | {pack for pack, _, _ in items}
        return items, packs
    items = []
    for entry in source:
        pack, content_id, section = entry
        items.append((str(pack), str(content_id), str(section)))
    return items, {pack for pack, _, _ in items}
