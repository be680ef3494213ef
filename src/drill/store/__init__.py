"""The progress store (SQLAlchemy 2.x): SQLite by default, any SQLAlchemy URL (PostgreSQL for cohorts).

``import drill.store`` stays light: SQLAlchemy is imported when a store is opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store


def open_store(url: str | None = None, user: str | None = None, *, readonly: bool = False) -> Store:
    """See :func:`drill.store.api.open_store`."""
    from drill.store.api import open_store as _open

    return _open(url, user, readonly=readonly)


__all__ = ["open_store"]
