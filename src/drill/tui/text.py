"""Make content text safe to put on a terminal, whatever reached the widget layer.

The content loader rejects control characters; this is the second line of defence for text that arrives some
other way (a Card built in code, a database value). The rule (which characters, which stand-ins: ESC -> ␛) is
drill.content.control's, the same one the loader and the LaTeX renderer apply.
"""

from __future__ import annotations

from drill.content.control import visible

__all__ = ["shown", "visible"]


def shown(text: str) -> str:
    """Chapter text for a terminal: formulas rendered, control characters made visible."""
    from drill.content.latex import render_text

    return visible(render_text(text).replace("**", ""))
