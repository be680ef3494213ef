"""Opening the progress database and resolving its user.

``open_store`` is where SQLAlchemy is first imported (``import drill.store`` stays light, and the read-only
peek imports ``default_user`` from here without it).
"""

from __future__ import annotations

import contextlib
import getpass
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from drill.errors import StoreError, StoreUpgradeNeeded

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Engine

    from drill.store.api import Store

FALLBACK_USER = "learner"
USER_NAME_MAX = 200  # users.name is String(200)


def default_user() -> str:
    """The login name (``getpass.getuser()``), or "learner" when there is none."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name (e.g. a container without a passwd entry)
        name = ""
    return name.strip() or FALLBACK_USER


def check_user_name(name: str) -> str:
    """The user name, stripped; StoreError when it is empty, too long for the users table, or holds control
    characters (names are printed in reports and the cohort view: they must not drive the terminal)."""
    name = name.strip()
    if not name:
        raise StoreError("--user must not be empty")
    if len(name) > USER_NAME_MAX:
        raise StoreError(f"--user is {len(name)} characters long; at most {USER_NAME_MAX}")
    from drill.content import control  # the one rule: controls and format (bidi, zero-width) characters

    bad = control.find(name)
    ch = bad.group() if bad is not None else next((c for c in name if c in "\t\n"), None)  # fine in content
    if ch is not None:
        raise StoreError(
            f"--user {control.visible(name)!r} contains the control character {control.describe(ch)}; "
            f"use printable text"
        )
    return name


def open_store(url: str | None = None, user: str | None = None, *, readonly: bool = False) -> Store:
    """Open (creating or migrating as needed) the progress database and return a Store for ``user``.

    ``url``: any SQLAlchemy URL; default ``$DRILL_DB_URL`` or else a SQLite file at
    ``drill.paths.default_db_path()`` (created on first run). ``user``: default the login name
    (``getpass.getuser()``, falling back to ``"learner"``). ``readonly``: never write (also chosen
    automatically when the database cannot be written; ``Store.readonly`` says which).

    At open: an integrity check before anything is written (SQLite, unless read-only): the whole file when
    drill did not leave it as it is, a crash left a -wal, or a week has passed, else a bounded one
    (drill.store.checking); pending Alembic migrations
    are applied after an automatic backup (only when an existing database needs migrating). Raises
    ``StoreError`` with a message that names the database and what to do (e.g. ``drill restore``) when it is
    corrupt or unusable.
    """
    from drill.store import engine as engines
    from drill.store import migrate
    from drill.store.api import Store
    from drill.store.locate import plan_target

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
    lock = None
    alone = False
    if db_file is not None and not readonly:
        from drill.store.locking import DatabaseLock

        if not existed:
            _refuse_silent_new_database(db_file)
        lock = DatabaseLock(db_file)
        try:  # whether another drill has it open (then a -wal is that drill's, not one a crash left)
            alone = lock.exclusive(wait_s=0.0)
        except StoreError:
            alone = False
        lock.shared()  # for the life of the Store: `drill restore` refuses while it is held

    engine = engines.make_engine(url)
    checked = None
    if lock is not None and db_file is not None and existed:
        from drill.store import checking

        checked = checking.decide(db_file, alone=alone)
    elif lock is not None and db_file is not None:  # a new file: nothing to check, checked from now on
        from drill.store.checking import Checked

        checked = Checked(db_file, None, datetime.now(UTC))
    try:
        with engines.translate_errors(where):
            revision, readonly = _prepare(engine, where, readonly, checked)
            if migrate.needs_upgrade(revision):
                migrate.check_known(revision, where)
                if readonly:
                    raise StoreUpgradeNeeded(
                        f"the progress database {where} needs an upgrade (schema {revision} -> "
                        f"{migrate.HEAD_REVISION}) but is read-only; open it once with write access"
                    )
                engine.dispose()  # the migration uses its own connection; no pooled one may hold old schema
                _upgrade(url, engine, where, db_file, lock, existed=existed and revision is not None)
            user_id, weights = _user_id(engine, user, readonly)
        store = Store(engine, url=url, where=where, user=user, user_id=user_id, readonly=readonly)
        if weights:  # the learner's own FSRS weights (`drill optimize`) schedule in place of the config's
            store.config = replace(store.config, parameters=tuple(float(w) for w in weights))
        store.lock = lock
        store.checked = None if readonly else checked
        if store.checked is not None:
            _close_at_exit(store)
        store.plan_target = plan_target(url)
        return store
    except BaseException:
        engine.dispose()
        if lock is not None:
            lock.release()
        raise


def _close_at_exit(store: Store) -> None:
    """A writing store its owner leaves open (the study screen's, the process ending with the app) is closed
    at exit, so that its clean close is recorded (drill.store.checking) and the next open checks a few pages,
    not the whole file. ``Store.close`` unregisters it."""
    import atexit
    import weakref

    ref = weakref.ref(store)

    def close() -> None:
        alive = ref()
        if alive is not None:
            alive.close()

    atexit.register(close)
    store.at_exit = close


def _upgrade(url: str, engine: Engine, where: str, db_file, lock, *, existed: bool) -> None:
    """Migrate to the head revision holding the exclusive lock (no other drill may write meanwhile); a
    drill that started at the same moment and migrated first makes this a no-op."""
    from drill.store import migrate

    def done() -> bool:
        with engines_connect(engine) as conn:
            return not migrate.needs_upgrade(migrate.current_revision(conn))

    if lock is not None and not lock.exclusive(wait_s=10.0, done=done):
        return
    try:
        if existed and db_file is not None:
            from drill.store.backup import make_backup

            make_backup(db_file, reason=f"before-{migrate.HEAD_REVISION}")
        try:
            migrate.upgrade(url)
        except (
            StoreError
        ) as err:  # e.g. a row the new constraints refuse (drill.store.checks): say which database
            raise StoreError(f"{where}: {err}", exit_code=err.exit_code) from None
    finally:
        if lock is not None:
            lock.shared()
        engine.dispose()


@contextlib.contextmanager
def engines_connect(engine: Engine):
    with engine.connect() as conn:
        try:
            yield conn
        finally:
            conn.rollback()
    engine.dispose()


def leftovers(db_file) -> list:
    """What says a database used to be at ``db_file``: its backups, a moved-aside file, an unfinished restore."""
    from pathlib import Path

    from drill.store.backup import list_backups

    db_file = Path(db_file)
    found = sorted(db_file.parent.glob(glob_escape(db_file.name) + ".replaced-*"))
    found += [p for p in [db_file.with_name(db_file.name + ".restoring")] if p.exists()]
    try:
        found += list_backups(db_file)[-1:]
    except OSError:
        pass
    return [p for p in found if not p.name.endswith(("-wal", "-shm"))]


def glob_escape(name: str) -> str:
    import glob

    return glob.escape(name)


def _refuse_silent_new_database(db_file) -> None:
    """A missing database where backups or restore leftovers exist is a lost database, not a first run."""
    found = leftovers(db_file)
    if found:
        raise StoreError(
            f"there is no progress database at {db_file}, but there was one: {', '.join(map(str, found[:3]))} "
            f"exist(s); run `drill restore` to bring back the latest backup (`drill restore --list`, "
            f"`drill restore FILE` for another), or move those files away to start afresh"
        )


def _prepare(engine: Engine, where: str, readonly: bool, checked=None) -> tuple[str | None, bool]:
    """Integrity check (``checked``: drill.store.checking's choice; None: the whole file), WAL, and the
    schema revision; decides read-only mode for unwritable files."""
    from drill.store import engine as engines
    from drill.store import migrate

    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            raw = conn.connection.driver_connection
            if not readonly:
                # Before anything may be written: writing onto damaged pages could spread the damage. The whole
                # file is read only when drill.store.checking says so (seconds for millions of reviews); an open
                # asked to be read-only (a report) skips it; damage a query meets is reported the same way
                # (engines.describe).
                statements = checked.statements(raw) if checked is not None else ("PRAGMA quick_check",)
                for statement in statements:
                    result = [row[0] for row in raw.execute(statement).fetchall()]
                    if result != ["ok"]:
                        raise StoreError(
                            engines.lost_wal_message(where)
                            or engines.corrupt_message(where) + f" (quick_check: {'; '.join(result[:3])})"
                        )
                if checked is not None:
                    checked.passed()
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


def _user_id(engine: Engine, name: str, readonly: bool) -> tuple[int | None, list | None]:
    """The user's row id, the row inserted when it is missing (None when it is missing and read-only), and
    the user's fitted FSRS weights (None: none fitted)."""
    from sqlalchemy import select

    from drill.store import engine as engines
    from drill.store.tables import insert_ignore, users_t

    by_name = select(users_t.c.id, users_t.c.fsrs_parameters).where(users_t.c.name == name)
    with engine.connect() as conn:
        found = conn.execute(by_name).first()
        conn.rollback()
    if found is not None:
        return found[0], found[1]
    if readonly:
        return None, None
    with engine.connect() as conn:
        conn = conn.execution_options(**engines.WRITE)
        with conn.begin():
            conn.execute(insert_ignore(engine, users_t).values(name=name, created_at=datetime.now(UTC)))
        found = conn.execute(by_name).one()
        conn.rollback()
    return found[0], found[1]
