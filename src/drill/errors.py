"""Errors a user can cause and fix: each carries a message that names what is wrong and where.

The CLI prints ``drill: error: <message>`` and exits with ``exit_code`` (2 by default); it never shows a
traceback for these. Every layer raises a subclass so callers can catch one type.
"""

from __future__ import annotations


class DrillError(Exception):
    """A user-facing error. ``str(err)`` is the whole message."""

    exit_code: int = 2

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class ContentError(DrillError):
    """A content file is invalid (the message names file, line and field)."""


class InputError(DrillError):
    """A command-line value or a matrix typed by the user is invalid (the message names the shape)."""


class StoreError(DrillError):
    """The progress database cannot be used as asked (corrupt, read-only, locked, disk full...)."""


class StoreUpgradeNeeded(StoreError):
    """The progress database must be migrated, but was opened read-only (a caller may reopen it writable)."""
