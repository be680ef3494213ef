"""Custom study, as Anki's filtered decks: which cards a session shows when it is not (only) today's schedule.

- ``StudyFilter`` — what `drill study --section/--tag/--kind/--ahead/--forgotten/--preview` (and the study
  screen's custom-study dialog) ask for: content filters (sections, tags, kinds; any of each) and a mode:
  ``due`` (today's schedule, limits applied, only these cards), ``ahead`` (cards due within N days, earliest
  first: a review ahead), ``forgotten`` (cards answered Again today), ``preview`` (new cards shown without
  scheduling them: nothing is written).
- ``CustomQueue`` — serves such a session's cards from the store's card rows (`Store.browse`) and the day's
  review log. Every grade goes through `Store.grade` like any other: FSRS schedules it with the time that
  really elapsed (an early review counts as one; docs/custom-study.md says why).

No textual here; the queue is built in the study screen's loading worker and asked on the UI thread (one query
per card, as `Store.next_card`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from drill.content.sections import section_key
from drill.i18n import N_, _

if TYPE_CHECKING:
    from drill.content.models import Card, Library
    from drill.store import Store
    from drill.store.types import BrowseRow, Counts

DEFAULT_KIND = "qa"  # a card without a kind of its own: a question and its answer
MODES = ("due", "ahead", "forgotten", "preview")
# What the header says a custom session is (translated where shown).
MODE_NAMES = {
    "due": N_("custom study"),
    "ahead": N_("review ahead"),
    "forgotten": N_("forgotten today"),
    "preview": N_("preview: nothing is saved"),
}


def card_kind(card: Card) -> str:
    """A card's kind (question/answer unless the content says otherwise): the one place it is read."""
    return getattr(card, "kind", None) or DEFAULT_KIND


@dataclass(frozen=True)
class StudyFilter:
    sections: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    mode: str = "due"
    ahead_days: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown custom study mode {self.mode!r} (known: {', '.join(MODES)})")

    def matches(self, card: Card) -> bool:
        return (
            (not self.sections or card.section in self.sections)
            and (not self.tags or any(tag in card.tags for tag in self.tags))
            and (not self.kinds or card_kind(card) in self.kinds)
        )

    @property
    def single_section(self) -> str | None:
        """The one section of a plain `--section S` session (served by the store's own queue), else None."""
        if self.mode == "due" and len(self.sections) == 1 and not self.tags and not self.kinds:
            return self.sections[0]
        return None

    @property
    def is_plain(self) -> bool:
        """Today's schedule, unfiltered or one section: the store's queue, no custom queue needed."""
        return self.mode == "due" and not self.tags and not self.kinds and len(self.sections) <= 1

    def check(self, library: Library) -> None:
        """Refuse values that match nothing in the content (InputError naming the option and what exists)."""
        from drill.errors import InputError

        cards = list(library.cards.values())
        for option, wanted, known in (
            ("--section", self.sections, {card.section for card in cards}),
            ("--tag", self.tags, {tag for card in cards for tag in card.tags}),
            ("--kind", self.kinds, {card_kind(card) for card in cards}),
        ):
            for value in wanted:
                if value not in known:
                    listed = ", ".join(sorted(known, key=section_key))
                    message = _("{option} {value}: no cards have it (known: {listed})")
                    raise InputError(message.format(option=option, value=value, listed=listed))
        if not any(self.matches(card) for card in cards):
            raise InputError(_("--section/--tag/--kind: no card matches all of them"))


