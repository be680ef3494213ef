"""Which widget shows a card: one place, by the card's kind.

A card kind whose front or back is more than a question and a Markdown answer (a code card's editor, a table
cloze) registers its view here: a `CardView` subclass, so the study screen treats it as any card view (show,
reveal, errata). Looked up lazily ("module:Class"), so a kind's widgets cost nothing until such a card shows.
"""

from __future__ import annotations

import importlib

from drill.tui.widgets.card_view import CardView

# card kind -> "module:CardViewSubclass"; a kind not listed is shown by CardView.
CARD_VIEWS: dict[str, str] = {
    # the answer side is a screen of its own: the code editor, the typed hand calculation (answer_views)
    "code": "drill.tui.widgets.answer_views:CodeCardView",
    "calc": "drill.tui.widgets.answer_views:CalcCardView",
}


def card_view_for(kind: str) -> type[CardView]:
    """The CardView class that shows a card of ``kind`` (`drill.tui.models.custom_study.card_kind`)."""
    target = CARD_VIEWS.get(kind)
    if target is None:
        return CardView
    module_name, class_name = target.split(":")
    view = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(view, type) and issubclass(view, CardView)):
        raise TypeError(f"{target} (the view of {kind!r} cards) is not a CardView")
    return view
