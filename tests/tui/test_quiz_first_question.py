"""`drill quiz` on a terminal asks its first question before sqlalchemy is loaded, and keeps what is answered.

As tests/tui/test_startup_imports.py does for study: drill runs on a pseudo-terminal (benchmarks/ptyrun.py) with
every import of the held modules waiting until the test lets it go (`HeldTerminal`); whatever is on the screen
before then was drawn without them. An answer given while the store cannot open says it is being saved; its
verdict comes once it is on disk.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from tests.tui.conftest import ptyrun

QUESTION = re.compile(r"question 1/\d+")
ANSWERED = re.compile(r"[✓✗] ")
SAVING = "Saving your answer"
SIZE = (100, 30)


def answers_on_disk() -> list[tuple[int, str]]:
    path = Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3"
    with sqlite3.connect(path) as db:
        return list(db.execute("SELECT attempt_id, chosen FROM quiz_answers ORDER BY id"))


def test_chapter_questions_are_asked_before_sqlalchemy_and_numpy_and_the_answer_is_saved(tmp_path):
    """--generated 0: the first question comes with sqlalchemy and numpy held, and an answer is taken then (the
    screen says it is being saved, no verdict yet); once the store can open, the verdict comes with the answer
    on disk."""
    args = ["quiz", "--seed", "1", "--generated", "0"]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for(QUESTION)
        assert term.loaded() == set()
        term.press("a")
        term.wait_for(SAVING)  # taken with the store still unopened
        assert not ANSWERED.search(term.text())
        assert term.loaded() == set()
        term.release()
        term.wait_for(ANSWERED)
        assert len(answers_on_disk()) == 1  # acknowledged: on disk while drill still runs
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0
    assert len(answers_on_disk()) == 1


def test_generated_questions_need_numpy_but_not_sqlalchemy(tmp_path):
    """The default quiz mixes in engine questions (numpy): its first question is drawn with sqlalchemy held."""
    args = ["quiz", "--seed", "1"]
    held = ("sqlalchemy",)
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE, heavy=held) as term:
        term.wait_for(re.compile(r"question 1/\d+"))
        assert term.loaded() == set()
        term.release()
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0


def opening_seed(chapter_first: bool, generated: int = 8) -> int:
    """A seed whose quiz (8 generated questions by default) opens with a chapter question, or a generated one."""
    from drill.content import load_content
    from drill.tui.models.quiz_plan import plan_items

    library = load_content()
    return next(
        s
        for s in range(1, 100)
        if (plan_items(library, generated=generated, seed=s).first() is not None) == chapter_first
    )


def test_a_chapter_question_in_first_place_is_asked_before_numpy_and_the_next_waits_for_the_generated(
    tmp_path,
):
    """The default quiz (8 generated questions) with a seed that opens on a chapter question: it is asked and
    answered with numpy and sqlalchemy held (the generated questions cannot be made yet, nor the store opened);
    enter then does nothing; once they are made and the store is open, the verdict comes with the answer on
    disk, and enter brings the second question.
    (Nothing else is pressed while numpy is held: the hold keeps every import waiting, the help's too.)"""
    args = ["quiz", "--seed", str(opening_seed(chapter_first=True))]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for("chapter quiz", timeout=10)
        term.press("a")
        term.wait_for(SAVING)
        term.press("\r")  # nothing to go on to yet (tests/quiz/test_quiz_waits.py)
        assert term.loaded() == set()
        term.release()
        term.wait_for(ANSWERED)
        assert len(answers_on_disk()) == 1
        sent = term.press("\r")
        term.wait_for(re.compile(r"question 2/\d+"), after=sent)
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0
    assert len(answers_on_disk()) == 1


def screens_until(term, awaited) -> list[str]:
    """Every screen the terminal showed, chunk after chunk, until ``awaited`` was on it."""
    seen: list[str] = []

    def shown(screen: str) -> bool:
        seen.append(screen)
        return bool(awaited.search(screen))

    term.wait_for(shown)
    return seen


ASKED = re.compile(r"question 1/\d+(?s:.*)§7\.\d+ · ")  # the heading and the question's own line


def test_a_generated_question_in_first_place_is_in_the_first_paint(tmp_path):
    """With a seed that opens on a generated question, its questions are made (numpy) before the first paint:
    the first frame that shows a question shows that one, the shell's "Loading the questions…" never, and
    sqlalchemy is still held."""
    args = ["quiz", "--seed", str(opening_seed(chapter_first=False))]
    held = ("sqlalchemy",)
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE, heavy=held) as term:
        seen = screens_until(term, ASKED)
        assert "generated from the engine" in seen[-1]
        assert not [s for s in seen if "Loading the questions" in s]
        assert term.loaded() == set()
        term.release()
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0


def test_with_the_content_cached_the_first_frame_holds_the_first_question(tmp_path):
    """The content comes from its cache in milliseconds: the quiz shows its first (chapter) question in its
    first paint, never the shell's "Loading the questions…" before it."""
    args = ["quiz", "--seed", str(opening_seed(chapter_first=True))]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        seen = screens_until(term, ASKED)
        assert not [s for s in seen if "Loading the questions" in s]
        term.release()
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0


def test_content_to_be_built_paints_the_shell_first(tmp_path):
    """A pack no cache holds (a copy of the chapter, one comment added: the shipped entry is keyed by the files'
    bytes) is built in the worker, seconds: the shell
    ("Loading the questions…") is on the terminal before the first question."""
    import shutil

    from drill.content import default_content_path
    from drill.content.loader import QUESTIONS

    pack = tmp_path / "pack"
    shutil.copytree(default_content_path(), pack)
    with (pack / QUESTIONS).open("a", encoding="utf-8") as questions:  # bytes no entry was built from
        questions.write("\n# a copy of the chapter's pack\n")
    args = ["quiz", "--seed", "1", "--generated", "0", "--content", str(pack)]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        seen = screens_until(term, ASKED)
        assert [s for s in seen if "Loading the questions" in s]
        term.release()
        term.press("q")
        term.wait_for_exit()
    assert term.result.code == 0
