"""The report's column figures (drill.report.card_table) against the same figures worked out card by card."""

from __future__ import annotations

import heapq
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from drill.report.card_table import CardTable
from drill.srs.forgetting import decay_of, elapsed_days, retrievability

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SCHEDULED = ("learning", "review", "relearning")


def sqlite_text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S.%f")


@st.composite
def card_rows(draw):
    """Rows as the report's query returns them (counters coalesced to 0), with many ties: few stabilities,
    lapses and review times."""
    n = draw(st.integers(0, 60))
    rows = []
    for i in range(n):
        state = draw(st.sampled_from([None, "new", "learning", "review", "relearning"]))
        reviewed = state not in (None, "new")
        stability = draw(st.sampled_from([0.5, 3.0, 21.0, 40.0])) if reviewed else None
        last = NOW - timedelta(days=draw(st.sampled_from([0, 1, 5, 30])), hours=draw(st.sampled_from([0, 7])))
        due = NOW + timedelta(days=draw(st.integers(-5, 40)), minutes=draw(st.integers(0, 1439)))
        rows.append(
            (
                i + 1,
                f"c{draw(st.integers(0, 999)):03d}-{i}",
                draw(st.sampled_from(["7.2", "7.10", "7.9", ""])),
                draw(st.sampled_from([0, 0, 0, 1])),
                state,
                stability,
                5.0 if reviewed else None,
                sqlite_text(due) if reviewed else None,
                sqlite_text(last) if reviewed else None,
                draw(st.integers(0, 9)) if reviewed else 0,
                draw(st.sampled_from([0, 0, 1, 2, 3])) if reviewed else 0,
                draw(st.sampled_from([0, 0, 1])) if state is not None else None,
                draw(st.integers(0, 4)),
                0,
                draw(st.integers(0, 7)) if state is not None else 0,  # (the query coalesces flag and mark)
                draw(st.sampled_from([0, 1])) if state is not None else 0,
            )
        )
    return rows


def shown_state(row) -> str:
    if row[3]:
        return "retired"
    if row[11]:
        return "suspended"
    return row[4] or "new"


def table_of(rows) -> tuple[CardTable, object, float]:
    decay = decay_of()
    table = CardTable.from_rows(rows)
    return table, table.retrievability(decay, NOW), decay


def r_of(row, decay: float) -> float | None:
    if (row[4] or "new") == "new" or row[5] is None:
        return None
    last = datetime.fromisoformat(row[8]).replace(tzinfo=UTC)
    return retrievability(row[5], elapsed_days(last, NOW), decay)


@settings(max_examples=100, deadline=None)
@given(card_rows())
def test_top_tens_equal_a_full_sort(rows):
    table, r, decay = table_of(rows)
    expected_r = [r_of(row, decay) for row in rows]
    assert [None if v != v else v for v in r.tolist()] == expected_r

    weakest = [
        (expected_r[i], -(row[10] or 0), row[1], i)
        for i, row in enumerate(rows)
        if expected_r[i] is not None and shown_state(row) in SCHEDULED
    ]
    assert table.weakest(r, 10) == [i for *_, i in heapq.nsmallest(10, weakest)]
    lapsed = [
        (-(row[10] or 0), 2.0 if expected_r[i] is None else expected_r[i], row[1], i)
        for i, row in enumerate(rows)
        if (row[10] or 0) > 0
    ]
    assert table.most_lapsed(r, 10) == [i for *_, i in heapq.nsmallest(10, lapsed)]


@settings(max_examples=100, deadline=None)
@given(card_rows())
def test_state_counts_mastery_and_forecast_equal_a_card_by_card_count(rows):
    table, r, decay = table_of(rows)
    states = [shown_state(row) for row in rows]
    assert table.by_state() == {
        s: states.count(s) for s in ("new", "learning", "review", "relearning", "suspended", "retired")
    }

    counts = {name: column.tolist() for name, column in table.mastery_counts(r).items()}
    for code, section in enumerate(table.sections):
        mine = [
            (row, state, r_of(row, decay))
            for row, state in zip(rows, states, strict=True)
            if (row[2] or "") == section
        ]
        active = [(row, state, rv) for row, state, rv in mine if state not in ("suspended", "retired")]
        assert counts["cards"][code] == len(mine)
        assert counts["mastered"][code] == sum(
            1 for row, state, _ in active if state == "review" and row[5] >= 21
        )
        assert counts["out"][code] == len(mine) - len(active)
        with_r = [rv for _, _, rv in active if rv is not None]
        assert counts["n_r"][code] == len(with_r)
        total = 0.0
        for rv in with_r:  # summed in the cards' order, as the report has always summed them
            total += rv
        assert counts["sum_r"][code] == total

    starts = [(NOW + timedelta(days=i)).timestamp() for i in range(31)]
    dues = [
        datetime.fromisoformat(row[7]).replace(tzinfo=UTC).timestamp()
        for row, state in zip(rows, states, strict=True)
        if state in SCHEDULED
    ]
    overdue, per_day = table.due_counts(starts)
    assert overdue == sum(1 for d in dues if d < starts[0])
    assert per_day == [sum(1 for d in dues if starts[i] <= d < starts[i + 1]) for i in range(30)]


@settings(max_examples=50, deadline=None)
@given(card_rows())
def test_figures_carry_each_cards_own_values(rows):
    table, r, _ = table_of(rows)
    figures = table.figures(range(len(rows)), r, {}, {})
    for row, figure in zip(rows, figures, strict=True):
        assert (figure.id, figure.section, figure.state) == (row[1], row[2], shown_state(row))
        assert (figure.stability, figure.reviews, figure.lapses) == (row[5], row[9] or 0, row[10] or 0)
        reviewed = (row[4] or "new") != "new"
        assert figure.due == (datetime.fromisoformat(row[7]).replace(tzinfo=UTC) if reviewed else None)


@settings(max_examples=60, deadline=None)
@given(card_rows(), st.integers(1, 7))
def test_rows_in_batches_make_the_same_table(rows, size):
    """A streamed query's batches (sections spread unevenly over them) give the table the rows give at once."""
    import numpy as np

    whole = CardTable.from_rows(rows)
    batched = CardTable.from_batches(rows[i : i + size] for i in range(0, len(rows), size))
    assert batched.sections == whole.sections
    for name in whole.__dataclass_fields__:
        left, right = getattr(whole, name), getattr(batched, name)
        if isinstance(left, np.ndarray):
            assert left.dtype == right.dtype and np.array_equal(
                left, right, equal_nan=left.dtype.kind == "f"
            ), name
        else:
            assert left == right, name
    # Each card's section as written, through its code.
    assert [batched.sections[c] for c in batched.section_code.tolist()] == [row[2] or "" for row in rows]
