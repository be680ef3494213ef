"""Line breaking for Chinese text.

Rich and Textual wrap only at whitespace, so a run of Chinese (which has no spaces) is one "word": it jumps
whole to the next line and leaves short, ragged lines. Here every CJK character is a word of its own, with
the usual kinsoku rules: closing punctuation (，。）」 …) stays with the character before it and opening
punctuation (（「 …) with the character after it. Latin words are wrapped as before.

Rich's word splitter (``rich._wrap.re_word``, which Textual's ``Content`` wraps with) is replaced by
`install()`; textual and rich are pinned, and tests/tui/test_cjk_wrap.py checks the effect.
"""

from __future__ import annotations

import re

_IDEOGRAPHS = "\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_WIDE_PUNCT = "\u3000-\u303f\uff00-\uffef"
OPENING = "（「『【《〈〔［｛“‘"
CLOSING = "，。、；：？！）」』】》〉〕］｝”’％…·・"
_CJK = f"{_IDEOGRAPHS}{_WIDE_PUNCT}{OPENING}{CLOSING}"

WORD = re.compile(rf"\s*(?:[{OPENING}]*[{_CJK}][{CLOSING}]*|[^\s{_CJK}]+[{CLOSING}]*)\s*")


def install() -> None:
    import rich._wrap

    rich._wrap.re_word = WORD
