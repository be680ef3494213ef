"""`drill optimize` on fsrs-rs: the items Anki would build, fsrs-rs's own threshold, the fit equal to a direct
fsrs-rs call, weights saved per learner.

Oracles: Anki's own unit tests of ``reviews_for_fsrs`` (rslib/src/scheduler/fsrs/params.rs, ported case by case
below), fsrs-rs called directly on items built here from the timestamps by plain recomputation, and fsrs-rs's
behaviour (defaults / initial stabilities only / a full fit) on either side of the threshold.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview

from drill.cli import cli
from drill.srs import new_card_state, retrievability, schedule
from drill.srs.days import study_day
from drill.srs.optimize import (
    MIN_TRAINING_ITEMS,
    NotEnoughReviews,
    fit,
    training_items,
    usable_items,
    within_bounds,
)

T0 = datetime(2025, 1, 6, 8, 0, tzinfo=UTC)
DAY = 86400


# -- Anki's conversion, case by case (params.rs tests; `revlog(kind, days_ago)`, a Good each) ------------------


def anki_cards(*entries):
    """[(state before, days ago)] -> one card's grades as the store hands them: (card, rating, study day, state),
    a Good each."""
    return [("c", 3, 1000 - days_ago, state) for state, days_ago in entries]


def steps_of(item):
    """An FSRSItem's (rating, delta_t) steps, from FSRSReview's own repr."""
    return [(int(r), int(d)) for r, d in re.findall(r"rating: (\d+), delta_t: (-?\d+)", repr(item))]


def items_of(grades):
    items, _total, _cards = training_items(grades)
    return [steps_of(item) for item in items]


def review(delta):
    return (3, delta)


def test_delta_t_as_anki():
    assert items_of(anki_cards(("new", 1), ("review", 0))) == [[review(0), review(1)]]
    assert items_of(anki_cards(("new", 15), ("learning", 13), ("review", 10), ("review", 5))) == [
        [review(0), review(2)],
        [review(0), review(2), review(3)],
        [review(0), review(2), review(3), review(5)],
    ]
    assert items_of(anki_cards(("new", 15), ("learning", 13))) == [[review(0), review(2)]]


def test_a_reset_drops_the_history_before_it():
    # Anki: a Reset between two learning runs; only the run after it (and what follows) is used.
    assert items_of(anki_cards(("new", 10), ("review", 9), ("new", 4), ("review", 0))) == [
        [review(0), review(4)]
    ]


def test_single_learning_step_and_no_learning_step_give_nothing():
    assert items_of(anki_cards(("new", 1))) == []
    assert items_of(anki_cards(("review", 9), ("review", 5))) == []  # training ignores cards never learnt


def test_same_day_grades_are_zero_days_apart_and_make_no_item():
    grades = [
        ("c", 1, 100, "new"),
        ("c", 3, 100, "learning"),
        ("c", 3, 102, "review"),
        ("c", 2, 102, "review"),
    ]
    assert items_of(grades) == [[(1, 0), (3, 0), (3, 2)]]  # only the grade two days later
    grades.append(("c", 4, 103, "review"))
    assert items_of(grades)[-1] == [(1, 0), (3, 0), (3, 2), (2, 0), (4, 1)]


def reset_history(seed: int, cards: int = 60) -> list[tuple]:
    """Cards graded in turns, interleaved: learning runs over one or more days, resets to new (a new run),
    cards never learnt, same-day grades; every grade in the order given, (card, rating, study day, state)."""
    rng = random.Random(seed)
    rows = []
    for card in range(cards):
        day, state = rng.randint(0, 20), rng.choice(["new", "new", "new", "review"])
        for _ in range(rng.randint(1, 14)):
            rows.append((day, rng.random(), card, rng.choice([1, 2, 3, 3, 4]), state))
            day += rng.choice([0, 0, 1, 2, 5, 9])
            roll = rng.random()
            state = (
                "new"
                if roll < 0.1
                else "learning"
                if roll < 0.3
                else "relearning"
                if roll < 0.4
                else "review"
            )
    rows.sort()
    return [(card, rating, day, state) for day, _at, card, rating, state in rows]


def anki_items(rows):
    """Each card's items recomputed as Anki's reviews_for_fsrs does, card by card: back from its last grade to
    the first grade of its last run of learning grades, the days between grades from there, an item per grade
    on a later day than the one before -- then every card's items in the order of their last grades, as
    (card, steps)."""
    by_card: dict[object, list] = {}
    for at, (card, rating, day, state) in enumerate(rows):
        by_card.setdefault(card, []).append((at, rating, day, state))
    items = []
    for card, grades in by_card.items():
        start = None
        for index in range(len(grades) - 1, -1, -1):
            if grades[index][3] in ("new", "learning"):
                start = index
            elif start is not None:
                break
        if start is None:
            continue
        steps = []
        for n, (at, rating, day, _state) in enumerate(grades[start:]):
            delta = 0 if n == 0 else day - grades[start + n - 1][2]
            steps.append((rating, delta))
            if n and delta > 0:
                items.append((at, card, list(steps)))
    return [(card, steps) for _at, card, steps in sorted(items)]


@pytest.mark.parametrize("seed", range(6))
def test_the_items_are_anki_s_card_by_card_recomputation(seed):
    """training_items reads the grades once, in the order given; Anki's rule, card by card (resets included),
    gives the same items in the same order, and each card's first item and count."""
    rows = reset_history(seed)
    items, total, cards = training_items(rows)
    expected = anki_items(rows)
    assert len(expected) > 50 and any(state == "new" and n > 0 for n, (*_, state) in enumerate(rows))
    assert [steps_of(item) for item in items] == [steps for _card, steps in expected]
    firsts: dict[object, list] = {}  # card -> [its first item, its number of items], in order of the first
    for card, steps in expected:
        firsts.setdefault(card, [steps, 0])[1] += 1
    assert total == len(rows) and cards == len(firsts) < len({row[0] for row in rows})
    assert [(steps_of(item), count) for item, count in items.firsts()] == [tuple(f) for f in firsts.values()]


