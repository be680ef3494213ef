"""The walk: every string drill can show that comes from the chapter, and where a corrected span appears in it
(an erratum's ``claims`` in data/errata.yaml), its correction must appear beside it, in the UI language.

The oracle is independent of drill.content.errata: the spans and corrections are read straight from
data/errata.yaml with PyYAML, and each surface's text is built by the surface's own function. A span counts as
shown when the chapter's words (or their rendering: LaTeX as Unicode) are in the view; its correction counts as
beside it when the correction's words (``note`` in Chinese, ``note_en`` in English) are in the same view.

Surfaces covered (each in English and in Chinese):
  1. study cards once revealed, every kind (tui.widgets.card_view.answer_markdown: answer, bank answer,
     pitfalls, the section's question; a table card's table, a cloze card's text, a calc card's givens): the
     spans of the front are corrected on the back, as the learner sees them on reveal;
  2. Anki fields (report.anki's note: the back, FrontSide + Answer + Pitfalls);
  3. interview rubric: key points (tui.screens.interview_rubric.point_item with erratum_notes) and the
     traps' corrections (misconceptions.yaml, tui.models.interview.correction_text);
  4. the named mistakes' wordings: code diagnoses (runner.verdict.lines' mistake line and its --json) and
     generated quiz explanations (content.generated.mistake_note);
  5. chapter quizzes: stem, options and explanation as the quiz shows them after an answer
     (tui.models.quiz.chapter_item);
  6. generated quiz questions: prompt, options and explanation (tui.models.quiz.generated_item) over 40 seeds;
  7. demo notes (tui.screens.demo.info_text);
  8. report rows: each card's question as the reports list it (report.figures._questions; a table card's
     row is the one it asks, ``asked_line``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from drill.content import load_content
from drill.content.errata import set_errata
from drill.content.latex import render_text
from drill.i18n import set_language

DATA = Path(__file__).resolve().parents[2] / "data"
ERRATA = yaml.safe_load((DATA / "errata.yaml").read_text(encoding="utf-8"))["errata"]
LIBRARY = load_content(DATA, cache=False)


def _norm(text: str) -> str:
    return "".join(text.replace("**", "").replace("`", "").split())


def _forms(text: str) -> set[str]:
    forms = {_norm(text), _norm(render_text(text)), _norm(render_text(text, markdown=True))}
    if "&" in text and "$" not in text:  # a LaTeX matrix row, quoted as its cells
        forms.add(_norm(" ".join(cell.strip() for cell in text.split("&"))))
    return {f for f in forms if f}


def missing(view: str, sources: tuple[str, ...], language: str) -> list[str]:
    """The errata whose span ``sources`` (what fed the view) or ``view`` show, without their correction."""
    flat, fed = _norm(view), [_norm(s) for s in sources if s]
    out = []
    for e in ERRATA:
        shown = any(
            form in flat or any(form in s for s in fed)
            for span in e["claims"]
            for form in _forms(span.strip())
        )
        if not shown:
            continue
        note = e["note"] if language == "zh" else e.get("note_en", e["note"])
        if not any(form in flat for form in _forms(note)):
            out.append(e["id"])
    return out


def card_views():
    from drill.tui.widgets.card_view import answer_markdown

    for card in LIBRARY.cards.values():
        yield f"card {card.id}", answer_markdown(card), (card.front, *card.shown_text())


def anki_views():
    import html
    import re

    from drill.report.anki import build_decks

    for deck in build_decks(LIBRARY):
        for note in deck.notes:
            question, answer, _section, pitfalls, card_id = note.fields
            back = html.unescape(re.sub(r"<[^>]+>", " ", question + answer + pitfalls))
            card = LIBRARY.cards[html.unescape(card_id)]
            yield f"anki {card.id}", back, (card.front, *card.shown_text())


def rubric_views():
    from drill.content.misconceptions import load_misconceptions
    from drill.tui.models.interview import correction_text
    from drill.tui.screens.interview_rubric import erratum_notes, point_item

    for card in LIBRARY.cards.values():
        for i, point in enumerate(card.points):
            shown = point_item(point, (), erratum_notes(point, LIBRARY.errata)).plain
            yield f"rubric {card.id} point {i}", shown, (point,)
    for m in load_misconceptions(
        LIBRARY
    ).items:  # the traps: drill's wording, corrected by the chapter or drill
        sources = tuple(c.text for c in m.corrections if not c.drills)
        yield f"rubric misconception {m.id} correction", correction_text(m), sources


def mistake_views():
    from drill.content.generated import mistake_note
    from drill.engine.mistakes import MISTAKES
    from drill.runner import verdict

    for m in MISTAKES.values():
        shown = "\n".join(
            [
                verdict.plain_wording(m.wording),
                *(verdict.plain_wording(line) for line in verdict.correction_lines(m.wording)),
            ]
        )
        yield f"code diagnosis {m.id}", shown, (m.wording,)
        yield f"quiz explanation {m.id}", mistake_note(m.id), (m.wording,)


def quiz_views():
    from drill.tui.models.quiz import chapter_item

    for quiz in LIBRARY.quizzes:
        item = chapter_item(quiz, None)
        view = "\n".join([item.stem, *(o.text for o in item.options), item.explanation])
        yield f"quiz {quiz.id}", view, (quiz.stem, *quiz.options.values(), quiz.explanation)


def generated_views():
    from drill.content.generated import generate_questions
    from drill.tui.models.quiz import generated_item

    for seed in range(40):
        for q in generate_questions(seed, 12):
            item = generated_item(q)
            view = "\n".join([item.stem, *(o.text for o in item.options), item.explanation])
            yield f"generated {q.id} seed {seed}", view, ()


def demo_views():
    from drill.content.demos import load_demos
    from drill.tui.screens.demo import info_text

    for info in load_demos():
        yield f"demo {info.name}", info_text(info).plain, (info.title, info.description)


def report_views():
    from drill.report.figures import _questions

    for cid, shown in _questions(LIBRARY).items():
        card = LIBRARY.cards[cid]
        # what the row is built from: a table card's row (its cells asked, the others given), else the front
        line = getattr(card, "asked_line", None)
        yield f"report row {cid}", shown, (line() if line is not None else card.front,)


SURFACES = {
    "cards": card_views,
    "anki": anki_views,
    "rubric": rubric_views,
    "mistakes": mistake_views,
    "quizzes": quiz_views,
    "generated": generated_views,
    "demos": demo_views,
    "reports": report_views,
}


@pytest.fixture(params=["en", "zh"])
def language(request):
    # The errata a correction is looked up in are the last loaded content's (drill.content.errata.set_errata):
    # a test that loaded other content earlier on this worker (the fuzz tests' mangled files) left its own.
    set_errata(LIBRARY.errata, LIBRARY.checks)
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_corrected_span_shows_its_correction(surface, language):
    walked, bad = 0, []
    for where, view, sources in SURFACES[surface]():
        walked += 1
        for erratum in missing(view, sources, language):
            bad.append(f"{where}: {erratum}")
    assert walked, f"{surface}: nothing walked"
    assert not bad, f"{len(bad)} views show a corrected span without its correction:\n" + "\n".join(bad)


def test_the_walk_finds_spans_on_every_surface_it_can():
    """The walk is not vacuous: spans are found on the cards, Anki, rubric, mistakes, demos and reports."""
    set_language("zh")
    try:
        for surface in ("cards", "anki", "rubric", "mistakes", "demos", "reports"):
            hits = 0
            for _where, view, sources in SURFACES[surface]():
                flat = _norm(view) + "".join(_norm(s) for s in sources if s)
                hits += any(_norm(c.strip()) in flat for e in ERRATA for c in e["claims"])
            assert hits, surface
    finally:
        set_language("en")


def test_each_span_is_declared_once_and_in_the_chapter():
    chapter = (DATA / "transformer-chapter-7.md").read_text(encoding="utf-8")
    spans = [c.strip() for e in ERRATA for c in e["claims"]]
    assert len(spans) == len(set(spans))
    for span in spans:
        assert span in chapter, span
