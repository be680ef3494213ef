"""The study screen's view of the world: content + store + clock, behind a few plain methods.

Built in a thread worker (it imports the content loader and sqlalchemy); afterwards every call is quick and is
made from the UI thread, so a grade is on disk before the next card is painted. No textual here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from drill.content.sections import section_key
from drill.i18n import N_
from drill.tui.options import AppOptions

if TYPE_CHECKING:
    from drill.content.models import Card, Check, Library
    from drill.srs import CardState, SrsConfig
    from drill.srs.deadline import Deadline
    from drill.srs.skillplan import PlanCard
    from drill.store import Store
    from drill.store.types import BrowseRow, CardInfo, Counts, DueCard, GradeResult, UndoResult
    from drill.tui.models.custom_study import CustomQueue

GRADE_NAMES = {1: N_("Again"), 2: N_("Hard"), 3: N_("Good"), 4: N_("Easy")}  # translated where shown
# The store's card states and flags (drill.store.types.BROWSE_STATES) as a learner reads them.
STATE_NAMES = {
    "new": N_("new"),
    "learning": N_("learning"),
    "review": N_("review"),
    "relearning": N_("relearning"),
    "suspended": N_("suspended"),
    "buried": N_("buried"),
    "leech": N_("leech"),
    "marked": N_("marked"),
}


@dataclass
class SessionStats:
    """What this sitting did, for the header and the end-of-session summary."""

    reviewed: int = 0
    again: int = 0
    new_seen: int = 0
    card_ids: list[str] = field(default_factory=list)

    @property
    def again_rate(self) -> float:
        return self.again / self.reviewed if self.reviewed else 0.0


def load_library(options: AppOptions, *, cached_only: bool = False) -> Library | None:
    """The content to study (from the JSON cache when it is fresh: no YAML parser), with --section checked.

    ``cached_only``: None unless the JSON cache is fresh — a few milliseconds, so the screen can call it
    on the UI thread (a thread worker's imports and reads crawl while the UI thread is busy: the GIL). For a
    plain session (no --section, no custom study) that is a `PartialLibrary`: the packs and each card's pack,
    id and section, read through their rules; `peek_first_card` reads the card it shows, and
    `open_study_session` every other record, before the session uses them.
    """
    library = options.library
    if library is None and cached_only:
        from drill.content.cache import PartialLibrary

        library = _cached_library(options, partial=options.section is None and options.study is None)
        if library is None or isinstance(library, PartialLibrary):
            return library
    if library is None:
        from drill.content import load_content

        library = load_content(options.content_path)
    if options.section is not None and not library.cards_in_section(options.section):
        from drill.errors import InputError

        sections = sorted({card.section for card in library.cards.values()}, key=section_key)
        raise InputError(
            f"--section {options.section}: no cards in that section (sections: {', '.join(sections)})"
        )
    if options.study is not None:
        options.study.check(library)
    return library


def _cached_library(options: AppOptions, *, partial: bool) -> Library | None:
    """`load_content`'s cache hit (every record, or with ``partial`` a `PartialLibrary`), its errata the ones
    in use, without its fallback to the YAML files."""
    try:
        from drill.content.loader import load_cached_content

        return load_cached_content(options.content_path, partial=partial)
    except Exception:
        return None


def peek_first_card(library: Library, options: AppOptions) -> Card | None:
    """The card the session will most likely start with, read without opening the store (no SQLAlchemy):
    `drill.store.peek` runs the store's own next-card SQL on a read-only connection, or (no database yet: a
    first-ever start) takes the first new card of the content. Only a preview: the session's own
    ``next_card`` decides, and nothing can be graded before it has. None when unsure. From a
    `PartialLibrary`, the one card it names is read (through its rules)."""
    if options.store is not None or options.study is not None:
        return None  # a store is already open (tests), or a custom session: ask the store
    from drill.content.cache import PartialLibrary
    from drill.store.peek import peek_next_card

    if isinstance(library, PartialLibrary):
        content = library.card_keys
        kinds = {item["id"]: item.get("kind", "qa") for item in library.entry.data["cards"]}
    else:
        content = [(card.pack, card.id, card.section) for card in library.cards.values()]
        kinds = {card.id: card.kind for card in library.cards.values()}
    packs = {pack.id for pack in library.packs} | {pack for pack, _id, _section in content}
    due = peek_next_card(
        options.clock(),
        packs=sorted(packs),
        section=options.section,
        user=options.user,
        db_url=options.db_url,
        content=content,
        kinds=kinds,
    )
    if due is None:
        return None
    if isinstance(library, PartialLibrary):
        library.take(due.card_id)
    return choose_card(library, due, SessionStats(), options)


def open_study_session(options: AppOptions, library: Library | None = None) -> StudySession:
    """Load the content (unless given) and open the store (slow imports; run in a worker thread). A
    `PartialLibrary` is completed here, every record read through its rules; one refused means the YAML."""
    from drill.content.cache import PartialLibrary
    from drill.content.loader import completed

    if isinstance(library, PartialLibrary):
        library = completed(library)
    if library is None:
        library = load_library(options)
    store = options.store
    if store is None:
        from drill.store import open_store

        store = open_store(options.db_url, options.user)
    store.sync_content(library)
    if options.store is None and options.study is None:
        from drill.store.peek import save_plan

        save_plan(store, options.section)  # so the next `drill study` can show its first card at once
    return StudySession(library, store, options)


def choose_card(
    library: Library, due: DueCard | None, stats: SessionStats, options: AppOptions
) -> Card | None:
    """The content Card for the store's choice ``due``, or None when the session is over (--limit, --new)."""
    if due is None:
        return None
    if options.limit is not None and stats.reviewed >= options.limit:
        return None
    # The session asks the store for no new card once --new is used up (learn-ahead cards still come); the
    # peek does not know this session's count, so a new card it names then is not this session's.
    if due.kind == "new" and options.new_limit is not None and stats.new_seen >= options.new_limit:
        return None
    return library.cards.get(due.card_id)