# -- a learner graded by drill's own scheduler -----------------------------------------------------------------


def simulated_log(cards: int, days: int, seed: int = 7):
    """[(card, rating, reviewed_at, state before)] of a learner who forgets as FSRS predicts (a little worse),
    reviewing when cards fall due (learning steps included, so some grades share a study day)."""
    rng = random.Random(seed)
    log = []
    for number in range(cards):
        state, now = new_card_state(T0), T0 + timedelta(minutes=number)
        while now < T0 + timedelta(days=days):
            recall = retrievability(state, now)
            if recall is None:
                rating = rng.choice([1, 3, 3, 4])
            else:
                rating = 1 if rng.random() > recall * 0.95 else rng.choice([2, 3, 3, 3, 4])
            log.append((f"c{number}", rating, now, str(state.state)))
            state = schedule(state, rating, now).after
            now = state.due + timedelta(hours=rng.randint(0, 30))
    log.sort(key=lambda row: row[2])
    return log


def as_store_hands_it(log, tz=UTC):
    """The log as the store hands it: every grade in the order given, (card, rating, study day, state)."""
    return [
        (card, rating, (study_day(at, 4, tz) - study_day(T0, 4, tz)).days, state)
        for card, rating, at, state in log
    ]


def direct_items(log):
    """fsrs-rs items recomputed from the timestamps: per card, days between study days (04:00 UTC), one item
    per grade on a later day than the one before, in the order of the grades (each card is learnt once)."""
    seen: dict[str, list] = {}
    days: dict[str, int] = {}
    items = []
    for card, rating, at, _state in log:
        day = (at - timedelta(hours=4)).date().toordinal()
        delta = 0 if card not in days else day - days[card]
        days[card] = day
        seen.setdefault(card, []).append(FSRSReview(rating, delta))
        if len(seen[card]) > 1 and delta > 0:
            items.append(FSRSItem(list(seen[card])))
    return items


@pytest.fixture(scope="module")
def learner_log():
    return simulated_log(cards=80, days=200)


def test_the_fit_is_fsrs_rs_own_on_the_same_items(learner_log):
    items, total, cards = training_items(as_store_hands_it(learner_log))
    assert total == len(learner_log) and cards == 80
    direct = direct_items(learner_log)
    assert [repr(item) for item in items] == [repr(item) for item in direct]  # FSRSItem's own repr
    result = fit(items, total_reviews=total, cards=cards)
    expected = FSRS([]).compute_parameters(direct, num_relearning_steps=1)
    assert result.fitted == pytest.approx(within_bounds(expected), abs=1e-4)
    assert result.fitted[4:] != pytest.approx(tuple(DEFAULT_PARAMETERS)[4:], abs=1e-4)  # a real fit
    assert not result.kept_current and result.parameters == result.fitted
    assert result.rmse_after < result.rmse_before


