"""Alembic environment for drill's progress store.

drill runs migrations itself (drill.store.migrate) and hands the connection over in
``config.attributes["connection"]``; batch mode is on so ALTERs work on SQLite by rebuilding tables.
"""

from __future__ import annotations

from alembic import context

from drill.store.models import metadata

config = context.config


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # `alembic` used by hand: connect to the URL from the config
        from drill.store.engine import make_engine

        engine = make_engine(config.get_main_option("sqlalchemy.url"))
        with engine.connect() as connection:
            _run(connection)
        engine.dispose()
        return
    _run(connection)


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Two drills starting at once on a fresh database: the second waits here, then finds the
            # schema current (alembic reads the revision after this lock) and does nothing.
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(73517001)")
        context.run_migrations()
        # drill.store.migrate.upgrade checks PRAGMA foreign_key_check before it commits the whole upgrade.


if context.is_offline_mode():  # pragma: no cover
    raise SystemExit("drill's migrations run online only")
run_migrations_online()