@dataclass(frozen=True)
class Waiting:
    """Learning cards due later today than learn-ahead reaches: the study screen waits for them (Anki's
    "learning cards due soon") instead of ending the session."""

    count: int  # how many
    first_due: datetime  # when the first falls due
    last_due: datetime  # when the last does
    first_id: str  # the card "show now" brings
    shown_at: datetime  # when the first comes by itself: its due less learn-ahead

    def minutes(self, now: datetime) -> int:
        """Minutes until the last of them is due (the "≤ M min"), at least 1."""
        return max(1, math.ceil((self.last_due - now) / timedelta(minutes=1)))


@dataclass
class InterviewStatus:
    """Days to the interview and each studied card's recall on the day if not reviewed again (the header's
    readiness, "if you stop now": its mean; the weakest skill by drill.srs.skillready on the same figure).
    Loaded once, then updated from each grade's new memory state."""

    day: date
    days_left: int
    deadline: Deadline
    recall: dict[str, float]
    config: SrsConfig
    cards: dict[str, PlanCard] = field(default_factory=dict)  # the studied cards the content knows, by id

    @classmethod
    def load(cls, store: Store, now: datetime, kinds: dict[str, str] | None = None) -> InterviewStatus | None:
        plan = store.interview_plan(now)
        if plan is None:
            return None
        from drill.srs.deadline import recall as recall_on
        from drill.srs.skillplan import PlanCard
        from drill.store.plans import deadline_of

        deadline = deadline_of(store, plan)
        rows = store.plan_cards()
        recall = {cid: recall_on(state, deadline.at, store.config) for cid, _s, state in rows}
        days_left = max(0, math.ceil((deadline.at - now) / timedelta(days=1)))
        kinds = kinds or {}
        cards = {
            cid: PlanCard(cid, kinds[cid], section, state) for cid, section, state in rows if cid in kinds
        }
        return cls(plan.interview_day, days_left, deadline, recall, store.config, cards)

    @property
    def readiness(self) -> float:
        return sum(self.recall.values()) / len(self.recall) if self.recall else 0.0

    @property
    def weakest(self) -> tuple[str, float] | None:
        """The skill with the lowest readiness on the day if the learner stops now (drill.srs.skillready: mean
        recall, a never-tried card 0), or None."""
        from drill.srs.skillready import skill_readiness, weakest

        at = self.deadline.at
        row = weakest(skill_readiness(list(self.cards.values()), at, self.config, day=at), "if_stopped")
        if row is None or row.if_stopped is None:
            return None
        return row.skill, row.if_stopped

    def graded(self, card_id: str, state: CardState) -> None:
        from dataclasses import replace

        from drill.srs.deadline import recall as recall_on

        if card_id in self.recall:
            self.recall[card_id] = recall_on(state, self.deadline.at, self.config)
        if card_id in self.cards:
            self.cards[card_id] = replace(self.cards[card_id], state=state)