@pytest.mark.parametrize("held", [True, False])
def test_the_fit_is_the_same_whether_its_items_are_held_or_made_on_each_pass(learner_log, monkeypatch, held):
    """Below HELD_STEPS the fit's three passes read one list of the items; above it, items made anew per pass
    (the memory bound at millions of grades): the passes see the same items either way, and the fit and its
    evaluations are fsrs-rs's own on the items given directly."""
    import drill.srs.optimize as optimize

    items, total, cards = training_items(as_store_hands_it(learner_log))
    steps = sum(len(item.reviews) for item in items)
    monkeypatch.setattr(optimize, "HELD_STEPS", steps if held else steps - 1)
    passes = items.held()
    assert isinstance(passes, list) is held and (passes is items) is not held
    assert [repr(item) for item in passes] == [repr(item) for item in items]
    result = fit(items, total_reviews=total, cards=cards)
    direct = direct_items(learner_log)
    expected = within_bounds(FSRS([]).compute_parameters(direct, num_relearning_steps=1))
    assert result.fitted == pytest.approx(expected, abs=1e-4)
    assert result.rmse_before == pytest.approx(FSRS(list(DEFAULT_PARAMETERS)).evaluate(direct).rmse_bins)
    assert result.rmse_after == pytest.approx(FSRS(list(result.fitted)).evaluate(direct).rmse_bins, abs=1e-6)


def test_a_fit_no_better_than_the_current_weights_keeps_them(learner_log):
    items, total, cards = training_items(as_store_hands_it(learner_log))
    first = fit(items, total_reviews=total, cards=cards)
    again = fit(items, total_reviews=total, cards=cards, current=first.parameters)
    assert again.kept_current and again.parameters == first.parameters


def test_the_threshold_is_fsrs_rs_own(learner_log):
    """Below 64 usable items fsrs-rs fits at most the four initial stabilities; from 64 on, everything."""
    items, _total, _cards = training_items(as_store_hands_it(learner_log))
    seen = set()
    for size in range(20, len(items), 15):
        subset = items[:size]
        usable = usable_items(subset)
        weights = FSRS([]).compute_parameters(subset)
        full_fit = list(weights)[4:] != pytest.approx(list(DEFAULT_PARAMETERS)[4:], abs=1e-6)
        assert full_fit == (usable >= MIN_TRAINING_ITEMS), (size, usable)
        seen.add(full_fit)
    assert seen == {True, False}


def test_too_short_a_history_is_refused_with_the_counts(learner_log):
    items, total, used = training_items(
        row for row in as_store_hands_it(learner_log) if row[0] in {"c0", "c1", "c2"}
    )
    with pytest.raises(NotEnoughReviews) as caught:
        fit(items, total_reviews=total, cards=used)
    assert caught.value.usable < MIN_TRAINING_ITEMS and caught.value.total == total
    message = str(caught.value)
    assert f"needs {MIN_TRAINING_ITEMS} reviews" in message
    assert f"you have {caught.value.usable} ({total} grades in all)" in message
    assert caught.value.exit_code == 2


# -- the command, on a real store ------------------------------------------------------------------------------


def grade_log(log, user):
    from drill.store import open_store

    with open_store(user=user) as store:
        store.sync_content(sorted({("p", card, "1") for card, *_ in log}))
        for card, rating, at, _state in log:
            store.grade(card, rating, at)


