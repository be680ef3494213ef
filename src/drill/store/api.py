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

``Store`` is the one public face; the work is done by one module per concern: ``opening`` (open_store, the
user), ``sync`` (content), ``queue`` (next card, counts), ``reviewing`` (grade, undo, preview, flags),
``browsing`` (browse, card info, review log) and ``sessions`` (quiz attempts, study sessions).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, select

from drill.errors import StoreError
from drill.srs import SrsConfig, load_config
from drill.store import (
    browsing,
    code_attempts,
    fitting,
    interviews,
    plans,
    queue,
    reviewing,
    sessions,
    sync,
    undoing,
)
from drill.store import engine as engines
from drill.store.tables import cards_t, users_t
from drill.store.types import (
    BrowseRow,
    CardInfo,
    Counts,
    DueCard,
    QuizAnswerRecord,
    ReviewEntry,
    UndoResult,
)

__all__ = ["Store"]


class Store:
    """One user's progress. Create with :func:`drill.store.open_store`; close with :meth:`close` (or use ``with``).

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
        # read-only: (pack, content id, section, position) of the synced content's cards the table lacks
        self.unsynced: list[tuple[str, str, str, int]] = []
        self._statements: dict[Any, Any] = {}
        self._deadline: tuple[Any, ...] | None = None  # (the plan's Deadline or None,), loaded on first use
        self._undo: list = []  # drill.store.undoing.Action records of this session, newest last
        self.lock = None  # drill.store.locking.DatabaseLock held while this (writing, SQLite) store is open
        # drill.store.checking.Checked of a writing SQLite open: records a clean close
        self.checked: Any = None
        self.at_exit: Callable[[], None] | None = None  # closes this store at exit (drill.store.opening)
        # (file, database) of the next-card peek's plan (drill.store.locate), set by open_store
        self.plan_target: tuple[Any, str] | None = None

    # -- lifecycle and plumbing shared by the concern modules ----------------------------------------

    def close(self) -> None:
        """Dispose of the connection pool. Nothing is pending: every write has already committed."""
        self._engine.dispose()
        if self.checked is not None:
            self.checked.closed()  # the file as drill leaves it: the next open needs no whole-file check
            self.checked = None
        if self.at_exit is not None:
            import atexit

            atexit.unregister(self.at_exit)
            self.at_exit = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None

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
    def is_sqlite(self) -> bool:
        return self._engine.dialect.name == "sqlite"

    @property
    def packs(self) -> tuple[str, ...] | None:
        """The packs being studied (set by ``sync_content``); None means every pack in the database."""
        return self._packs

    @contextlib.contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """One short transaction: committed on success, rolled back on error; never left open."""
        if write and self.readonly:
            raise StoreError(
                f"the progress database {self.where} is open read-only: progress cannot be saved"
            )
        with engines.translate_errors(self.where):
            with self._engine.connect() as conn:
                if write:
                    conn = conn.execution_options(**engines.WRITE)
                with conn.begin():
                    if write and not self.is_sqlite:
                        # Serialise this user's writers (two terminals): the second waits for the first.
                        conn.execute(
                            select(users_t.c.id).where(users_t.c.id == self.user_id).with_for_update()
                        )
                    yield conn

    def statement(self, key: Any, build: Callable[[], Any]) -> Any:
        """``build()``'s statement(s), built once per store and set of packs (``sync_content`` starts over):
        building SQLAlchemy statements costs more than running the queue's indexed queries."""
        found = self._statements.get(key)
        if found is None:
            found = self._statements[key] = build()
        return found

    def card_query(self) -> Any:
        """``card_row``'s lookup (parameter ``content_id``): (id, pack, section) of the content id's card among
        the studied packs, a live card before a retired one; ``reviewing`` extends it with the state row."""
        query = select(cards_t.c.id, cards_t.c.pack, cards_t.c.section).where(
            cards_t.c.content_id == bindparam("content_id")
        )
        if self._packs is not None:  # (pack, content_id) is the unique index: name the packs to use it
            query = query.where(queue.in_packs(cards_t.c.pack, self._packs))
        return query.order_by(cards_t.c.retired, cards_t.c.id).limit(1)

    def card_row(self, conn: Connection, card_id: str) -> tuple[int, str, str]:
        """(row id, pack, section) of a content id among the studied packs; StoreError when unknown."""
        found = self._ids.get(card_id)
        if found is not None:
            return found
        row = conn.execute(self.statement(("card_row",), self.card_query), {"content_id": card_id}).first()
        return self.found_card(card_id, row)

    def known_card(self, card_id: str) -> tuple[int, str, str] | None:
        """``card_row``'s answer when it is known without a query (the lookup is kept until ``sync_content``)."""
        return self._ids.get(card_id)

    def found_card(self, card_id: str, row: Any) -> tuple[int, str, str]:
        """Remember a row of ``card_query`` (or one that extends it) for ``card_id``; StoreError for no row."""
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
        items, packs = sync.content_items(library_or_cards)
        self._packs = tuple(sorted(packs))
        self._ids.clear()
        self._statements.clear()
        self.unsynced = []
        return sync.sync_cards(self, items, sync.content_kinds(library_or_cards))

    # -- the queue -----------------------------------------------------------------------------------

    def next_card(self, now: datetime, section: str | None = None, *, new: bool = True) -> DueCard | None:
        """The card to show at ``now``, or None when nothing is left today.

        Due learning/relearning/review cards first (earliest due first; review cards within the daily
        review limit), then new cards in the new-card order (drill.srs.mix: the ``new_order`` setting) within
        the daily new limit; when none is left, a learning card due within ``learn_ahead_minutes`` (Anki's
        learn-ahead). Suspended, buried (until the next study day) and retired cards are never shown.
        ``section`` restricts to one section; ``new=False`` leaves new cards out (a session's ``--new N`` is
        used up: learn-ahead cards still come). The choice is `drill.store.queue.choose`, shared with the
        read-only first-card peek and custom study.
        """
        return queue.next_card(self, now, section, new=new)

    def counts(self, now: datetime, section: str | None = None) -> Counts:
        """Due now / new available / done today, with the daily limits and the day-start hour applied."""
        return queue.counts(self, now, section)

    def study_more(self, now: datetime, new: int = 0, reviews: int = 0) -> tuple[int, int]:
        """Study more today: add ``new`` new cards and ``reviews`` reviews to the limits of ``now``'s study
        day (drill.store.extras); returns the day's extras after it (extra new, extra reviews)."""
        from drill.store.extras import study_more

        return study_more(self, now, new, reviews)

    # -- reviewing -----------------------------------------------------------------------------------

    # grade(card_id, rating, now, ...): reviewing.grade_in's parameters but the connection, in a write
    # transaction of its own (its docstring says what is written and what it raises)
    grade = reviewing.grade

    def preview(self, card_id: str, now: datetime) -> dict[int, datetime]:
        """When the card would next be due for each rating, without writing anything."""
        return reviewing.preview(self, card_id, now)

    def undo_last(self) -> UndoResult | None:
        """Undo this session's latest action of any kind — a grade, suspend, unsuspend, bury, unbury, make-due
        or reset — writing back exactly what it changed (``drill.store.undoing``); with none this session,
        the user's latest grade.

        A grade's undo restores the card's exact state before it and deletes its log row (its study_day
        and first_of_day go with it, and its share of the day totals and retention counters is taken
        back). Returns what was undone, or None when there is nothing to undo.
        """
        return reviewing.undo_last(self)

    def suspend(self, card_id: str) -> None:
        """Hide a card from study until unsuspended (its schedule is kept)."""
        reviewing.set_flags(self, card_id, action=undoing.SUSPEND, suspended=True)

    def unsuspend(self, card_id: str) -> None:
        """Return a suspended card to study (clears the leech suspension too; the leech tag stays)."""
        reviewing.set_flags(self, card_id, action=undoing.UNSUSPEND, suspended=False)

    def bury(self, card_id: str, now: datetime) -> None:
        """Hide a card until the start of the next study day."""
        reviewing.bury(self, card_id, now)

    def unbury(self, card_id: str) -> None:
        """Return a buried card to today's study."""
        reviewing.set_flags(self, card_id, action=undoing.UNBURY, buried_until=None)

    def bulk(self, action: str, card_ids: Iterable[str], now: datetime) -> None:
        """Suspend, unsuspend, bury or unbury (``action``: "suspend" … "unbury") several cards in one
        transaction; one ``undo_last`` takes them all back. An unknown id refuses the lot (StoreError)."""
        reviewing.bulk(self, action, card_ids, now)

    def reset(self, card_id: str) -> None:
        """Make a card new again: its schedule, suspension, burial and leech tag go (its review history, flag
        and mark stay, as Anki's Forget keeps them). Undoable."""
        reviewing.set_flags(self, card_id, action=undoing.RESET, **undoing.reset_values())

    def set_flag(self, card_id: str, flag: int) -> None:
        """Set Anki's colour flag on a card (drill.store.types.FLAGS: 0 removes it, 1-7 a colour). Undoable."""
        reviewing.set_flag(self, card_id, flag)

    def card_marks(self, card_id: str) -> tuple[int, bool]:
        """The card's flag (0 none, 1-7) and whether it is marked."""
        return browsing.card_marks(self, card_id)

    def toggle_mark(self, card_id: str) -> bool:
        """Mark a card, or unmark a marked one (Anki's "marked" tag); returns whether it is marked now. Undoable."""
        return reviewing.toggle_mark(self, card_id)

    def make_due_now(self, card_ids: Iterable[str], now: datetime) -> int:
        """Make these (already studied) cards due at ``now`` (e.g. the cards of a failed quiz question).

        New cards stay new. Returns how many cards changed.
        """
        return reviewing.make_due_now(self, card_ids, now)

    # -- browsing ------------------------------------------------------------------------------------

    def card_info(self, card_id: str, now: datetime | None = None) -> CardInfo:
        """State, stability, difficulty, retrievability at ``now``, next due and the full history."""
        return browsing.card_info(self, card_id, now)

    def browse(
        self,
        text: str | None = None,
        section: str | None = None,
        state: str | None = None,
        *,
        now: datetime | None = None,
        limit: int | None = None,
        flag: int | None = None,
    ) -> list[BrowseRow]:
        """Cards of the active packs with their state. ``text`` matches the content id or section
        (content text lives in the Library, so the TUI filters on text itself); ``state`` is one of
        ``drill.store.types.BROWSE_STATES``; ``flag`` one of ``FLAGS`` (0: cards without a flag)."""
        return browsing.browse(self, text, section, state, now=now, limit=limit, flag=flag)

    def fit_history(self) -> Iterator[tuple[int, int, int, str]]:
        """Every grade in the order given, streamed (``drill optimize``): (card id, rating, study day, state
        before the grade)."""
        return fitting.grades_in_order(self)

    def grade_count(self) -> int:
        """How many grades this user has given."""
        return fitting.grade_count(self)

    def learner_parameters(self) -> tuple[float, ...] | None:
        """This learner's FSRS weights fitted by ``drill optimize`` (None: none; the config's apply)."""
        return fitting.learner_parameters(self)

    def save_learner_parameters(self, parameters: tuple[float, ...] | None) -> None:
        """Save this learner's fitted FSRS weights (None: remove them); ``config`` uses them from now on."""
        fitting.save_parameters(self, parameters)

    def review_logs(self, since: datetime | None = None) -> list[ReviewEntry]:
        """Every grade of this user in review order (for ``drill optimize`` and reports)."""
        return browsing.review_logs(self, since)

    # -- interview day -------------------------------------------------------------------------------

    def interview_plan(self, now: datetime) -> plans.Plan | None:
        """The user's interview plan (``drill plan``), or None; a plan whose day has begun is cleared."""
        return plans.current(self, now)

    def set_interview_plan(self, interview_day: Any, target: float, now: datetime) -> int:
        """Set or move the interview day; returns how many card dues the plan pulled in before it."""
        return plans.set_plan(self, interview_day, target, now)

    def clear_interview_plan(self) -> int:
        """Remove the plan; returns how many card dues went back to FSRS's own."""
        return plans.clear(self)

    def plan_cards(self, packs: Collection[str] | None = None) -> list[tuple[str, str, Any]]:
        """(content id, section, drill.srs.CardState) of every studied card (of ``packs`` when given), for
        readiness figures."""
        return plans.card_states(self, packs)

    def review_durations(self) -> list[tuple[str, int]]:
        """(content id, ms) of every timed grade of a studied card (``plans.review_durations``)."""
        return plans.review_durations(self)

    def deadline(self, conn: Connection | None = None) -> Any:
        """The plan's ``drill.srs.deadline.Deadline`` for grading, or None (cached; reloaded after a change);
        read with ``conn`` when given (a grade's own transaction), else in a transaction of its own."""
        if self._deadline is None:
            with contextlib.nullcontext(conn) if conn is not None else self.transaction() as reading:
                self._deadline = (plans.deadline_of(self, plans.load(self, reading)),)
        return self._deadline[0]

    def plan_changed(self) -> None:
        self._deadline = None

    # -- quizzes and sessions ------------------------------------------------------------------------

    def record_quiz_answer(
        self,
        attempt_id: int | None,
        answer: QuizAnswerRecord,
        *,
        started_at: datetime | None = None,
        settings: dict[str, Any] | None = None,
    ) -> int:
        """Save one quiz answer as it is given (one commit; the attempt is made with the first answer, from
        ``started_at`` and ``settings``); returns the attempt's id."""
        return sessions.record_quiz_answer(self, attempt_id, answer, started_at=started_at, settings=settings)

    def finish_quiz_attempt(self, attempt_id: int, finished_at: datetime) -> None:
        """Mark an attempt finished (the score screen); an attempt never finished was quit part-way."""
        sessions.finish_quiz_attempt(self, attempt_id, finished_at)

    def record_quiz_attempt(
        self,
        started_at: datetime,
        finished_at: datetime | None,
        settings: dict[str, Any],
        answers: Iterable[QuizAnswerRecord],
    ) -> int:
        """Store one quiz attempt with its answers (score and total computed from them); returns its id."""
        return sessions.record_quiz_attempt(self, started_at, finished_at, settings, answers)

    def start_session(self, now: datetime) -> int:
        """Open a study session row (committed at once) and return its id."""
        return sessions.start_session(self, now)

    def end_session(self, session_id: int, now: datetime) -> None:
        """Close a study session: set its end time and the number of grades given in it."""
        sessions.end_session(self, session_id, now)

    # -- drill code ----------------------------------------------------------------------------------

    def record_code_attempt(self, task: str, code: str, ran_at: datetime, **outcome: Any) -> int:
        """Save one `drill code` run (code, seed, backend, passed/total, mistakes, results, times); its id."""
        return code_attempts.record_attempt(self, task, code, ran_at, **outcome)

    def code_attempts(self, task: str | None = None, limit: int | None = None) -> list:
        """The user's code attempts, newest first (CodeAttemptRecord)."""
        return code_attempts.attempts(self, task, limit)

    def last_code_attempt(self, task: str):
        return code_attempts.last_attempt(self, task)

    def record_solution_view(self, task: str, now: datetime, reason: str) -> None:
        """Record that a task's reference solution is shown ("passed" or "asked"), before it is shown."""
        code_attempts.record_solution_view(self, task, now, reason)

    def may_show_solution(self, task: str) -> bool:
        return code_attempts.may_show_solution(self, task)

    def code_status(self) -> dict:
        """Per touched task: attempts, passed ever, the last run, solution seen (CodeTaskStatus)."""
        return code_attempts.status(self)

    # -- drill interview -----------------------------------------------------------------------------

    def start_interview(self, started_at: datetime, settings: dict[str, Any]) -> int:
        """Open a mock interview's row (committed at once); its id for the answers."""
        return interviews.start(self, started_at, settings)

    def record_interview_answer(self, interview_id: int, answer: interviews.InterviewAnswerRecord) -> int:
        """Save one question's scorecard row alone (no grade is given: ``grade_interview_answer`` does both)."""
        return interviews.record_answer(self, interview_id, answer)

    def grade_interview_answer(
        self, interview_id: int, answer: interviews.InterviewAnswerRecord, *, due_cap: timedelta | None = None
    ) -> interviews.InterviewAnswerRecord:
        """Grade the answer's card and save its scorecard row in one transaction (``interviews.grade_answer``);
        the saved record, with its ``review_log_id``."""
        return interviews.grade_answer(self, interview_id, answer, due_cap=due_cap)

    def finish_interview(self, interview_id: int, finished_at: datetime) -> None:
        interviews.finish(self, interview_id, finished_at)

    def interview_history(self, limit: int | None = None) -> list[interviews.InterviewRecord]:
        """The user's mock interviews, newest first, with their answers."""
        return interviews.interviews(self, limit)
