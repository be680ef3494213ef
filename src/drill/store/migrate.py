"""Schema revisions: which one a database is at, and upgrading it with Alembic.

The scripts live inside the package (``drill/store/migrations``) so an installed drill finds them. Alembic
is imported only when a database must be created or upgraded; the usual start reads one row.

The whole upgrade is one transaction drill controls (see ``upgrade``). On SQLite every migration runs with
foreign keys OFF (a batch rebuild of a parent table would otherwise cascade-delete its children) inside one
``BEGIN IMMEDIATE`` transaction, and ``PRAGMA foreign_key_check`` must come back empty before it commits.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, text

from drill.errors import StoreError
from drill.store.models import HEAD_REVISION

SCRIPT_LOCATION = "drill.store:migrations"


def current_revision(conn: Connection) -> str | None:
    """The database's Alembic revision; None for an empty database. StoreError for a foreign one."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" not in tables:
        if tables & {"cards", "review_logs", "card_states"}:
            raise StoreError(
                "the database has drill-like tables but no schema revision; it was not made by drill"
            )
        return None
    rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(rows) != 1:
        raise StoreError(f"the database's schema revision table is damaged ({len(rows)} rows)")
    return rows[0]


def known_revisions() -> list[str]:
    """Every revision id shipped with this drill, oldest first (imports alembic)."""
    script = _script_directory()
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def script_head() -> str:
    return _script_directory().get_current_head()


def _script_directory():
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def alembic_config():
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


def needs_upgrade(revision: str | None) -> bool:
    return revision != HEAD_REVISION


def check_known(revision: str | None, where: str) -> None:
    if revision is None or revision == HEAD_REVISION:
        return
    if revision not in known_revisions():
        raise StoreError(
            f"the progress database {where} has schema revision {revision!r}, which this drill does not "
            f"know (it was written by a newer drill?); upgrade drill"
        )


def upgrade(url: str, target: str = "head") -> None:
    """Upgrade the database at ``url`` to ``target`` as one unit: every revision runs inside one transaction
    that drill opens and commits (``BEGIN IMMEDIATE`` on SQLite, where foreign keys are off meanwhile and
    ``PRAGMA foreign_key_check`` must come back empty before the commit). Alembic sees a transaction already
    begun and opens none of its own, so SQLite's per-revision commits (``transactional_ddl=False``) do not
    happen: a kill at any point leaves the old revision or the new one, never one in between."""
    _migrate(url, "upgrade", target)


def downgrade(url: str, target: str) -> None:
    """Take the database at ``url`` back to revision ``target``, as one unit like ``upgrade`` (drill never
    does this itself; the migration tests and a learner going back to an older drill do)."""
    _migrate(url, "downgrade", target)


def _migrate(url: str, direction: str, target: str) -> None:
    from alembic import command
    from sqlalchemy.pool import NullPool

    from drill.store.engine import WRITE, make_engine

    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            is_sqlite = engine.dialect.name == "sqlite"
            if is_sqlite:
                # Outside any transaction (PRAGMA foreign_keys is a no-op inside one).
                conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")
                conn = conn.execution_options(**WRITE)
            config = alembic_config()
            config.attributes["connection"] = conn
            with conn.begin():
                getattr(command, direction)(config, target)
                if is_sqlite:
                    violations = foreign_key_violations(conn)
                    if violations:  # raising rolls the whole upgrade back
                        raise StoreError(
                            f"the schema upgrade would leave dangling references {violations[:5]}; "
                            f"it was rolled back, nothing was changed"
                        )
    finally:
        engine.dispose()


def foreign_key_violations(conn: Connection) -> list[tuple]:
    return [tuple(row) for row in conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()]
