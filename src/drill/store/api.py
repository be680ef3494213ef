"""The progress store: one user's view of a SQLAlchemy database (SQLite by default, PostgreSQL for cohorts).

Contract (docs/architecture.md, "Scheduling and store"):

- Cards are named by their content id (the key of ``Library.cards``); ``sync_content`` maps them to rows.
- Every query is scoped to the store's user. Every datetime handed out is timezone-aware UTC; every datetime
  taken in must be timezone-aware.
- Each write is one short transaction (``BEGIN IMMEDIATE`` on SQLite) that has committed before the method
  returns; no transaction stays open between calls, so nothing that matters lives only in memory and a second
  drill on the same database can write between our grades.
- Failures the user can act on (corrupt, read-only, full disk, locked, newer schema) raise ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from drill.store.types import (
    BrowseRow,
    CardInfo,
    Counts,
    DueCard,
    GradeResult,
    QuizAnswerRecord,
    ReviewEntry,
    UndoResult,
)


def open_store(url: str | None = None, user: str | None = None, *, readonly: bool = False) -> Store:
    """Open (creating or migrating as needed) the progress database and return a Store for ``user``.

    ``url``: any SQLAlchemy URL; default ``$DRILL_DB_URL`` or else a SQLite file at
    ``drill.paths.default_db_path()`` (created on first run). ``user``: default the login name
    (``getpass.getuser()``, falling back to ``"learner"``). ``readonly``: never write (also chosen
    automatically when the database cannot be written; ``Store.readonly`` says which).

    At open: ``PRAGMA quick_check`` (SQLite); pending Alembic migrations are applied after an automatic
    backup (only when an existing database needs migrating). Raises ``StoreError`` with a message that
    names the database and what to do (e.g. ``drill restore``) when it is corrupt or unusable.
    """
    raise NotImplementedError


class Store:
    """One user's progress. Create with :func:`open_store`; close with :meth:`close` (or use ``with``)."""

    url: str  # the database URL with any password hidden
    user: str
    user_id: int
    readonly: bool

    # -- lifecycle -----------------------------------------------------------------------------------

    def close(self) -> None:
        """Dispose of the connection pool. Nothing is pending: every write has already committed."""
        raise NotImplementedError

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        raise NotImplementedError

    # -- study ---------------------------------------------------------------------------------------

    def next_card(self, now: datetime, section: str | None = None) -> DueCard | None:
        """The card to show at ``now``, or None when nothing is left today.

        Due learning/relearning/review cards first (earliest due first; review cards within the daily
        review limit), then new cards in content order within the daily new limit. Suspended, buried
        (until the next study day) and retired cards are never shown. ``section`` restricts to one section.
        """
        raise NotImplementedError

    def counts(self, now: datetime, section: str | None = None) -> Counts:
        """Due now / new available / done today, with the daily limits and the day-start hour applied."""
        raise NotImplementedError

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
        raise NotImplementedError

    def preview(self, card_id: str, now: datetime) -> dict[int, datetime]:
        """When the card would next be due for each rating, without writing anything."""
        raise NotImplementedError

    def undo_last(self) -> UndoResult | None:
        """Undo this user's latest grade: restore the card's exact state before it and delete its log row.

        Returns what was undone, or None when there is no grade to undo.
        """
        raise NotImplementedError

    def suspend(self, card_id: str) -> None:
        """Hide a card from study until unsuspended (its schedule is kept)."""
        raise NotImplementedError

    def unsuspend(self, card_id: str) -> None:
        """Return a suspended card to study (clears the leech suspension too; the leech tag stays)."""
        raise NotImplementedError

    def bury(self, card_id: str, now: datetime) -> None:
        """Hide a card until the start of the next study day."""
        raise NotImplementedError

    def make_due_now(self, card_ids: Iterable[str], now: datetime) -> int:
        """Make these (already studied) cards due at ``now`` (e.g. the cards of a failed quiz question).

        New cards stay new. Returns how many cards changed.
        """
        raise NotImplementedError

    # -- inspection ----------------------------------------------------------------------------------

    def card_info(self, card_id: str, now: datetime | None = None) -> CardInfo:
        """State, stability, difficulty, retrievability at ``now``, next due and the full history."""
        raise NotImplementedError

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
        raise NotImplementedError

    def review_logs(self, since: datetime | None = None) -> list[ReviewEntry]:
        """Every grade of this user in review order (for ``drill optimize`` and reports)."""
        raise NotImplementedError

    # -- quizzes and sessions ------------------------------------------------------------------------

    def record_quiz_attempt(
        self,
        started_at: datetime,
        finished_at: datetime | None,
        settings: dict[str, Any],
        answers: Iterable[QuizAnswerRecord],
    ) -> int:
        """Store one quiz attempt with its answers (score and total computed from them); returns its id."""
        raise NotImplementedError

    def start_session(self, now: datetime) -> int:
        """Open a study session row (committed at once) and return its id."""
        raise NotImplementedError

    def end_session(self, session_id: int, now: datetime) -> None:
        """Close a study session: set its end time and the number of grades given in it."""
        raise NotImplementedError
