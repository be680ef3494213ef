"""`drill study` on a terminal draws its first question without sqlalchemy or numpy (the peek), then opens the store.

drill runs on a pseudo-terminal (benchmarks/ptyrun.py, the benchmarks' reader) with every import of sqlalchemy and
numpy held until the test lets it go (`HeldTerminal`): whatever is on the screen before then was drawn without
them, and anything that needed them would wait for ever (here: fail after the timeout). Nothing inside the app
marks the moment; the test reads the screen as a person does.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.tui.conftest import STUDY_QUESTION as QUESTION
from tests.tui.conftest import STUDY_READY as READY
from tests.tui.conftest import ptyrun

CARD = re.compile(r"§\S+ · (\S+) · ")  # the card's heading: section · card id · kind
SIZE = (100, 30)


def cards_on(screen: str) -> list[str]:
    return CARD.findall(screen)


def test_first_ever_start_shows_its_question_before_sqlalchemy_and_numpy(tmp_path):
    """No database and no content cache yet: the first question is the content's first new card, drawn while
    sqlalchemy and numpy cannot be imported; once they can, the store opens, agrees (the same card stays: no
    other card is ever drawn) and creates the database."""
    seen: set[str] = set()

    def ready(screen: str) -> bool:
        seen.update(cards_on(screen))
        return READY.search(screen) is not None

    with ptyrun().HeldTerminal(["study"], dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for(QUESTION)
        assert term.loaded() == set()  # the question is on the screen: nothing heavy is loaded
        first = cards_on(term.settled())  # held: nothing more is coming but the rest of this frame
        assert len(first) == 1
        assert READY.search(term.text()) is None  # grades wait for the store
        term.release()
        term.wait_for(ready)
        assert "sqlalchemy" in term.loaded()
        assert seen == set(first) and cards_on(term.text()) == first
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0
    assert (Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3").is_file()


def test_without_held_imports_the_question_comes_and_q_quits(tmp_path):
    """The installed command itself (no held imports): the question, then the store, and q ends it cleanly."""
    drill = ptyrun().drill_command()
    with ptyrun().Terminal([drill, "study"], dict(os.environ), size=SIZE) as term:
        term.wait_for(QUESTION)
        term.wait_for(READY)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0
