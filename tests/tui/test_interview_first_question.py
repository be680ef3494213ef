"""`drill interview` on a terminal asks its first question before sqlalchemy and numpy are loaded (a returning
learner: the order the last interview saved, drill.tui.models.interview_peek), and an answer typed before the
store opens is saved under the question it answered (tests/tui/test_interview_early_answer.py confirms one
before the store opens: while an import is held here, the app can import nothing else).

As tests/tui/test_startup_imports.py does for study: drill runs on a pseudo-terminal (benchmarks/ptyrun.py)
with every import of the held modules waiting until the test lets it go (`HeldTerminal`); whatever is on the
screen before then was drawn without them.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from drill.content import load_content
from tests.tui.conftest import ptyrun

QUESTION = re.compile(r"question 1/\d+")
SECOND = re.compile(r"question 2/\d+")
BANK = re.compile(r"bank question (\d+)")
RUBRIC = re.compile(r"question 1/\d+ · rubric")
SIZE = (100, 30)
ANSWER = "softmax scaled by sqrt d_k"


def database() -> Path:
    return Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3"


def first_interview(args: list[str]) -> None:
    """An interview opened and quit at its first question: the database and the saved order exist."""
    with ptyrun().Terminal([ptyrun().drill_command(), *args], dict(os.environ), size=SIZE) as term:
        term.wait_for(QUESTION)
        term.press("\x11", pause=0)  # ctrl+q
        term.wait_for_exit()
    assert term.result.code == 0


def card_of(screen: str) -> str:
    """The content id of the bank question on the screen (its meta line names its bank number)."""
    numbers = BANK.findall(screen)
    assert len(numbers) == 1, screen
    cards = [c.id for c in load_content().cards.values() if str(c.bank) == numbers[0]]
    assert len(cards) == 1
    return cards[0]


def test_a_returning_interview_asks_before_sqlalchemy_and_numpy_and_saves_an_early_answer(tmp_path):
    args = ["interview", "--seed", "1"]
    first_interview(args)
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for(QUESTION)
        assert term.loaded() == set()  # the question is on the screen: nothing heavy is loaded
        shown = card_of(term.settled())
        term.press(ANSWER)  # typed while the store cannot open
        term.wait_for(ANSWER)
        assert term.loaded() == set()
        term.release()
        term.press("\x04")  # ctrl+d: on to the rubric
        term.wait_for(RUBRIC)
        term.press("\r")  # confirm the proposed grade
        term.wait_for(SECOND)  # the grade was saved once the store opened, and the interview went on
        term.press("\x11")
        term.wait_for_exit()
    assert term.result.code == 0
    with sqlite3.connect(database()) as db:
        rows = list(db.execute("SELECT position, card_id, answer FROM interview_answers"))
    assert rows == [(1, shown, ANSWER)]


def test_without_a_saved_order_the_store_decides(tmp_path):
    """A first-ever interview (no database, no saved order): nothing is asked until the store is open."""
    args = ["interview", "--seed", "1"]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for("Loading the questions")
        term.release()
        term.wait_for(QUESTION)
        assert "sqlalchemy" in term.loaded()
        term.press("\x11")
        term.wait_for_exit()
    assert term.result.code == 0


def test_a_returning_interview_draws_its_first_question_in_its_first_frame(tmp_path):
    """The content from its cache and the saved order: the first paint holds the first question, never the
    shell's "Loading the questions…" before it (nothing heavy is loaded for it)."""
    from tests.tui.test_quiz_first_question import screens_until

    args = ["interview", "--seed", "1"]
    first_interview(args)
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        seen = screens_until(term, re.compile(r"question 1/\d+(?s:.*)bank question \d+"))
        assert not [s for s in seen if "Loading the questions" in s]
        assert term.loaded() == set()
        term.release()
        term.press("\x11")
        term.wait_for_exit()
    assert term.result.code == 0
