"""A quiz's questions and their order (`plan_items`), known from the content alone before the generated
questions are made (numpy and the engine): the quiz screen asks a chapter question in first place while they
are made (`QuizPlan.first`, `QuizPlan.complete`). `build_items` does both at once. No textual here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drill.errors import InputError
from drill.tui.models.quiz import QuizItem, chapter_item, generated_item

if TYPE_CHECKING:
    from drill.content.generated import GeneratedQuestion
    from drill.content.models import Library, Quiz


# A generated question not made yet, in a `QuizPlan`'s questions (`QuizPlan.placeholders`): never asked.
PENDING = QuizItem(id="", kind="pending", section="", stem="", explanation="")


@dataclass
class QuizPlan:
    """A quiz's questions in the order they are asked, known from the content alone: ``slots`` holds each
    chapter question and, for each generated one, its index among the seed's generated questions, which
    `complete` makes (numpy and the engine, drill.content.generated). A chapter question in first place can
    be asked while they are made (`first`)."""

    slots: list[QuizItem | int]
    seed: int
    generated: int  # how many generated questions the slots hold
    section: str | None

    def first(self) -> QuizItem | None:
        """The first question when it is the chapter's (nothing to make), else None."""
        head = self.slots[0]
        return head if isinstance(head, QuizItem) else None

    def placeholders(self) -> list[QuizItem]:
        """The questions with `PENDING` where a generated one is still to be made."""
        return [slot if isinstance(slot, QuizItem) else PENDING for slot in self.slots]

    def complete(self) -> list[QuizItem]:
        """Every question, made, in order; a generated one asking what an earlier question asks is left out."""
        made = [generated_item(q) for q in _generated(self.seed, self.generated, self.section)]
        seen = {slot.stem for slot in self.slots if isinstance(slot, QuizItem)}
        items = []
        for slot in self.slots:
            if isinstance(slot, int):
                if made[slot].stem in seen:
                    continue
                seen.add(made[slot].stem)
                items.append(made[slot])
            else:
                items.append(slot)
        return items


def build_items(library: Library, **options: Any) -> list[QuizItem]:
    """The questions of one quiz, in the order asked, no question twice: `plan_items` with these options, made."""
    return plan_items(library, **options).complete()


def plan_items(
    library: Library,
    *,
    count: int | None = None,
    section: str | None = None,
    shuffle: bool = True,
    generated: int = 0,
    seed: int = 0,
) -> QuizPlan:
    """The questions of one quiz and their order, the generated ones still to be made. InputError when nothing
    matches.

    With ``section``, a chapter quiz belongs to it when it is filed there or asks about a card of that section
    (the chapter files its quizzes under 7.25); generated questions come from that section's templates."""
    rng = random.Random(seed) if shuffle else None
    quizzes = [q for q in library.quizzes if section is None or section in quiz_sections(library, q)]
    made = _generated_count(min(generated, count or generated), section)
    if rng is not None:
        rng.shuffle(quizzes)
    if count:  # --generated N is honoured within --count: the chapter quizzes fill the rest
        quizzes = quizzes[: max(0, count - made)]
    chapter = [chapter_item(q, rng) for q in quizzes]
    chapter = list({item.stem: item for item in reversed(chapter)}.values())[::-1]  # one of each question
    slots: list[QuizItem | int] = [*chapter, *range(made)]
    if not slots:
        from drill.content.generated import sections

        where = f" in section {section}" if section else ""
        covered = sorted(
            {s for q in library.quizzes for s in quiz_sections(library, q)} | set(sections()), key=_key
        )
        raise InputError(
            f"no quiz questions{where} (quiz questions exist for sections: {', '.join(covered)})"
        )
    if rng is not None:
        rng.shuffle(slots)
    return QuizPlan(slots, seed, made, section)


def quiz_sections(library: Library, quiz: Quiz) -> set[str]:
    """Where a chapter quiz belongs: its own section and the sections of the cards it asks about."""
    return {quiz.section} | {s for c in quiz.cards if (s := library.section_of(c)) is not None}


def _key(section: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in section.split("."))


def _generated_count(n: int, section: str | None) -> int:
    """How many questions ``_generated`` makes: ``n``, or 0 when ``section`` has no templates."""
    if n <= 0:
        return 0
    if section is not None:
        from drill.content.generated import sections

        if section not in sections():
            return 0
    return n


def _generated(seed: int, n: int, section: str | None) -> list[GeneratedQuestion]:
    if n <= 0:
        return []
    from drill.content.generated import generate_questions

    return generate_questions(seed, n, section=section)
