"""`drill optimize`: counting what py-fsrs learns from, refusing too little history, fitting and saving."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.srs import new_card_state, retrievability, schedule
from drill.srs.config import load_config
from drill.srs.optimize import (
    MAX_SEQ_LEN,
    MIN_REVIEWS,
    NotEnoughReviews,
    countable_reviews,
    fit_parameters,
    optimizer_available,
)

needs_extra = pytest.mark.skipif(not optimizer_available(), reason="fsrs[optimizer] extra not installed")
T0 = datetime(2025, 1, 6, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Record:
    card_id: str
    rating: int
    reviewed_at: datetime
    duration_ms: int | None = None


def simulated_history(cards: int, days: int, seed: int = 7) -> list[Record]:
    """A learner who forgets as FSRS predicts (a little worse), reviewing when cards fall due."""
    rng = random.Random(seed)
    records = []
    for number in range(cards):
        state, now = new_card_state(T0), T0 + timedelta(minutes=number)
        while now < T0 + timedelta(days=days):
            recall = retrievability(state, now)
            if recall is None:
                rating = rng.choice([1, 3, 3, 4])
            else:
                rating = 1 if rng.random() > recall * 0.95 else rng.choice([2, 3, 3, 3, 4])
            records.append(Record(f"c{number}", rating, now, rng.randint(2000, 20000)))
            state = schedule(state, rating, now).after
            now = state.due + timedelta(hours=rng.randint(0, 30))
    rng.shuffle(records)  # the store hands them in review order; the fit mustn't depend on it
    return records


@needs_extra
def test_thresholds_are_py_fsrs_own():
    import fsrs.optimizer

    assert MIN_REVIEWS == fsrs.optimizer.mini_batch_size == 512
    assert MAX_SEQ_LEN == fsrs.optimizer.max_seq_len


def test_counting_only_reviews_a_day_or_more_apart():
    day = timedelta(days=1)
    records = [
        Record("a", 3, T0),
        Record("a", 3, T0 + timedelta(minutes=10)),  # same day: not counted
        Record("a", 3, T0 + day + timedelta(minutes=10)),  # counted
        Record("a", 1, T0 + 5 * day),  # counted
        Record("b", 3, T0 + 3 * day),  # a first review: not counted
        Record("b", 3, T0 + 3 * day + timedelta(hours=23)),  # under a day: not counted
    ]
    assert countable_reviews(records) == 2
    assert countable_reviews(reversed(records)) == 2
    long = [Record("c", 3, T0 + n * day) for n in range(100)]
    assert countable_reviews(long) == MAX_SEQ_LEN - 1  # py-fsrs looks at a card's first 64 reviews


def test_too_few_reviews_says_how_many_more():
    records = [Record(f"c{n // 5}", 3, T0 + timedelta(days=2 * (n % 5))) for n in range(500)]
    assert countable_reviews(records) == 400
    with pytest.raises(NotEnoughReviews) as caught:
        fit_parameters(records)
    message = str(caught.value)
    assert "at least 512 reviews" in message and "you have 400" in message
    assert "500 grades in all" in message and "112 more needed" in message
    assert caught.value.exit_code == 2


def test_bad_rating_in_history_is_reported():
    with pytest.raises(Exception, match="rating must be 1"):
        countable_reviews([Record("a", 7, T0)])


@needs_extra
@pytest.mark.slow
def test_fit_gives_bounded_weights_and_optimize_saves_them(monkeypatch):
    from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    records = simulated_history(cards=60, days=240)
    assert countable_reviews(records) >= MIN_REVIEWS

    class FakeStore:  # the store's own tests cover review_logs(); here only the wiring matters
        def __init__(self, *args, **kwargs):
            self.args = args

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def review_logs(self, since=None):
            return records

    import drill.store

    monkeypatch.setattr(drill.store, "open_store", FakeStore)
    result = CliRunner().invoke(cli, ["optimize"], prog_name="drill")
    assert result.exit_code == 0, result.output
    assert "Saved to" in result.output
    saved = load_config().parameters
    assert saved is not None and len(saved) == 21
    assert all(
        lo <= w <= hi
        for w, lo, hi in zip(saved, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    )
    assert saved != tuple(DEFAULT_PARAMETERS)
    assert load_config().source("parameters") == "file"
    # The fitted weights schedule: the first Good's stability is the fitted w[2].
    assert schedule(new_card_state(T0), 3, T0, load_config()).after.stability == pytest.approx(saved[2])


def test_optimize_with_too_little_history_in_a_real_store():
    from drill.store import open_store

    with open_store() as store:
        store.sync_content([("p", "q1", "1"), ("p", "q2", "1")])
        store.grade("q1", 3, T0)
        store.grade("q2", 3, T0 + timedelta(days=3))
    result = CliRunner().invoke(cli, ["optimize"], prog_name="drill")
    if not optimizer_available():
        assert "drill[optimizer]" in result.output and result.exit_code == 2
        return
    assert result.exit_code == 2
    assert "you have 0 of those (2 grades in all)" in result.output
    assert "512 more needed" in result.output
    assert "Fitting" not in result.output  # no promise of a fit that will not happen
    assert load_config().parameters is None


def test_dry_run_shows_but_does_not_save(monkeypatch):
    import drill.srs.optimize as optimize
    import drill.store

    records = [Record("a", 3, T0)]

    class OneLogStore:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def review_logs(self, since=None):
            return records

    seen = []

    def fake_fit(given):  # the CLI's plumbing only; the real fit is tested above
        seen.append(list(given))
        return optimize.FitResult(
            parameters=(0.5,) * 21,
            total_reviews=1,
            countable_reviews=0,
            cards=1,
            loss_before=0.5,
            loss_after=0.4,
        )

    monkeypatch.setattr(drill.store, "open_store", OneLogStore)
    monkeypatch.setattr(optimize, "missing_modules", lambda: [])
    monkeypatch.setattr(optimize, "fit_parameters", fake_fit)
    monkeypatch.setattr(optimize, "require_enough", lambda records: len(records))
    result = CliRunner().invoke(cli, ["optimize", "--dry-run"], prog_name="drill")
    assert result.exit_code == 0, result.output
    assert seen == [records]
    assert "Log loss: 0.5000 with FSRS's defaults -> 0.4000 fitted." in result.output
    assert "Not saved (--dry-run)." in result.output
    assert load_config().parameters is None


def test_broken_config_is_reported_before_fitting(monkeypatch):
    from drill import paths

    path = paths.config_file()
    path.parent.mkdir(parents=True)
    path.write_text("leech_action = 3\n")
    result = CliRunner().invoke(cli, ["optimize"], prog_name="drill")
    assert result.exit_code == 2
    assert f"{path}: leech_action" in result.output
