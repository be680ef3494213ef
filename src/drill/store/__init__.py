"""The progress store (SQLAlchemy 2.x): SQLite by default, any SQLAlchemy URL (PostgreSQL for cohorts).

``import drill.store`` stays light: SQLAlchemy is imported when a store is opened.
"""

from __future__ import annotations

from drill.store.opening import open_store

__all__ = ["open_store"]
