"""Per-kind time limits of the generated quiz questions (issue 13 §3): each template names the work it asks
(concept, shape, formula, hand), each kind has its own limit in drill's config (``ui.quiz_seconds_<kind>``),
the quiz screen's countdown runs from it and times the question out at it, and the attempt records the limits.
The chapter's own quizzes keep ``--seconds``.

Time is a fake monotonic clock the tests move by hand (the countdown's ``check()`` is what its interval calls),
except one test that lets a 1-second limit run out on the real clock, polled, never slept for.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from drill import paths
from drill.cli import cli
from drill.content.generated import generate_questions
from drill.content.quizgen import TEMPLATES, WORKS
from drill.srs.config import SETTINGS, ConfigError, load_config, set_value
from drill.tui.app import make_app
from drill.tui.models.quiz import GENERATED, WORK_NAMES, QuizSettings
from drill.tui.models.quiz_plan import build_items
from drill.tui.widgets.countdown import Countdown
from tests.helpers import plain
from tests.tui.conftest import frozen_clock, library_of, wait_until
from tests.tui.test_quiz import stored_attempts

# A distinct limit per kind, so a question timed by the wrong kind's limit cannot pass.
CONFIGURED = {"concept": 11, "shape": 13, "formula": 17, "hand": 7}


class FakeTimer:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def configure(store, limits=CONFIGURED) -> None:
    for work, seconds in limits.items():
        set_value(f"ui.quiz_seconds_{work}", str(seconds))
    store.config = load_config()


def section_of_only(work: str) -> str:
    """A section every generated question of which asks ``work`` (so one generated question is of that kind)."""
    for t in TEMPLATES.values():
        if all(o.work == work for o in TEMPLATES.values() if o.section == t.section) and t.work == work:
            return t.section
    raise AssertionError(f"no section whose templates are all {work}")


async def question_shown(pilot):
    app = pilot.app
    await wait_until(
        pilot, lambda: app.error is not None or getattr(app.mode_screen, "run", None) is not None
    )
    assert app.error is None, app.error
    await app.workers.wait_for_complete()
    # the question is on screen (or, with a 1-second limit on a loaded machine, already answered by the clock)
    await wait_until(pilot, lambda: app.mode_screen.item is not None or app.mode_screen.answered is not None)
    await pilot.pause()
    return app.mode_screen


# ------------------------------------------------------------------------------------------ declarations


def test_every_template_names_a_kind_and_every_kind_has_one_setting():
    assert {t.work for t in TEMPLATES.values()} == set(WORKS)  # each kind is used
    prefixed = {
        key.removeprefix("ui.quiz_seconds_") for key in SETTINGS if key.startswith("ui.quiz_seconds_")
    }
    assert prefixed == set(WORKS) == set(WORK_NAMES)


def test_the_defaults_grow_with_the_work_asked():
    defaults = load_config()
    seconds = [getattr(defaults, f"quiz_seconds_{w}") for w in ("concept", "shape", "formula", "hand")]
    assert seconds == sorted(seconds) and len(set(seconds)) == 4
    assert seconds[0] > 30  # even a concept question, worked out, gets more than a chapter quiz's 30 s


def test_hand_questions_are_the_ones_worked_from_x_and_the_weights():
    """The kinds follow what the stems give: every question whose givens are X and weight matrices is a hand
    calculation, and every hand calculation gives them."""
    questions = generate_questions(11, 240)
    for q in questions:
        from_matrices = "X =" in q.prompt and "W_Q =" in q.prompt
        assert from_matrices == (TEMPLATES[q.topic].work == "hand"), (q.topic, q.prompt)


def test_each_item_gets_its_kinds_limit_and_the_chapters_quizzes_keep_theirs(library):
    settings = QuizSettings(seconds=20)
    config = load_config()
    settings.read_limits(config)
    items = build_items(library, generated=60, seed=4)
    assert {i.kind for i in items} == {"chapter", GENERATED}
    for item in items:
        if item.kind == GENERATED:
            expected = getattr(config, f"quiz_seconds_{TEMPLATES[item.question.topic].work}")
        else:
            expected = 20
        assert settings.limit(item) == expected, item.id
    assert settings.as_dict()["work_seconds"] == {w: getattr(config, f"quiz_seconds_{w}") for w in WORKS}


# ------------------------------------------------------------------------------------------ the screen


@pytest.mark.parametrize("work", WORKS)
async def test_a_generated_question_shows_its_kinds_limit(library, store, work):
    configure(store)
    section = section_of_only(work)
    timer = FakeTimer()
    app = make_app(
        "quiz",
        library=library_of([], library),
        store=store,
        clock=frozen_clock,
        timer=timer,
        section=section,
        generated=1,
        seed=3,
        seconds=30,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        assert screen.item.kind == GENERATED and screen.item.work == work
        countdown = screen.query_one(Countdown)
        assert countdown.total == CONFIGURED[work]
        assert f"{CONFIGURED[work]} s" in plain(countdown)
        assert WORK_NAMES[work] in plain(screen.query_one("#quiz-meta"))


async def test_a_hand_calculation_times_out_at_its_limit_and_the_attempt_records_it(library, store, db_url):
    configure(store)
    timer = FakeTimer()
    app = make_app(
        "quiz",
        library=library_of([], library),
        store=store,
        clock=frozen_clock,
        timer=timer,
        section="7.9",  # scaled score: worked by hand from X, W_Q, W_K
        generated=1,
        seed=5,
        seconds=30,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        assert screen.item.work == "hand"
        countdown = screen.query_one(Countdown)
        timer.now += 6.5  # 0.5 s of the 7 left
        countdown.check()
        await pilot.pause()
        assert screen.answered is None and "1 s" in plain(countdown)
        timer.now += 0.6
        countdown.check()
        await wait_until(pilot, lambda: screen.answered is not None)
        assert screen.answered.timed_out and not screen.answered.correct
        assert screen.answered.duration_ms == 7000
        assert "Time's up" in plain(screen.query_one("#quiz-feedback"))
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    attempts, answers = stored_attempts(db_url)
    settings = attempts[0]["settings"]
    assert settings["seconds"] == 30 and settings["work_seconds"] == CONFIGURED
    assert [(a["kind"], a["timed_out"], a["duration_ms"]) for a in answers] == [("generated", True, 7000)]


async def test_a_mixed_quiz_times_the_chapters_quizzes_by_seconds_and_the_generated_by_kind(library, store):
    configure(store)
    app = make_app(
        "quiz",
        library=library,
        store=store,
        clock=frozen_clock,
        timer=FakeTimer(),
        section="7.9",
        generated=2,
        seed=2,
        seconds=20,
        shuffle=False,
    )
    seen = set()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        for item in list(screen.run.items):
            assert screen.item.id == item.id
            total = screen.query_one(Countdown).total
            assert total == (20 if item.kind == "chapter" else CONFIGURED[item.work]), item.id
            seen.add(item.kind)
            await pilot.press(item.option_by_key(item.answer).letter.lower())
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None or screen.run.finished)
    assert seen == {"chapter", GENERATED}


async def test_a_short_configured_limit_runs_out_on_the_real_clock(library, store):
    """The wiring with time.monotonic: a generated question with a 1-second limit times out on its own."""
    configure(store, {"hand": 1})
    app = make_app(
        "quiz",
        library=library_of([], library),
        store=store,
        clock=frozen_clock,
        section="7.11",  # output value: a hand calculation
        generated=1,
        seed=1,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        for _ in range(400):  # up to ~20 s on a loaded machine; normally about 1 s
            if screen.answered is not None:
                break
            await pilot.pause(0.05)
        # The question's own record, not the screen's current item (gone once the one question has run out).
        assert screen.answered is not None and screen.answered.item.work == "hand"
        assert screen.answered.timed_out and screen.answered.duration_ms == 1000


# ------------------------------------------------------------------------------------------ bad values


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("0", "0 is out of range"),
        ("3601", "3601 is out of range"),
        ("1.5", "expected a whole number, got '1.5'"),
        ("fast", "expected a whole number, got 'fast'"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(value, problem):
    result = CliRunner().invoke(cli, ["config", "set", "ui.quiz_seconds_formula", value], prog_name="drill")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"drill: error: ui.quiz_seconds_formula: {problem}; allowed: a whole number of seconds from 1 to 3600"
    ]
    assert not paths.config_file().exists()


def test_a_misspelt_kind_names_the_close_setting():
    result = CliRunner().invoke(cli, ["config", "set", "ui.quiz_seconds_hands", "90"], prog_name="drill")
    assert result.exit_code == 2 and "did you mean ui.quiz_seconds_hand?" in result.output


def test_a_bad_value_in_the_file_stops_drill_quiz_with_one_line(tmp_path):
    path = paths.config_file()
    path.parent.mkdir(parents=True)
    path.write_text('[ui]\nquiz_seconds_shape = "a minute"\n')
    with pytest.raises(ConfigError, match="quiz_seconds_shape"):
        load_config()
    proc = subprocess.run(
        [sys.executable, "-m", "drill", "quiz", "--generated", "1", "--section", "7.5"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert proc.returncode == 2
    # What was painted (its terminal codes share stderr here, without a terminal): once they are taken
    # out, the error is the one message and the last thing written.
    text = re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78])", "", proc.stderr)
    expected = (
        f"drill: error: {path}: ui.quiz_seconds_shape: expected a whole number, got 'a minute'; "
        "allowed: a whole number of seconds from 1 to 3600"
    )
    assert text.rstrip().endswith(expected) and text.count("drill: error:") == 1
    assert "Traceback" not in proc.stderr


def test_the_countdown_never_says_hurry_once_the_time_is_up():
    from drill.tui.widgets.countdown import countdown_text

    for stopped in (False, True):
        out = countdown_text(0.0, 30.0, stopped=stopped).plain
        assert "hurry" not in out and "time is up" in out and "0 s" in out, out
    assert "hurry!" in countdown_text(3.0, 30.0).plain  # the last seconds still say so
    assert "(stopped)" in countdown_text(12.0, 30.0, stopped=True).plain
