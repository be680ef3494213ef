"""Fixtures for the TUI tests: the real content, the real store on a temp SQLite file, a frozen clock."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

from drill.content import load_content
from drill.content.models import Card, Library
from drill.store import open_store
from drill.tui.app import DrillApp, make_app
from tests.notified import _notifications_kept  # noqa: F401 - fixture: every notification kept

# Snapshots and the review log need a fixed "now"; the session timer is frozen at 0.
NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def frozen_clock() -> datetime:
    return NOW


def frozen_timer() -> float:
    return 0.0


@pytest.fixture(scope="session")
def library() -> Library:
    return load_content()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'progress.sqlite3'}"


@pytest.fixture
def store(db_url):
    opened = open_store(db_url, "tester")
    yield opened
    opened.close()


def library_of(cards: list[Card], base: Library) -> Library:
    """A library holding only ``cards`` (same packs, so the store treats them as the real pack's cards)."""
    return Library(
        packs=list(base.packs), cards={c.id: c for c in cards}, quizzes=[], checks=list(base.checks)
    )


def make_card(card_id: str, question: str, answer: str, **fields) -> Card:
    defaults = dict(pack="transformer-ch7", section="7.9", tags=("test",), asked_in=("7.9",))
    defaults.update(fields)
    return Card(id=card_id, question=question, answer=answer, **defaults)


def fixed_quiz(library: Library, store, **overrides) -> DrillApp:
    """The quiz the snapshot and pseudo-locale tests show: unshuffled, seed 7, 30 s, frozen clock and timer."""
    options = dict(
        library=library,
        store=store,
        clock=frozen_clock,
        timer=frozen_timer,
        shuffle=False,
        seconds=30,
        seed=7,
    )
    options.update(overrides)
    return make_app("quiz", **options)


@pytest.fixture
def study_app(library, store) -> Callable[..., DrillApp]:
    """Build the study app on the real store with a frozen clock; keyword arguments override."""

    def build(**overrides) -> DrillApp:
        options = dict(library=library, store=store, clock=frozen_clock, timer=frozen_timer)
        options.update(overrides)
        return make_app("study", **options)

    return build


async def wait_until(pilot, condition: Callable[[], bool], *, tries: int = 500) -> None:
    """Let the app run until ``condition()`` holds (bounded; fails loudly instead of hanging)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"condition never became true: {condition}")


async def card_shown(pilot) -> None:
    """Wait for the loading worker to hand over a session and for a card (or the end) to be shown."""
    app = pilot.app
    await wait_until(
        pilot, lambda: app.error is not None or getattr(app.mode_screen, "session", None) is not None
    )
    assert app.error is None, app.error
    await app.workers.wait_for_complete()
    await pilot.pause()


PTYRUN = Path(__file__).resolve().parents[2] / "benchmarks" / "ptyrun.py"

# What `drill study` draws on a terminal (benchmarks/ptyrun.py reads it): a card's heading (section · id · kind)
# above the card view's hint, the question (the hint alone is drawn while the content loads; it goes when the
# answer shows); the header's counts, once the store is open and grades are taken (the grade buttons and their
# intervals are drawn only after the answer).
STUDY_HINT = "show answer"
STUDY_QUESTION = re.compile(r"§\S+ · \S+ · (?s:.*)" + STUDY_HINT)
STUDY_READY = re.compile(r"new \d+ · learning \d+ · review \d+")


def ptyrun() -> ModuleType:
    """benchmarks/ptyrun.py, the pseudo-terminal reader the benchmarks use (one copy for both)."""
    module = sys.modules.get("drill_bench_ptyrun")
    if module is None:
        spec = importlib.util.spec_from_file_location("drill_bench_ptyrun", PTYRUN)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["drill_bench_ptyrun"] = module  # dataclasses look their module up while being made
        spec.loader.exec_module(module)
    return module


__all__ = [
    "NOW",
    "STUDY_HINT",
    "STUDY_QUESTION",
    "STUDY_READY",
    "card_shown",
    "library_of",
    "make_card",
    "ptyrun",
    "wait_until",
]
