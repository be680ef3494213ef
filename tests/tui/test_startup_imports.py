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


def screens_until(term, awaited) -> list[str]:
    """Every screen the terminal showed, chunk after chunk, until ``awaited`` was on it."""
    seen: list[str] = []

    def shown(screen: str) -> bool:
        seen.append(screen)
        return bool(awaited.search(screen))

    term.wait_for(shown)
    return seen


LOADING = "loading the cards"


def test_with_the_content_cached_the_first_frame_holds_the_card(tmp_path):
    """The shipped content's entry (milliseconds) and the peek are read before the first paint: the terminal
    never shows the shell's "loading the cards…" before the card."""
    with ptyrun().HeldTerminal(["study"], dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        seen = screens_until(term, QUESTION)
        assert seen and not [s for s in seen if LOADING in s]
        term.release()
        term.wait_for(READY)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0


def test_content_to_be_built_paints_the_shell_first(tmp_path):
    """A pack no cache holds (a copy of the chapter with one comment added: the shipped entry is keyed by the
    files' bytes) is built in a worker, seconds: the shell is on the terminal before the card."""
    import shutil

    from drill.content import default_content_path
    from drill.content.loader import QUESTIONS

    pack = tmp_path / "pack"
    shutil.copytree(default_content_path(), pack)
    with (pack / QUESTIONS).open("a", encoding="utf-8") as questions:
        questions.write("\n# a copy of the chapter's pack\n")
    args = ["study", "--content", str(pack)]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        seen = screens_until(term, QUESTION)
        assert [s for s in seen if LOADING in s]
        term.release()
        term.wait_for(READY)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0
