"""Chinese text wraps between characters (filling each line), with punctuation kept in place."""

from __future__ import annotations

import re

from rich._wrap import divide_line, words
from rich.cells import cell_len

from drill.tui import cjk

TEXT = "Q 是「查询」（当前 token 想找什么），K 是「键」（每个 token 的匹配标签），V 是「值」（匹配后传递的内容）。三者都由输入 X 用不同权重投影得到。"


def lines_of(text: str, width: int) -> list[str]:
    offsets = divide_line(text, width)
    bounds = [0, *offsets, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def test_every_character_is_kept():
    cjk.install()
    assert "".join(word for _, _, word in words(TEXT)) == TEXT
    for text in ("plain ascii words only", "中文", "（开）", "a，b。", " 前后 ", "x\u3000y"):
        assert "".join(word for _, _, word in words(text)) == text


def test_chinese_lines_are_filled():
    cjk.install()
    width = 24
    lines = lines_of(TEXT, width)
    assert len(lines) > 3
    for line in lines[:-1]:
        assert cell_len(line.rstrip()) <= width
        assert cell_len(line.rstrip()) >= width - 4, lines  # no ragged short lines


def test_punctuation_never_starts_a_line():
    cjk.install()
    for width in range(10, 40):
        for line in lines_of(TEXT, width)[1:]:
            assert not re.match(rf"[{cjk.CLOSING}]", line), (width, line)
        for line in lines_of(TEXT, width)[:-1]:
            assert not re.search(rf"[{cjk.OPENING}]\s*$", line), (width, line)


def test_latin_words_are_not_split():
    cjk.install()
    lines = lines_of("attention is all you need " * 4, 12)
    for line in lines:
        for word in line.split():
            assert word in {"attention", "is", "all", "you", "need"}
