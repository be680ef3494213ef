"""What the learner's code prints is shown through content.control's one rule: no character the content loader
refuses (controls, bidi, invisible format characters such as U+200B) reaches the terminal."""

from __future__ import annotations

from drill.content.control import find, visible
from drill.runner.verdict import safe


def test_safe_lets_no_refused_character_through():
    every = "".join(chr(c) for c in range(0x3000))
    assert find(safe(every)) is None
    assert safe("a\u200bb\x1b[31m") == visible("a\u200bb\x1b[31m") == "a<U+200B>b␛[31m"
