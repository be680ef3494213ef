"""Make content text safe to put on a terminal, whatever reached the widget layer.

The content loader rejects control characters; this is the second line of defence for text that arrives some
other way (a Card built in code, a database value): every control character except newline and tab becomes a
visible stand-in (ESC -> ␛), so nothing is ever sent to the terminal as a control sequence.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures" block: ␀ … ␟
    if code == 0x7F:
        return "␡"
    return f"\\x{code:02x}"  # C1 controls have no pictures


def visible(text: str) -> str:
    return _CONTROL.sub(_stand_in, text)