class CustomQueue:
    """The cards of a custom session, in order: one `Store.browse` per question, filtered here."""

    def __init__(self, library: Library, store: Store, study: StudyFilter) -> None:
        self.library = library
        self.store = store
        self.study = study
        self.order = {card_id: i for i, card_id in enumerate(library.cards)}
        self.seen: set[str] = set()  # shown once per session (forgotten, preview)
        self._forgotten: list[str] | None = None

    def _rows(self, now: datetime) -> list[BrowseRow]:
        rows = []
        for row in self.store.browse(now=now):
            card = self.library.cards.get(row.card_id)
            if card is not None and not row.suspended and not row.buried and self.study.matches(card):
                rows.append(row)
        return rows

    def _candidates(self, now: datetime) -> tuple[list[BrowseRow], list[BrowseRow]]:
        """(due or ahead cards, earliest first; new cards in content order) for this mode."""
        from drill.srs import remaining_today

        rows = self._rows(now)
        mode = self.study.mode
        new = sorted((r for r in rows if r.kind.value == "new"), key=lambda r: self.order[r.card_id])
        studied = sorted(
            (r for r in rows if r.kind.value != "new" and r.due is not None), key=lambda r: r.due
        )
        if mode == "preview":
            return [], [r for r in new if r.card_id not in self.seen]
        if mode == "forgotten":
            order = {card_id: i for i, card_id in enumerate(self.forgotten(now)) if card_id not in self.seen}
            rows = [r for r in studied if r.card_id in order]
            return sorted(rows, key=lambda r: order[r.card_id]), []
        if mode == "ahead":
            until = now + timedelta(days=self.study.ahead_days)
            return [r for r in studied if r.due <= until], []
        counts = self.store.counts(now)
        new_left, reviews_left = remaining_today(
            counts.new_today, counts.reviews_today, self.store.config, counts.extra_new, counts.extra_reviews
        )
        due = [r for r in studied if r.due <= now]
        learning = [r for r in due if r.kind.value != "review"]
        reviews = [r for r in due if r.kind.value == "review"][:reviews_left]
        return sorted(learning + reviews, key=lambda r: r.due), new[:new_left]

    def _ahead(self, now: datetime) -> list[BrowseRow]:
        """Learning and relearning cards of this choice due within learn-ahead (drill.srs.rules.learn_ahead),
        earliest first."""
        from drill.srs.rules import learn_ahead

        until = now + learn_ahead(self.store.config)
        ahead: list[tuple[datetime, int, BrowseRow]] = []
        for i, row in enumerate(self._rows(now)):
            if row.kind.value in ("learning", "relearning") and row.due is not None and row.due <= until:
                ahead.append((row.due, i, row))
        return [row for _due, _i, row in sorted(ahead)]

    def forgotten(self, now: datetime) -> list[str]:
        """Cards answered Again since the study day began, first forgotten first (read once per session)."""
        if self._forgotten is None:
            from drill.srs import day_bounds

            start, _end = day_bounds(now, self.store.config.day_starts_at, self.store.tz)
            ids: dict[str, None] = {}
            for entry in self.store.review_logs(since=start):
                if entry.rating == 1:
                    ids.setdefault(entry.card_id)
            self._forgotten = list(ids)
        return self._forgotten

    def next_card(self, now: datetime, *, new: bool = True) -> Card | None:
        """The next card, or None when the session is done; ``new``: whether a new card may come (--new)."""
        from drill.store.queue import choose

        due, new_rows = self._candidates(now)
        if self.study.mode != "due":  # review ahead, forgotten, preview: their own list, in order
            first = due[0] if due else (new_rows[0] if new and new_rows else None)
            return None if first is None else self.library.cards.get(first.card_id)

        def row(r: BrowseRow) -> tuple:
            return (r.card_id, r.pack, r.section, r.kind.value, r.due, r.reps, r.lapses)

        def first_due(include_reviews: bool) -> tuple | None:
            rows = [r for r in due if include_reviews or r.kind.value != "review"]
            return row(rows[0]) if rows else None

        def first_ahead(_ahead: timedelta) -> tuple | None:
            rows = self._ahead(now)
            return row(rows[0]) if rows else None

        # Today's schedule on these cards: the store's rule (due, then new within the limits, then learn-ahead);
        # _candidates already applied the daily limits, so choose is given none used.
        chosen = choose(
            {},
            self.store.config,
            first_due,
            lambda: row(new_rows[0]) if new and new_rows else None,
            first_ahead,
        )
        return None if chosen is None else self.library.cards.get(chosen.card_id)

    def shown(self, card_id: str) -> None:
        """A card of a show-once mode (forgotten, preview) was answered: not shown again this session."""
        if self.study.mode in ("forgotten", "preview"):
            self.seen.add(card_id)

    def counts(self, now: datetime, done_today: int) -> Counts:
        from drill.store.types import Counts

        due, new = self._candidates(now)
        learning = sum(1 for r in due if r.kind.value != "review")
        review = len(due) - learning
        later = [r.due for r in self._rows(now) if r.due is not None and r.due > now]
        return Counts(
            due=len(due),
            new=len(new),
            done_today=done_today,
            new_today=0,
            reviews_today=0,
            next_due=min(later) if later else None,
            learning=learning,
            review=review,
        )


def why_nothing(
    mode: str | None,
    counts: Counts,
    config: Any,
    *,
    ahead_days: int | None = None,
    new_limit: int | None = None,
    new_seen: int = 0,
) -> str:
    """Why a session (today's schedule, a custom study, ``--new N``) has no card to show, and what to press;
    "" when there is nothing more to say. ``counts``: the store's counts for today (``new_today`` counted)."""
    custom = _("press c for another custom study")
    if mode == "ahead":
        return _("No card is due within the next {days} days; {what}.").format(days=ahead_days, what=custom)
    if mode == "forgotten":
        return _("No card was answered Again today; {what}.").format(what=custom)
    if mode == "preview":
        return _("No new card is left to preview in this choice; {what}.").format(what=custom)
    if new_limit is not None and new_seen >= new_limit:
        return _("--new {n}: this session's new cards are done; run drill study --new N for more.").format(
            n=new_limit
        )
    if counts.new_held:  # new cards are left that today's limit holds back
        return _(
            "Today's new cards are done ({limit} a day, {extra} added today); press + to study more today "
            "(or run drill study --more N), c to review ahead, or raise new_per_day in drill.toml."
        ).format(limit=config.new_per_day, extra=counts.extra_new)
    if counts.reviews_held:
        return _(
            "Today's reviews are done ({limit} a day, {extra} added today) and more are due; press + to study "
            "more today (or run drill study --more-reviews N), or raise reviews_per_day in drill.toml."
        ).format(limit=config.reviews_per_day, extra=counts.extra_reviews)
    return ""