@pytest.mark.slow
def test_optimize_saves_the_weights_of_that_learner_only(learner_log):
    from drill.store import open_store

    log = learner_log[: len(learner_log) // 2]
    grade_log(log, "ana")
    result = CliRunner().invoke(cli, ["optimize", "--user", "ana"], prog_name="drill")
    assert result.exit_code == 0, result.output
    assert "Saved for ana" in result.output and f"Reading {len(log)} grades" in result.output
    with open_store(user="ana") as store:
        weights = store.learner_parameters()
        assert weights is not None and store.config.parameters == weights
        # The first Good of a new card has the fitted initial stability w[2].
        assert schedule(new_card_state(T0), 3, T0, store.config).after.stability == pytest.approx(weights[2])
        items, total, cards = training_items(store.fit_history())
    assert weights == pytest.approx(fit(items, total_reviews=total, cards=cards).parameters, abs=1e-4)
    with open_store(user="ben") as store:
        assert store.learner_parameters() is None and store.config.parameters is None
    result = CliRunner().invoke(cli, ["optimize", "--user", "ana", "--reset"], prog_name="drill")
    assert result.exit_code == 0, result.output
    with open_store(user="ana") as store:
        assert store.learner_parameters() is None and store.config.parameters is None


def test_optimize_with_too_little_history_in_a_real_store():
    from drill.store import open_store

    with open_store() as store:
        store.sync_content([("p", "q1", "1"), ("p", "q2", "1")])
        store.grade("q1", 3, T0)
        store.grade("q1", 3, T0 + timedelta(days=3))
        store.grade("q2", 3, T0 + timedelta(days=3))
    result = CliRunner().invoke(cli, ["optimize"], prog_name="drill")
    assert result.exit_code == 2
    assert "you have 0 (3 grades in all)" in result.output
    assert "Fitting" not in result.output  # no promise of a fit that will not happen
    with open_store() as store:
        assert store.learner_parameters() is None


def test_dry_run_shows_but_does_not_save(learner_log):
    from drill.store import open_store

    grade_log(learner_log[:400], "cam")
    result = CliRunner().invoke(cli, ["optimize", "--user", "cam", "--dry-run"], prog_name="drill")
    assert result.exit_code == 0, result.output
    assert "parameters = [" in result.output and "Not saved (--dry-run)." in result.output
    with open_store(user="cam") as store:
        assert store.learner_parameters() is None


def test_broken_config_is_reported_before_fitting():
    from drill import paths

    path = paths.config_file()
    path.parent.mkdir(parents=True)
    path.write_text("leech_action = 3\n")
    result = CliRunner().invoke(cli, ["optimize"], prog_name="drill")
    assert result.exit_code == 2
    assert f"{path}: leech_action" in result.output


def _skewed_cards(seed: int, cards: int = 400) -> list[tuple]:
    """Cards whose first gap (days to the first review a day later) is mostly short with a long, thin tail,
    so fsrs-rs's outlier filter drops some (rating, gap) groups; their grades in the order given, by day."""
    rng = random.Random(seed)
    out = []
    for _ in range(cards):
        day, grades = rng.randint(0, 30), []
        grades.append((rng.choice([1, 3, 3, 3, 4]), day, "new"))
        if rng.random() < 0.4:
            grades.append((3, day, "learning"))
        for _review in range(rng.randint(1, 8)):
            gap = rng.choice([1, 1, 2, 3, 4, 7]) if rng.random() < 0.9 else rng.randint(20, 300)
            day += gap
            grades.append((rng.choice([1, 2, 3, 3, 4]), day, "review"))
        out.append(grades)
    stamped = [(card, n, g) for card, grades in enumerate(out) for n, g in enumerate(grades)]
    stamped.sort(key=lambda row: (row[2][1], row[0], row[1]))  # the order they were given, by day
    return [(card, rating, day, state) for card, _n, (rating, day, state) in stamped]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_usable_count_from_first_items_is_fsrs_rs_filter_over_every_item(seed, learner_log):
    """usable_items asks fsrs-rs's outlier filter about each card's first item only (no copy of every item):
    the count equals the filter run over every item, as before; the skewed histories make it drop some."""
    from fsrs_rs_python import filter_outlier

    for cards in (_skewed_cards(seed), as_store_hands_it(learner_log)):
        items, _total, _cards = training_items(cards)
        plain = list(items)  # no per-card record: the filter over every item
        first = [item for item in plain if item.long_term_review_cnt() == 1]
        _kept_first, kept = filter_outlier(first, plain)
        assert usable_items(items) == usable_items(plain) == len(kept)
    assert len(kept) <= len(plain)
    skewed, _t, _c = training_items(_skewed_cards(seed))
    _kf, kept_skewed = filter_outlier([i for i in skewed if i.long_term_review_cnt() == 1], list(skewed))
    assert len(kept_skewed) < len(skewed)  # the filter did drop items: the comparison is not trivial


def test_the_usable_count_hands_fsrs_rs_one_item_a_card(monkeypatch):
    """fsrs-rs's filter returns copies of what it keeps: asked about every item it copied the whole history's
    items once more (450 MB at 2M reviews); it is asked about each card's first item only."""
    import fsrs_rs_python

    cards = _skewed_cards(4)
    items, _total, used = training_items(cards)
    real, sizes = fsrs_rs_python.filter_outlier, []

    def counting(first, train):
        sizes.append((len(first), len(train)))
        return real(first, train)

    monkeypatch.setattr(fsrs_rs_python, "filter_outlier", counting)
    usable = usable_items(items)
    assert sizes and all(train <= used for _first, train in sizes), (sizes, used, len(items))
    assert 0 < usable < len(items)
    assert usable_items(items) == usable and len(sizes) == 1  # counted once: fit asks again after the command


def test_the_items_read_alike_every_way_and_every_time(learner_log):
    """training_items holds each card's steps, not a list of FSRSItems (fsrs-rs copies the items on every
    call): iterating, indexing (negative too) and slicing give the same items as fsrs-rs's, on every read."""
    items, _total, _cards = training_items(as_store_hands_it(learner_log))
    direct = [repr(item) for item in direct_items(learner_log)]
    assert len(items) == len(direct) > 100
    assert [repr(item) for item in items] == direct
    assert [repr(item) for item in items] == direct  # a second read builds them again, the same
    assert [repr(items[i]) for i in (0, 7, -1, -len(direct))] == [direct[i] for i in (0, 7, -1, -len(direct))]
    assert [repr(item) for item in items[10:40:3]] == direct[10:40:3]
    with pytest.raises(IndexError):
        items[len(direct)]
    firsts = list(items.firsts())
    assert sum(count for _item, count in firsts) == len(items)
    assert all(item.long_term_review_cnt() == 1 for item, _count in firsts)
