"""A progress database with a known review history, generated deterministically, for the report tests.

The generator simulates two learners studying with py-fsrs (no fuzz) over ~10 months in Europe/Berlin (so the
history crosses daylight-saving changes) with the study day starting at 04:00, and writes the rows straight into
the store's tables (each log's study day and first-of-day flag by the store's own ``review_day_fields``, as
Store.grade records them). It also returns the history as plain Python records, so tests can compute every figure
independently of the report's SQL.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TZ = ZoneInfo("Europe/Berlin")
DAY_START = 4
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(1)>"

# (content id, section, question). Odd ids that a spreadsheet would run as formulas are on purpose.
CARDS = [
    ("q01", "7.2", "什么是 Self-Attention？"),
    ("q02", "7.2", "Q、K、V 分别是什么？"),
    ("q03", "7.3", f'XSS probe {XSS_SCRIPT} and {XSS_IMG} & "quotes"'),
    ("q04", "7.3", "为什么除 $\\sqrt{d_k}$？"),
    ("q05", "7.9", "Softmax 的数值稳定性 $\\max_j x_j$"),
    ("q06", "7.9", "QKᵀ 的形状？ $$A = \\mathrm{softmax}(QK^T/\\sqrt{d_k})V$$"),
    ("q07", "7.10", "多头注意力为什么有效？"),
    ("q08", "7.10", "Causal mask 怎么实现？"),
    ("q09", "7.12", "Padding mask 与 causal mask 的区别"),
    ("q10", "7.12", "LayerNorm 放在哪里？"),
    ("=1+1", "7.12", "formula-looking id"),
    ("@SUM(A1)", "7.13", "formula-looking id 2"),
    ("-2+3", "7.13", "formula-looking id 3"),
    ("q14", '=HYPERLINK("http://x")', "formula-looking section"),
    ("q15", "7.13", "never studied"),
    ("q16", "7.13", "retired card"),
]
SUSPENDED = {"alice": "q09", "bob": "q02"}
RETIRED = "q16"
NEVER = {"q15"}

RATING_WEIGHTS = [(1, 0.18), (2, 0.15), (3, 0.52), (4, 0.15)]
FSRS_STATE = {1: "learning", 2: "review", 3: "relearning"}


@dataclass
class Review:
    user: str
    card: str
    section: str
    reviewed_at: datetime
    rating: int
    duration_ms: int
    state_before: str
    previous: datetime | None = (
        None  # this card's previous review by this user (the log's last_review_before)
    )
    elapsed_recorded: bool = (
        True  # False: the row's elapsed_days is NULL (an older row), forcing the exact path
    )


@dataclass
class FinalState:
    state: str
    stability: float | None
    difficulty: float | None
    due: datetime | None
    last_review: datetime | None
    reps: int
    lapses: int
    suspended: bool
    fsrs_card: object | None


@dataclass
class Quiz:
    user: str
    started_at: datetime
    quiz: str
    score: int
    total: int


@dataclass
class Session:
    user: str
    started_at: datetime
    ended_at: datetime


@dataclass
class History:
    url: str
    users: list[str]
    cards: list[tuple[str, str, str]]
    retired: str
    reviews: list[Review] = field(default_factory=list)
    states: dict[tuple[str, str], FinalState] = field(default_factory=dict)
    quizzes: list[Quiz] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)


def _rating(rng: random.Random) -> int:
    x = rng.random()
    for rating, weight in RATING_WEIGHTS:
        if x < weight:
            return rating
        x -= weight
    return 3


def simulate(users: list[str], seed: int = 7) -> History:
    """The review history: every learner reviews each card at (or a little after) its due time."""
    from fsrs import Card as FsrsCard
    from fsrs import Rating, Scheduler, State

    scheduler = Scheduler(enable_fuzzing=False)
    history = History(url="", users=users, cards=CARDS, retired=RETIRED)
    rng = random.Random(seed)
    sections = {cid: section for cid, section, _ in CARDS}
    start = NOW - timedelta(days=300)
    for user in users:
        for cid, _section, _question in CARDS:
            if cid in NEVER:
                continue
            card = FsrsCard(card_id=1)
            # Each card is introduced on its own day, some right around the 04:00 day start.
            moment = start + timedelta(days=rng.randrange(0, 240), seconds=rng.randrange(0, 86400))
            if rng.random() < 0.3:
                local = moment.astimezone(TZ).replace(hour=DAY_START, minute=0, second=0, microsecond=0)
                moment = (local + timedelta(seconds=rng.choice([-90, -30, 30, 90]))).astimezone(UTC)
            moment = moment.replace(microsecond=rng.randrange(0, 1_000_000))
            reps = lapses = 0
            last = None
            while moment < NOW:
                rating = _rating(rng)
                before = "new" if card.last_review is None else FSRS_STATE[int(card.state)]
                if before == "review" and rating == 1:
                    lapses += 1
                card, _log = scheduler.review_card(card, Rating(rating), moment)
                reps += 1
                history.reviews.append(
                    Review(
                        user,
                        cid,
                        sections[cid],
                        moment,
                        rating,
                        rng.randrange(2_000, 40_000),
                        before,
                        previous=last,
                        elapsed_recorded=rng.random() < 0.8,
                    )
                )
                last = moment
                gap = card.due - moment
                # Learning steps are taken the same day, reviews at the due date or up to a few days late.
                wait = (
                    gap + timedelta(seconds=rng.randrange(0, 600))
                    if gap < timedelta(hours=1)
                    else (gap + timedelta(hours=rng.randrange(0, 72), seconds=rng.randrange(0, 3600)))
                )
                moment = (moment + wait).replace(microsecond=rng.randrange(0, 1_000_000))
            state = FSRS_STATE[int(card.state)] if card.state != State.Learning or last else "new"
            history.states[(user, cid)] = FinalState(
                state=state,
                stability=card.stability,
                difficulty=card.difficulty,
                due=card.due,
                last_review=last,
                reps=reps,
                lapses=lapses,
                suspended=SUSPENDED.get(user) == cid,
                fsrs_card=card,
            )
        # A quiz every few weeks, with the score rising.
        for i in range(8):
            when = (
                start + timedelta(days=30 * i + rng.randrange(0, 20), hours=rng.randrange(0, 24))
            ).replace(microsecond=0)
            total = 10
            history.quizzes.append(
                Quiz(user, when, f"quiz-{i % 3}", min(total, 3 + i + rng.randrange(0, 2)), total)
            )
    # A short study session around each review (the answer time plus some reading time).
    for r in history.reviews:
        history.sessions.append(
            Session(
                r.user,
                r.reviewed_at - timedelta(milliseconds=r.duration_ms + 20_000),
                r.reviewed_at + timedelta(seconds=10),
            )
        )
    history.reviews.sort(key=lambda r: (r.reviewed_at, r.user, r.card))
    return history


def write_history(history: History, url: str) -> None:
    """Create the database with the store (its migrations), then insert the history into its tables."""
    from sqlalchemy import create_engine, insert, select

    from drill.store import open_store
    from drill.store.review_days import rebuild_summaries, review_day_fields
    from drill.store.tables import attempts_t, cards_t, logs_t, sessions_t, states_t, users_t

    open_store(url, history.users[0]).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        user_ids = {row.name: row.id for row in conn.execute(select(users_t.c.id, users_t.c.name))}
        for name in history.users:
            if name not in user_ids:
                user_ids[name] = conn.execute(
                    insert(users_t).values(name=name, created_at=NOW)
                ).inserted_primary_key[0]
        card_ids = {}
        for position, (cid, section, _q) in enumerate(history.cards):
            card_ids[cid] = conn.execute(
                insert(cards_t).values(
                    pack="test",
                    content_id=cid,
                    section=section,
                    position=position,
                    retired=cid == history.retired,
                    created_at=NOW,
                )
            ).inserted_primary_key[0]
        for (user, cid), st in history.states.items():
            conn.execute(
                insert(states_t).values(
                    user_id=user_ids[user],
                    card_id=card_ids[cid],
                    state=st.state,
                    step=None,
                    stability=st.stability,
                    difficulty=st.difficulty,
                    due=st.due,
                    last_review=st.last_review,
                    reps=st.reps,
                    lapses=st.lapses,
                    suspended=st.suspended,
                    leech=False,
                )
            )
        # An explicit "new" row for a card never studied (the store may keep one).
        conn.execute(
            insert(states_t).values(
                user_id=user_ids[history.users[0]],
                card_id=card_ids["q15"],
                state="new",
                step=0,
                reps=0,
                lapses=0,
                suspended=False,
                leech=False,
            )
        )
        rows = [
            dict(
                user_id=user_ids[r.user],
                card_id=card_ids[r.card],
                session_id=None,
                rating=r.rating,
                reviewed_at=r.reviewed_at,
                duration_ms=r.duration_ms,
                state_before=r.state_before,
                state_after="review",
                due_after=r.reviewed_at,
                scheduled_days=0.0,
                reps_before=0,
                lapses_before=0,
                suspended_before=False,
                leech_before=False,
                leech_after=False,
                last_review_before=r.previous,
                # What Store.grade records, by the store's own function (in the fixture's zone and day start).
                **dict(
                    zip(
                        ("study_day", "first_of_day"),
                        review_day_fields(r.reviewed_at, r.previous, DAY_START, TZ),
                        strict=True,
                    )
                ),
                elapsed_days=(
                    (r.reviewed_at - r.previous).total_seconds() / 86400
                    if r.previous is not None and r.elapsed_recorded
                    else None
                ),
            )
            for r in history.reviews
        ]
        conn.execute(insert(logs_t), rows)
        rebuild_summaries(conn)  # the per-day totals and retention counters Store.grade keeps, from the log
        for q in history.quizzes:
            conn.execute(
                insert(attempts_t).values(
                    user_id=user_ids[q.user],
                    started_at=q.started_at,
                    finished_at=q.started_at + timedelta(minutes=5),
                    settings={"quiz": q.quiz},
                    score=q.score,
                    total=q.total,
                )
            )
        for s in history.sessions:
            conn.execute(
                insert(sessions_t).values(
                    user_id=user_ids[s.user],
                    started_at=s.started_at,
                    ended_at=s.ended_at,
                    reviewed=0,
                )
            )
    engine.dispose()


def make_library():
    """A content Library holding the fixture's cards (with the XSS probe and LaTeX in their text)."""
    from drill.content.models import Card, Library, Pack

    cards = {
        cid: Card(
            id=cid,
            pack="test",
            section=section,
            question=question,
            answer=f"Answer to {cid}: $x^2$ and <b>bold</b> {XSS_IMG}",
            tags=("t",),
            asked_in=(section,),
        )
        for cid, section, question in CARDS
        if cid != RETIRED
    }
    pack = Pack(id="test", title="Test pack", path=__import__("pathlib").Path("."), card_ids=tuple(cards))
    return Library(packs=[pack], cards=cards)


def compute_report(engine, library, **kwargs):
    from drill.report.figures import compute

    kwargs.setdefault("user", "alice")
    return compute(
        engine,
        library=library,
        now=NOW,
        tz=TZ,
        tz_name="Europe/Berlin",
        day_start_hour=DAY_START,
        parameters=None if "parameters" not in kwargs else kwargs.pop("parameters"),
        **kwargs,
    )
