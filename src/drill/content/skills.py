"""Skills, declared once: what an interview tests, and which skill each kind of practice item trains.

An interview tests four skills: **recall** a fact, **explain** an answer aloud, **calculate** by hand, **write the
code**. Every practice item drill has belongs to exactly one, derived from its kind here and nowhere else:

- a card, by its kind (``drill.content.kinds.KINDS``): a table row (``cloze``) and a formula ↔ code line
  (``formula``) are recalled; a question/answer card (``qa``) is explained; a step of the worked example
  (``calc``) is calculated; a code task (``code``) is written;
- a bank question met in a mock interview (``interview``): explained;
- a generated quiz question, by the work its template asks (``drill.content.quizgen.WORKS``): a concept is
  recalled; a shape, a formula worked on numbers and a hand calculation are calculated.

The report, the plan, the study header and the ``--json`` outputs name skills with `SKILLS` and `skill_of`.
Standard library only (the study screen and the store's sync read it).
"""

from __future__ import annotations

from drill.i18n import N_, _, ngettext

RECALL, EXPLAIN, CALCULATE, CODE = "recall", "explain", "calculate", "code"
SKILLS = (RECALL, EXPLAIN, CALCULATE, CODE)  # the order every output lists them in

INTERVIEW = "interview"  # a bank question answered in a mock interview (`drill interview`)
QUIZ_PREFIX = "quiz-"  # a generated quiz question: "quiz-" + its template's work

# The one table: item kind -> skill. Card kinds are drill.content.kinds.KINDS's keys (a test checks every one
# is here); quiz works are drill.content.quizgen.WORKS (likewise).
SKILL_OF_KIND: dict[str, str] = {
    "qa": EXPLAIN,
    "cloze": RECALL,
    "formula": RECALL,
    "calc": CALCULATE,
    "code": CODE,
    INTERVIEW: EXPLAIN,
    QUIZ_PREFIX + "concept": RECALL,
    QUIZ_PREFIX + "shape": CALCULATE,
    QUIZ_PREFIX + "formula": CALCULATE,
    QUIZ_PREFIX + "hand": CALCULATE,
}

_NAMES = {
    RECALL: N_("Recall"),
    EXPLAIN: N_("Explain"),
    CALCULATE: N_("Calculate"),
    CODE: N_("Code"),
}


def skill_of(kind: str) -> str:
    """The skill an item of ``kind`` trains (a card kind, ``interview`` or ``quiz-<work>``); ValueError for an
    unknown kind (a kind added without a skill is a bug, not a default)."""
    try:
        return SKILL_OF_KIND[kind]
    except KeyError:
        raise ValueError(f"no skill declared for the item kind {kind!r} (drill.content.skills)") from None


def skill_name(skill: str) -> str:
    """The skill's name in the UI language."""
    return _(_NAMES[skill])


def never_tried_text(skill: str, untried: int, total: int) -> str:
    """'12 of 13 code tasks never tried', in the UI language (the item named by its skill)."""
    if skill == RECALL:
        text = ngettext(
            "{n} of {total} recall card never tried", "{n} of {total} recall cards never tried", total
        )
    elif skill == EXPLAIN:
        text = ngettext("{n} of {total} question never tried", "{n} of {total} questions never tried", total)
    elif skill == CALCULATE:
        text = ngettext(
            "{n} of {total} hand calculation never tried",
            "{n} of {total} hand calculations never tried",
            total,
        )
    else:
        text = ngettext(
            "{n} of {total} code task never tried", "{n} of {total} code tasks never tried", total
        )
    return text.format(n=untried, total=total)


__all__ = [
    "CALCULATE",
    "CODE",
    "EXPLAIN",
    "INTERVIEW",
    "QUIZ_PREFIX",
    "RECALL",
    "SKILLS",
    "SKILL_OF_KIND",
    "never_tried_text",
    "skill_name",
    "skill_of",
]