class StudySession:
    def __init__(self, library: Library, store: Store, options: AppOptions) -> None:
        self.library = library
        self.store = store
        self.options = options
        self.stats = SessionStats()
        self.session_id = None
        self.readonly = bool(getattr(store, "readonly", False))
        self.queue: CustomQueue | None = None
        if options.study is not None and not options.study.is_plain:
            from drill.tui.models.custom_study import CustomQueue

            self.queue = CustomQueue(library, store, options.study)
        if not self.readonly and not self.preview:
            self.session_id = store.start_session(self.now())
        self.interview: InterviewStatus | None = None
        self.load_interview()

    # --- the interview day (drill plan) ---------------------------------------------------------------

    def load_interview(self) -> None:
        """Read the interview plan and every card's recall on the day (kept up to date grade by grade)."""
        kinds = {cid: card.kind for cid, card in self.library.cards.items()}
        self.interview = InterviewStatus.load(self.store, self.now(), kinds)

    def set_interview(self, day: date, target: float) -> int:
        moved = self.store.set_interview_plan(day, target, self.now())
        self.load_interview()
        return moved

    def clear_interview(self) -> int:
        restored = self.store.clear_interview_plan()
        self.load_interview()
        return restored

    def now(self) -> datetime:
        return self.options.clock()

    @property
    def preview(self) -> bool:
        """Preview (custom study): cards are shown and nothing is written, not even a session row."""
        return self.options.study is not None and self.options.study.mode == "preview"

    @property
    def mode(self) -> str | None:
        """The custom study mode ("due", "ahead", "forgotten", "preview"), None for today's schedule."""
        return None if self.queue is None else self.queue.study.mode

    @property
    def pack_title(self) -> str:
        return pack_title(self.library)

    # --- choosing cards -------------------------------------------------------------------------------

    def limit_reached(self) -> bool:
        limit = self.options.limit
        return limit is not None and self.stats.reviewed >= limit

    def next_card(self) -> Card | None:
        """The content Card to show next, or None when the session is over (nothing due, or --limit)."""
        if self.limit_reached():
            return None
        new = self.new_allowed()
        if self.queue is not None:
            return self.queue.next_card(self.now(), new=new)
        due = self.store.next_card(self.now(), section=self.options.section, new=new)
        return choose_card(self.library, due, self.stats, self.options)

    def new_allowed(self) -> bool:
        """Whether this session may still bring a new card (``--new N``): when not, the queue's rule goes on
        to the learn-ahead cards (drill.store.queue.choose)."""
        new_limit = self.options.new_limit
        return new_limit is None or self.stats.new_seen < new_limit

    def card(self, card_id: str) -> Card | None:
        return self.library.cards.get(card_id)

    def study_more(self, new: int, reviews: int) -> tuple[int, int]:
        """Study more today: ``new`` new cards and ``reviews`` reviews added to today's limits (the store
        keeps them for the study day); today's extras after it."""
        return self.store.study_more(self.now(), new, reviews)

    def waiting(self) -> Waiting | None:
        """When no card is left now: the learning and relearning cards of this session due later today (past
        learn-ahead), or None (nothing will come today: the session is over). Today's schedule only (plain, a
        section, or a custom study of it): review ahead, forgotten and preview have their own lists."""
        if self.limit_reached() or self.preview or (self.queue is not None and self.mode != "due"):
            return None
        from drill.srs import day_bounds
        from drill.srs.rules import learn_ahead

        now = self.now()
        _start, end = day_bounds(now, self.store.config.day_starts_at, self.store.tz)
        rows = self.store.browse(None, self.options.section, None, now=now)
        later = sorted(
            (row.due, row.card_id)
            for row in rows
            if row.kind.value in ("learning", "relearning")
            and row.due is not None
            and now < row.due < end
            and not row.suspended
            and not row.buried
            and row.card_id in self.library.cards
            and (self.queue is None or self.queue.study.matches(self.library.cards[row.card_id]))
        )
        if not later:
            return None
        first_due, first_id = later[0]
        ahead = learn_ahead(self.store.config)
        return Waiting(len(later), first_due, later[-1][0], first_id, first_due - ahead)

    def counts(self) -> Counts:
        counts = self.store.counts(self.now(), section=self.options.section)
        if self.queue is not None:
            return self.queue.counts(self.now(), counts.done_today)
        return counts

    # --- grading --------------------------------------------------------------------------------------

    def intervals(self, card_id: str) -> dict[int, timedelta]:
        """What each grade would do: rating -> interval from now."""
        now = self.now()
        return {int(rating): due - now for rating, due in self.store.preview(card_id, now).items()}

    def grade(self, card_id: str, rating: int, duration_ms: int | None) -> GradeResult:
        result = self.store.grade(card_id, rating, self.now(), duration_ms, session_id=self.session_id)
        self.stats.reviewed += 1
        self.stats.card_ids.append(card_id)
        if rating == 1:
            self.stats.again += 1
        if result.outcome.before.is_new:
            self.stats.new_seen += 1
        if self.interview is not None:
            self.interview.graded(card_id, result.outcome.after)
        if self.queue is not None:
            self.queue.shown(card_id)
        return result

    def skip(self, card_id: str) -> None:
        """Preview: the card was looked at; nothing is written, the next one comes."""
        self.stats.card_ids.append(card_id)
        self.stats.new_seen += 1  # preview shows new cards only
        if self.queue is not None:
            self.queue.shown(card_id)

    def undo(self) -> UndoResult | None:
        """Undo the last action (grade, suspend, bury...); returns the undo result (its card_id is shown
        again) or None."""
        result = self.store.undo_last()
        if result is not None and self.interview is not None:
            self.load_interview()
        if result is not None and result.action == "grade" and self.stats.reviewed:
            self.stats.reviewed -= 1
            if result.rating == 1:
                self.stats.again = max(0, self.stats.again - 1)
            if self.stats.card_ids and self.stats.card_ids[-1] == result.card_id:
                self.stats.card_ids.pop()
        return result

    def suspend(self, card_id: str) -> None:
        self.store.suspend(card_id)

    def bury(self, card_id: str) -> None:
        self.store.bury(card_id, self.now())

    def marks(self, card_id: str) -> tuple[int, bool]:
        """The card's flag (drill.store.types.FLAGS) and whether it is marked."""
        return self.store.card_marks(card_id)

    def set_flag(self, card_id: str, flag: int) -> None:
        self.store.set_flag(card_id, flag)

    def toggle_mark(self, card_id: str) -> bool:
        return self.store.toggle_mark(card_id)

    def card_info(self, card_id: str) -> CardInfo:
        return self.store.card_info(card_id, self.now())

    def browse(self, text: str = "", section: str | None = None, state: str | None = None) -> list[BrowseRow]:
        """The browser's rows. ``text``: words each card's id, section, question, answer or tags must hold, and
        Anki's ``flag:N`` (0: no flag, 1-7 a colour) and ``tag:marked`` (the store matches those)."""
        # The store matches ids and sections only; the question and answer text live in the Library.
        flag, marked, needle = search_terms(text)
        rows = self.store.browse(None, section, state, now=self.now(), flag=flag)
        if marked:
            rows = [row for row in rows if row.marked]
        if not needle:
            return list(rows)
        return [row for row in rows if needle in self._haystack(row.card_id)]

    def _haystack(self, card_id: str) -> str:
        card = self.library.cards.get(card_id)
        if card is None:
            return card_id.lower()
        return " ".join((card.id, card.section, card.question, card.answer, " ".join(card.tags))).lower()

    def sections(self) -> list[str]:
        return sorted({card.section for card in self.library.cards.values()}, key=section_key)

    # --- errata ---------------------------------------------------------------------------------------

    def errata_checks(self, card_id: str) -> list[Check]:
        return [check for check in self.library.checks if check.card == card_id and check.erratum]

    def close(self) -> None:
        if self.session_id is not None:
            session_id, self.session_id = self.session_id, None
            self.store.end_session(session_id, self.now())


FLAG_TERM = re.compile(r"(?<!\S)flag:([0-7])(?!\S)", re.IGNORECASE)
MARKED_TERM = re.compile(r"(?<!\S)tag:marked(?!\S)", re.IGNORECASE)


def search_terms(text: str) -> tuple[int | None, bool, str]:
    """(the ``flag:N`` asked for, whether ``tag:marked`` is, the rest of the search, lower-cased)."""
    found = FLAG_TERM.findall(text)
    rest = FLAG_TERM.sub(" ", text)
    marked = MARKED_TERM.search(rest) is not None
    rest = MARKED_TERM.sub(" ", rest)
    if not found and not marked:
        return None, False, text.strip().lower()
    return (int(found[-1]) if found else None), marked, " ".join(rest.split()).lower()


def pack_title(library: Library) -> str:
    return " + ".join(pack.id for pack in library.packs) or "no pack"
