"""SVG screenshots of drill's screens as drill saves them (``DrillApp.save_screenshot``: Chinese in its cells),
for a closing note or the README::

    python -m tests.tui.screenshots OUTDIR [--lang zh|en] [--size 80x24]

writes OUTDIR/study.svg, quiz.svg and calc.svg: the scenes the Chinese snapshot tests show
(tests/i18n/test_snapshots_zh.py) -- the study screen with q05's answer revealed, the quiz's feedback after a
wrong answer, calc's worked example at its softmax step -- on the shipped content, a throwaway store and a
frozen clock.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import drill.i18n
from drill.content import load_content
from drill.store import open_store
from drill.tui.app import DrillApp, make_app
from tests.i18n.test_snapshots_zh import quiz, study
from tests.tui.test_snapshots import revealed
from tests.tui.test_snapshots_quiz_calc import _calc_ready, _wrong_answer

Before = Callable[..., Awaitable[None]]
SVG = "{http://www.w3.org/2000/svg}"


async def calc_at_softmax(pilot) -> None:
    await _calc_ready(pilot)
    await pilot.press("c")
    screen = pilot.app.mode_screen
    while screen.trace.steps[screen.index].name != "softmax":
        await pilot.press("right")
    await pilot.pause()


def cells(char: str) -> int:
    """A character's terminal cells by Unicode (the oracle): East Asian Wide or Fullwidth take two; a
    combining mark or a control character (the newline Rich draws at each line's end) none."""
    if unicodedata.combining(char) or unicodedata.category(char) == "Cc":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


@dataclass(frozen=True)
class Run:
    row: str  # the text's y
    column: int  # the cell it starts at
    text: str
    style: str  # its class, less the screenshot's unique id
    length: float | None  # its textLength
    x: float


def runs(svg: str, columns: int) -> tuple[float, list[Run]]:
    """(the cell width, every run of text drawn in the terminal) of a screenshot ``columns`` wide."""
    root = ET.fromstring(svg)
    line = root.find(f".//{SVG}clipPath/{SVG}rect[@y='1.5']")
    assert line is not None
    cell = float(line.get("width")) / columns
    found = []
    for text in root.iter(f"{SVG}text"):
        if text.get("textLength") is None and not text.get("class", "").rsplit("-", 1)[-1].startswith("r"):
            continue  # the window title
        x = float(text.get("x"))
        length = text.get("textLength")
        found.append(
            Run(
                row=text.get("y"),
                column=round(x / cell),
                text=text.text or "",
                style=text.get("class").rsplit("-", 1)[-1],
                length=None if length is None else float(length),
                x=x,
            )
        )
    return cell, found


def drawn(svg: str, columns: int) -> set[tuple[str, int, str, str]]:
    """(row, column, character, style) of every character a screenshot draws."""
    _cell, found = runs(svg, columns)
    out = set()
    for run in found:
        column = run.column
        for char in run.text:
            out.add((run.row, column, char, run.style))
            column += cells(char)
    return out


def screen_lines(svg: str, columns: int) -> list[str]:
    """The rows of text a screenshot draws, as a terminal shows them (a wide character followed by nothing:
    it takes its two cells), for a test that looks for words on screen."""
    rows: dict[str, dict[int, str]] = {}
    for row, column, char, _style in drawn(svg, columns):
        rows.setdefault(row, {})[column] = char
    lines = []
    for row in sorted(rows, key=float):
        chars = rows[row]
        line, at = "", 0
        for column in sorted(chars):
            line += " " * max(0, column - at) + chars[column]
            at = column + cells(chars[column])
        lines.append(line.replace("\xa0", " "))
    return lines


# name -> (the app, made from the content and a store; what to do before the screenshot)
SCENES: dict[str, tuple[Callable[..., DrillApp], Before]] = {
    "study": (study, revealed()),
    "quiz": (quiz, _wrong_answer),
    "calc": (lambda library, store: make_app("calc", example="worked"), calc_at_softmax),
}


async def shoot(app: DrillApp, before: Before, size: tuple[int, int], folder: Path, name: str) -> Path:
    """Run ``app`` at ``size`` and save its screenshot as ``folder/name`` the way drill saves one."""
    async with app.run_test(size=size) as pilot:
        await before(pilot)
        return Path(app.save_screenshot(filename=name, path=str(folder)))


async def save_screens(folder: Path, lang: str = "zh", size: tuple[int, int] = (80, 24)) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    drill.i18n.set_language(lang)
    library = load_content()
    saved = []
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'progress.sqlite3'}", "screenshots")
        try:
            for name, (build, before) in SCENES.items():
                saved.append(await shoot(build(library, store), before, size, folder, f"{name}.svg"))
        finally:
            store.close()
    return saved


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.tui.screenshots", description=__doc__.split("::")[0]
    )
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--lang", choices=drill.i18n.LANGUAGES, default="zh")
    parser.add_argument("--size", default="80x24", help="COLUMNSxROWS (default 80x24)")
    args = parser.parse_args(argv)
    columns, _, rows = args.size.partition("x")
    for path in asyncio.run(save_screens(args.outdir, args.lang, (int(columns), int(rows)))):
        print(path)


if __name__ == "__main__":
    main()
