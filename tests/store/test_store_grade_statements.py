"""What one grade costs in statements: the study screen's Store.next_card -> Store.grade -> Store.counts sends a
fixed number of statements to the database (issue 27), counted as the driver gets them (SQLAlchemy's
``before_cursor_execute``, BEGINs included), whatever the card's state, whether the store has looked the card
up before, and however many cards another pack holds. A count, not a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from tests.store.store_support import CARDS, open_test_store
from tests.store.test_store_pack_bounds import fill_other_pack

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
# Statements a step may send, BEGIN (or BEGIN IMMEDIATE) included. next_card: the day's row and the first due
# card (a new card: one more; learn-ahead: one more again); grade: the card with its state row, the state's
# UPDATE, the log's INSERT .. RETURNING, the day's totals' upsert (a store's first grade also reads the
# interview plan, kept from then on); counts: the day's row and the counts' row.
NEXT_CARD_AT_MOST, GRADE, COUNTS = 5, 5, 3


class Sent:
    """The statements ``store`` sends while this is open, by step."""

    def __init__(self, store) -> None:
        self.statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute", self.record)

    def record(self, conn, cursor, statement, parameters, context, executemany) -> None:
        self.statements.append(" ".join(statement.split()))

    def during(self, call, *args, **kwargs):
        start = len(self.statements)
        result = call(*args, **kwargs)
        return result, self.statements[start:]


def _study(store, sent: Sent, grades: int, start: datetime) -> list[tuple[int, int, int, str]]:
    """``grades`` rounds of the study screen's calls (Good, a minute apart); per round the statements sent by
    next_card, grade and counts, and the graded card's state before the grade."""
    rounds = []
    for i in range(grades):
        now = start + timedelta(minutes=i)
        card, next_sent = sent.during(store.next_card, now)
        assert card is not None
        result, grade_sent = sent.during(store.grade, card.card_id, 3, now)
        assert result.card_id == card.card_id
        counts, counts_sent = sent.during(store.counts, now)
        assert counts.done_today == i + 1
        for sql in grade_sent[1:]:
            assert not sql.startswith("BEGIN"), grade_sent  # one transaction a grade
        rounds.append((len(next_sent), len(grade_sent), len(counts_sent), card.kind.value))
    return rounds


def _check(rounds, first_of_store: bool = True) -> None:
    for i, (next_n, grade_n, counts_n, state) in enumerate(rounds):
        plan = 1 if first_of_store and i == 0 else 0
        assert next_n <= NEXT_CARD_AT_MOST, (state, next_n)
        assert grade_n == GRADE + plan, (state, grade_n)
        assert counts_n == COUNTS, (state, counts_n)


def test_a_grade_sends_a_fixed_number_of_statements(sqlite_url):
    """New cards (first grades, learning steps the same day) and due reviews (cards graded yesterday, due
    again): the same statements each time, the card's first grade (looked up by content id) included."""
    store = open_test_store(sqlite_url, enable_fuzzing=False, new_per_day=len(CARDS))
    try:
        sent = Sent(store)
        first_day = _study(store, sent, 40, T0)
        assert {state for *_, state in first_day} >= {"new", "learning"}
        _check(first_day)
        later = _study(store, sent, 10, T0 + timedelta(days=30))
        assert "review" in {state for *_, state in later}
        _check(later, first_of_store=False)
    finally:
        store.close()


def test_the_statements_do_not_grow_with_another_packs_cards(tmp_path):
    """With 3000 studied cards of another pack in the table, each round sends what it sends without them."""
    counted = []
    for other in (0, 3000):
        url = f"sqlite:///{tmp_path / f'{other}.sqlite3'}"
        store = open_test_store(url, enable_fuzzing=False)
        user_id = store.user_id
        store.close()
        if other:
            fill_other_pack(tmp_path / f"{other}.sqlite3", user_id, other)
        store = open_test_store(url, enable_fuzzing=False)
        try:
            counted.append([round_[:3] for round_ in _study(store, Sent(store), 15, T0)])
        finally:
            store.close()
    assert counted[0] == counted[1]
    _check([(*round_, "") for round_ in counted[0]])
