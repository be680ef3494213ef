"""Choice questions computed by the engine for every section of the chapter (`drill quiz`, `--generated N`).

Each template (drill.content.quizgen: one per section) draws small inputs, takes the right value from the
engine (traces, ops, drill.engine.sizes) and three wrong values, each the value a named mistake of the engine's
catalogue (drill.engine.mistakes) produces on the same inputs. The four options are formatted alike; a draw is
kept only when the four texts differ and keep their format's least distance (drill.content.quizgen.base:
0.01 between three-decimal values, 10 % between values in scientific notation, 5 % between sizes and counts).
No tells: within every block of four questions the right option takes each position once (a seed-shuffled
order), and the stems never name a matrix A–D (the option letters). Deterministic per seed; numpy and the
engine are imported inside the templates. The words are drill's own, in the UI language when the questions are
generated (drill.i18n); the numbers and the right letter are the same in every language.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from dataclasses import dataclass, field

from drill.engine.notation import number_format
from drill.errors import InputError
from drill.i18n import _

NUMERIC, CHOICE = "numeric", "choice"
LETTERS = "ABCD"


@dataclass(frozen=True)
class GeneratedQuestion:
    id: str  # "gen-<seed>-<n>", stable for a seed
    topic: str  # the template's name
    kind: str  # "choice" (NUMERIC is kept for typed questions)
    section: str  # the chapter section that teaches it
    prompt: str  # plain text in the UI language (drill.i18n), matrices included
    answer: float | str  # the right option's letter
    explanation: str  # plain text: the working, then the mistake behind each wrong option
    inputs: dict[str, object] = field(default_factory=dict)
    tolerance: float | None = None  # numeric only
    options: dict[str, str] | None = None  # letter -> text, in display order
    mistakes: dict[str, str] = field(
        default_factory=dict
    )  # wrong letter -> mistake id (drill.engine.mistakes)
    values: dict[str, object] = field(default_factory=dict)  # letter -> the value behind the option

    def note_for(self, letter: str) -> str:
        """What choosing ``letter`` means: the mistake behind it and the section to reread ("" if right)."""
        mid = self.mistakes.get(letter)
        return mistake_note(mid) if mid else ""


def mistake_note(mid: str) -> str:
    from drill.content.errata import correction_lines
    from drill.content.latex import render_text
    from drill.engine.mistakes import MISTAKES

    m = MISTAKES[mid]
    wording = render_text(m.wording).replace("**", "").replace("`", "")
    note = _("{wording} ({mistake}; reread §{section})").format(
        wording=wording, mistake=mid, section=m.section
    )
    # the chapter's words a mistake quotes, then drill's correction of any span they hold (drill.content.errata)
    lines = [render_text(line).replace("**", "").replace("`", "") for line in correction_lines(m.wording)]
    return "\n".join([note, *lines])


def sections() -> tuple[str, ...]:
    from drill.content.quizgen import TEMPLATES

    return tuple(sorted({t.section for t in TEMPLATES.values()}, key=_key))


def generate_questions(seed: int, n: int, *, section: str | None = None) -> list[GeneratedQuestion]:
    """``n`` questions, the same ones for the same seed; with ``section``, only that section's templates."""
    from drill.content.quizgen import TEMPLATES

    if n < 0:
        raise InputError(f"the number of generated questions must be >= 0, got {n}")
    names = [name for name, t in TEMPLATES.items() if section is None or t.section == section]
    if not names:
        raise InputError(f"no generated questions for section {section} (they cover {', '.join(sections())})")
    rng = random.Random(seed)
    out: list[GeneratedQuestion] = []
    seen: set[str] = set()
    order: list[str] = []
    positions: list[int] = []
    attempts = 0
    while len(out) < n:
        if not order:
            order = list(names)
            rng.shuffle(order)
        if not positions:
            positions = [0, 1, 2, 3]
            rng.shuffle(positions)
        name = order.pop()
        attempts += 1
        q = _build(TEMPLATES[name], rng, f"gen-{seed}-{len(out) + 1}", positions[-1])
        if q.prompt in seen and attempts < 50 * (n + 1):
            continue  # no question twice in one quiz
        seen.add(q.prompt)
        positions.pop()
        out.append(q)
    return out


