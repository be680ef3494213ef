"""One lookup of the chapter's corrections: which spans of a text an erratum corrects, and the correction in the UI
language. Every surface that shows the chapter's words (cards, Anki fields, interview rubric points and traps, the
named mistakes of code diagnoses and quiz explanations, demo notes, reports) asks here, so a correction declared
once in ``errata.yaml`` (its ``claims``: the spans, quoted word for word) reaches every place that quotes them.

    corrections_in(text)      -> [Correction(span, correction, ...)]  the spans ``text`` holds, in text order
    annotate(text)            -> text, then one "⚠ drill: 「span」 → correction" line per span it holds
    correction_lines(text)    -> just those lines (for a surface that lays them out itself)
    card_notes(card)          -> the card's corrections (its spans' errata and its checks'), in the UI language

The errata are those of the content loaded last (``drill.content.load_content`` registers them), else the shipped
content's; pass ``errata=`` to look up against others. Pure Python: no numpy, textual or rich.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drill.i18n import N_, _, current_language

if TYPE_CHECKING:
    from drill.content.models import Card, Check, Erratum

WRONG, NOTE = "wrong", "note"  # Erratum.kind / Check.kind
# The marks that say the words after them are drill's, not the chapter's.
MARKS = {WRONG: N_("⚠ drill: the chapter is wrong here"), NOTE: N_("ⓘ drill: the exact figure")}

_active: tuple[Erratum, ...] | None = None
_checks: dict[str, Check] = {}


@dataclass(frozen=True)
class Correction:
    span: str  # the chapter's words, as the erratum quotes them
    correction: str  # drill's words, in the UI language
    erratum: str  # the erratum's id (or the check's, for a printed number)
    kind: str = WRONG  # "wrong" or "note"
    source: str | None = None

    def __iter__(self):  # (span, correction), as `for span, correction in corrections_in(text)`
        return iter((self.span, self.correction))

    @property
    def quote(self) -> str:
        """The span as a screen shows it: LaTeX matrix cells and math delimiters as plain text."""
        return shown_span(self.span)

    @property
    def line(self) -> str:
        """One line, marked as drill's: "⚠ drill: the chapter is wrong here — 「span」: correction"."""
        return _("{mark} — 「{span}」: {correction}").format(
            mark=_(MARKS[self.kind]), span=self.quote, correction=self.correction
        )


def set_errata(errata: Iterable[Erratum], checks: Iterable[Check] = ()) -> None:
    """Make ``errata`` (and ``checks``, for the printed numbers) the ones looked up by default: the loader calls
    it with the content it loaded."""
    global _active
    _active = tuple(errata)
    _checks.clear()
    _checks.update((check.id, check) for check in checks)


def active_errata() -> tuple[Erratum, ...]:
    if _active is None:
        from drill.content.loader import load_content

        load_content()  # registers its errata
    return _active or ()


def in_language(zh: str, en: str | None) -> str:
    """drill's words of a correction in the UI language (Chinese is the chapter's and the notes' first language)."""
    return zh if current_language() == "zh" or not en else en


def erratum_text(erratum: Erratum) -> str:
    return in_language(erratum.note, erratum.note_en)


def check_text(check: Check) -> str:
    return in_language(check.erratum or "", check.erratum_en)


def shown_span(span: str) -> str:
    """A span as plain text: a LaTeX matrix row's ``&`` as spaces, ``$`` math rendered, white space collapsed."""
    text = span.strip()
    if "&" in text and "$" not in text:
        text = "  ".join(cell.strip() for cell in text.split("&"))
    if "$" in text or "\\" in text:
        from drill.content.latex import render_text

        text = render_text(text)
    return " ".join(text.split())


def corrections_in(text: str | None, errata: Sequence[Erratum] | None = None) -> list[Correction]:
    """The corrections of every erratum span that ``text`` holds, in the order the spans occur in it."""
    if not text:
        return []
    found: list[tuple[int, Correction]] = []
    for erratum in active_errata() if errata is None else errata:
        for span in erratum.claims:
            at = text.find(span.strip())
            if at >= 0:
                correction = Correction(
                    span.strip(), erratum_text(erratum), erratum.id, erratum.kind, erratum.source
                )
                found.append((at, correction))
                break  # one correction per erratum and text
    return [c for _at, c in sorted(found, key=lambda pair: pair[0])]


def correction_lines(text: str | None, errata: Sequence[Erratum] | None = None) -> list[str]:
    return [c.line for c in corrections_in(text, errata)]


def annotate(
    text: str, errata: Sequence[Erratum] | None = None, *, also: Iterable[str | None] = (), sep: str = "\n"
) -> str:
    """``text`` as written, then each correction it needs on its own line (nothing added when it needs none);
    ``also``: texts shown before it (a question's stem and options) whose spans it corrects too."""
    seen: dict[str, Correction] = {}
    for part in (*also, text):
        for c in corrections_in(part, errata):
            seen.setdefault(c.erratum, c)
    lines = [c.line for c in seen.values()]
    return sep.join([text, *lines]) if lines else text


def card_notes(card: Card, errata: Sequence[Erratum] | None = None) -> list[Correction]:
    """What the card shows beside the chapter's words: one correction per erratum whose span the card shows, then
    the correction of the printed number a hand-calculation card asks (its check's), when the chapter is off."""
    seen: dict[str, Correction] = {}
    for text in card.shown_text():
        for c in corrections_in(text, errata):
            seen.setdefault(c.erratum, c)
    out = list(seen.values())
    active_errata()  # the checks are registered with the errata
    check = _checks.get(getattr(card, "check", None) or "")
    if check is not None and check.erratum:
        out.append(Correction(f"{check.claimed:g}", check_text(check), check.id, check.kind))
    return out
