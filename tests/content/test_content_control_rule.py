"""One control-character rule (drill.content.control) for the loader, the LaTeX renderer and the TUI."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from drill.content import control
from drill.content.latex import render_latex
from drill.content.yamlio import parse_yaml
from drill.errors import ContentError
from drill.tui.text import visible

REFUSED = [chr(c) for c in range(sys.maxunicode + 1) if control.find(chr(c))]


def test_the_rule_is_unicode_cc_less_tab_and_newline_and_every_cf():
    oracle = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in ("Cc", "Cf")]
    assert REFUSED == [ch for ch in oracle if ch not in "\t\n"]
    for ch in "\u202e\u2066\u2069\u200b\u200f\ufeff\u00ad":  # issue 11 item 10: each of these is refused
        assert control.find(f"a{ch}b") is not None
    assert not any(control.find(ch) for ch in "\t\n a注∑")


def test_cr_is_a_line_break_in_a_file_but_refused_in_a_value():
    assert control.find_in_file("a\r\nb") is None and control.find("a\rb").group() == "\r"
    assert control.blank_in_file("a\x1b\r\n") == "a \r\n"


@pytest.mark.parametrize("ch", REFUSED)
def test_loader_renderer_and_screen_apply_the_same_rule(ch):
    with pytest.raises(ContentError, match=rf"t\.yaml:1: q: control character U\+{ord(ch):04X}"):
        escape = f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\U{ord(ch):08x}"  # YAML's escapes
        parse_yaml(f'q: "a{escape}b"\n', Path("t.yaml"))
    assert render_latex(f"a{ch}b") == "ab"
    shown = visible(f"a{ch}b")
    assert shown.startswith("a") and shown.endswith("b") and len(shown) > 2
    assert control.find(shown) is None


def test_describe_names_the_character():
    assert control.describe("\x1b") == "U+001B (ESC)"
    assert control.describe("\x85") == "U+0085 (C1 control)"
    assert control.describe("\u202e") == "U+202E (RIGHT-TO-LEFT OVERRIDE)"


def test_bidi_format_characters_are_listed_for_the_rule():
    """BIDI_FORMAT holds UAX #9's Bidi_Control characters, all of category Cf (ready to join REFUSED)."""
    import re

    listed = [chr(c) for c in range(0x3000) if re.fullmatch(f"[{control.BIDI_FORMAT}]", chr(c))]
    names = [unicodedata.name(ch) for ch in listed]
    assert names == [
        "ARABIC LETTER MARK",
        "LEFT-TO-RIGHT MARK",
        "RIGHT-TO-LEFT MARK",
        "LEFT-TO-RIGHT EMBEDDING",
        "RIGHT-TO-LEFT EMBEDDING",
        "POP DIRECTIONAL FORMATTING",
        "LEFT-TO-RIGHT OVERRIDE",
        "RIGHT-TO-LEFT OVERRIDE",
        "LEFT-TO-RIGHT ISOLATE",
        "RIGHT-TO-LEFT ISOLATE",
        "FIRST STRONG ISOLATE",
        "POP DIRECTIONAL ISOLATE",
    ]
    assert all(unicodedata.category(ch) == "Cf" for ch in listed)