def _build(template, rng: random.Random, qid: str, position: int) -> GeneratedQuestion:
    from drill.content.quizgen.base import options_apart

    for _attempt in range(200):
        draft = template.draw(rng)
        if draft is None:
            continue
        # four different options, each at least its format's distance from the others (quizgen.base)
        if options_apart(template.fmt, [draft.right, *(v for _, v in draft.wrong)]):
            texts = [template.fmt(draft.right)] + [template.fmt(v) for _, v in draft.wrong]
            break
    else:  # pragma: no cover - every template finds options far enough apart within a few draws
        raise RuntimeError(f"{template.name}: no draw with four options far enough apart")
    slots: list[int] = [1, 2, 3]
    rng.shuffle(slots)
    slots.insert(position, 0)  # which candidate sits at each letter; 0 is the right one
    options = {LETTERS[p]: texts[c] for p, c in enumerate(slots)}
    values = {LETTERS[p]: (draft.right if c == 0 else draft.wrong[c - 1][1]) for p, c in enumerate(slots)}
    mistakes = {LETTERS[p]: draft.wrong[c - 1][0] for p, c in enumerate(slots) if c}
    lines = [draft.working]
    for letter, mid in mistakes.items():
        lines.append(_("{letter}: {note}").format(letter=letter, note=mistake_note(mid)))
    return GeneratedQuestion(
        id=qid,
        topic=template.name,
        kind=CHOICE,
        section=template.section,
        prompt=draft.prompt,
        answer=LETTERS[position],
        explanation="\n".join(lines),
        inputs=draft.inputs,
        options=options,
        mistakes=mistakes,
        values=values,
    )


def _key(section: str) -> tuple[int, ...]:
    return tuple(int(p) for p in section.split("."))


# ---------------------------------------------------------------- answers


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\Z", re.IGNORECASE)


def parse_number(text: str) -> float:
    """A typed number: ``0.198``, ``.2``, ``-1.5e-3``, ``19.8%``, ``1/3``; full-width digits and ``−`` accepted."""
    raw = text
    text = unicodedata.normalize("NFKC", text).strip().replace("−", "-").replace(" ", "")
    if not text:
        raise InputError("type a number (for example 0.25)")
    percent = text.endswith("%")
    if percent:
        text = text[:-1]
    if text.count("/") == 1:
        top, bottom = (parse_number(part) for part in text.split("/"))
        if bottom == 0:
            raise InputError(f"{raw.strip()!r}: division by zero")
        value = top / bottom
    elif _NUMBER.match(text):
        value = float(text)
    else:
        raise InputError(f"{raw.strip()!r} is not a number (type something like 0.25, 1/4 or 25%)")
    if not math.isfinite(value):
        raise InputError(f"{raw.strip()!r} is not a finite number")
    return value / 100 if percent else value


def check_numeric_answer(text: str, q: GeneratedQuestion) -> bool:
    """Is the typed ``text`` within the question's tolerance? InputError when it is not a number."""
    if q.kind != NUMERIC:
        raise ValueError(f"{q.id} is a {q.kind} question")
    return abs(parse_number(text) - float(q.answer)) <= (q.tolerance or 0.0) + 1e-12


def check_answer(text: str, q: GeneratedQuestion) -> bool:
    """Numeric questions: within tolerance; choice questions: the option letter (case-insensitive)."""
    if q.kind == NUMERIC:
        return check_numeric_answer(text, q)
    key = text.strip().upper()
    if key not in (q.options or {}):
        raise InputError(f"{text.strip()!r} is not one of the options ({', '.join(q.options or {})})")
    return key == q.answer


# ---------------------------------------------------------------- formatting (used by the templates)


def format_scalar(value: float) -> str:
    """One number of a stem or a working, as every surface writes it (drill.engine.notation)."""
    return number_format(value)(value)


def format_vector(values) -> str:
    """A row or a column, written by its own numbers (drill.engine.notation): ``[1, −2, 0]``."""
    fmt = number_format(values)
    return "[" + ", ".join(fmt(v) for v in values) + "]"


def format_matrix(name: str, rows) -> str:
    """A named matrix, written by its own numbers as the calc screen and `drill calc --plain` write it."""
    fmt = number_format(rows)
    cells = [[fmt(v) for v in row] for row in rows]
    width = max(len(c) for row in cells for c in row)
    body = "\n".join("  [ " + "  ".join(c.rjust(width) for c in row) + " ]" for row in cells)
    return f"{name} =\n{body}"
