"""What a quiz is, apart from how it looks: the questions in order, the answers given, the score.

No textual here: the quiz screen drives a `QuizRun`, the tests can drive one directly. Chapter quizzes have
their options shuffled with the mapping kept (the letters follow display order; the stored answer is the
original key). Generated questions come from drill.content.generated: numeric ones are typed and checked to
their tolerance, choice ones are answered by letter like a chapter quiz.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from drill.errors import InputError
from drill.i18n import N_

if TYPE_CHECKING:
    from drill.content.generated import GeneratedQuestion
    from drill.content.models import Quiz
    from drill.srs import SrsConfig
    from drill.store.types import QuizAnswerRecord
    from drill.tui.options import AppOptions

CHAPTER, GENERATED = "chapter", "generated"
DEFAULT_SECONDS = 30  # a chapter quiz's limit (`drill quiz --seconds`)
# What the quiz screen calls a generated question's kind of work (drill.content.quizgen WORKS), which sets its
# time limit (drill config ui.quiz_seconds_<work>).
WORK_NAMES = {
    "concept": N_("concept question"),
    "shape": N_("shape question"),
    "formula": N_("formula question"),
    "hand": N_("hand calculation"),
}
LETTERS = "ABCDEFGH"
# Typed answers are stored as given, up to the column's width.
CHOSEN_WIDTH = 20


@dataclass(frozen=True)
class Option:
    letter: str  # shown, in display order: A, B, C, ...
    key: str  # the option's key in the content (what is stored)
    text: str


@dataclass(frozen=True)
class QuizItem:
    id: str
    kind: str  # CHAPTER or GENERATED
    section: str
    stem: str
    explanation: str
    options: tuple[Option, ...] = ()  # empty for a typed (numeric) question
    answer: str = ""  # the original key of the right option ("" for a numeric question)
    cards: tuple[str, ...] = ()
    question: GeneratedQuestion | None = None  # behind a generated item
    work: str | None = None  # a generated item's kind of work (drill.content.quizgen WORKS): its time limit
    # a chapter quiz's wrong options: key -> (drill's note in the UI language, the explanation's words it quotes)
    why_wrong: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    @property
    def numeric(self) -> bool:
        return not self.options

    def option_by_letter(self, letter: str) -> Option | None:
        return next((o for o in self.options if o.letter == letter.upper()), None)

    def option_by_key(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)

    def why_not(self, key: str) -> str:
        """Why the option ``key`` is wrong, in drill's words: a chapter quiz's note, or the mistake a generated
        question's option is what it gives (with the section to reread); "" for the right option."""
        if self.question is not None:  # a generated question's options are keyed by their letters
            return self.question.note_for(key)
        return self.why_wrong.get(key, ("", None))[0]

    def answer_text(self) -> str:
        """The right answer as the learner sees it: "B  [B, S, S]" or "0.2119 (±0.005)"."""
        if self.numeric:
            q = self.question
            return f"{float(q.answer):.4f} (±{q.tolerance:g})"
        option = self.option_by_key(self.answer)
        return f"{option.letter}  {option.text}" if option else self.answer


@dataclass(frozen=True)
class Result:
    item: QuizItem
    chosen: str | None  # original option key, or the typed text; None when time ran out
    correct: bool
    timed_out: bool
    duration_ms: int
    answered_at: datetime

    def chosen_text(self) -> str:
        if self.timed_out:
            return "(time ran out)"
        if self.item.numeric:
            return self.chosen or ""
        option = self.item.option_by_key(self.chosen or "")
        return f"{option.letter}  {option.text}" if option else str(self.chosen)


def annotate(text: str, also=()) -> str:
    from drill.content.errata import annotate as with_corrections

    return with_corrections(text, also=also)


def chapter_item(quiz: Quiz, rng: random.Random | None) -> QuizItem:
    keys = list(quiz.options)
    if rng is not None:
        rng.shuffle(keys)
    options = tuple(Option(LETTERS[i], key, quiz.options[key]) for i, key in enumerate(keys))
    return QuizItem(
        id=quiz.id,
        kind=CHAPTER,
        section=quiz.section,
        stem=quiz.stem,
        # the chapter's explanation, then drill's correction of any span the stem, options or explanation quote
        explanation=annotate(quiz.explanation, also=(quiz.stem, *quiz.options.values())),
        options=options,
        answer=quiz.answer,
        cards=tuple(quiz.cards),
        why_wrong=why_wrong_of(quiz),
    )


def why_wrong_of(quiz: Quiz) -> dict[str, tuple[str, str | None]]:
    """The quiz's notes on its wrong options in the UI language (drill's words), each with its quote."""
    from drill.content.errata import in_language

    return {
        key: (in_language(entry["zh"], entry["en"]), entry.get("quote"))
        for key, entry in (quiz.why_wrong or {}).items()
    }


def generated_item(q: GeneratedQuestion) -> QuizItem:
    from drill.content.quizgen import work_of

    # Generated choice options are already in a meaningful order ("key token 1, 2, 3"); keep it.
    options = tuple(Option(LETTERS[i], key, text) for i, (key, text) in enumerate((q.options or {}).items()))
    return QuizItem(
        id=q.id,
        kind=GENERATED,
        section=q.section,
        stem=q.prompt,
        explanation=annotate(q.explanation, also=(q.prompt, *(q.options or {}).values())),
        options=options,
        answer=str(q.answer) if options else "",
        question=q,
        work=work_of(q.topic),
    )


@dataclass
class QuizSettings:
    """A quiz's settings, stored with its attempt. Time limits: every chapter quiz gets ``seconds``
    (`--seconds`, default 30); a generated question gets its kind of work's limit (``work_seconds``: the config's
    ``ui.quiz_seconds_<work>``, read when the store opens)."""

    seconds: float = DEFAULT_SECONDS
    count: int | None = None
    section: str | None = None
    shuffle: bool = True
    generated: int = 0
    seed: int | None = None
    work_seconds: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_options(cls, options: AppOptions) -> QuizSettings:
        extra = options.extra
        seconds = extra.get("seconds")
        return cls(
            seconds=DEFAULT_SECONDS if seconds is None else seconds,
            count=extra.get("count"),
            section=options.section,
            shuffle=extra.get("shuffle", True),
            generated=extra.get("generated") or 0,
            seed=extra.get("seed"),
        )

    def read_limits(self, config: SrsConfig) -> None:
        """The generated questions' limits from the config (one setting per kind of work)."""
        from drill.content.quizgen import WORKS

        self.work_seconds = {work: getattr(config, f"quiz_seconds_{work}") for work in WORKS}

    def limit(self, item: QuizItem) -> float:
        """Seconds for ``item``: its kind of work's limit if it is generated, else the chapter's."""
        if item.work is not None and item.work in self.work_seconds:
            return self.work_seconds[item.work]
        return self.seconds

    def as_dict(self) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "count": self.count,
            "section": self.section,
            "shuffle": self.shuffle,
            "generated": self.generated,
            "seed": self.seed,
            "work_seconds": dict(self.work_seconds),
        }


@dataclass
class QuizRun:
    """One sitting: the items, where we are, and what was answered."""

    items: list[QuizItem]
    clock: Callable[[], datetime]
    results: list[Result] = field(default_factory=list)
    streak: int = 0
    best_streak: int = 0

    @property
    def index(self) -> int:
        return len(self.results)

    @property
    def current(self) -> QuizItem | None:
        return self.items[self.index] if self.index < len(self.items) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.items)

    @property
    def score(self) -> int:
        return sum(1 for r in self.results if r.correct)

    def wrong(self) -> list[Result]:
        return [r for r in self.results if not r.correct]

    def related_cards(self) -> list[str]:
        """Cards behind the wrong answers, each once, in order."""
        return list(dict.fromkeys(card for r in self.wrong() for card in r.item.cards))

    def choose(self, letter: str, duration_ms: int) -> Result | None:
        """Answer the current choice question by its shown letter; None if no such option."""
        item = self.current
        if item is None or item.numeric:
            return None
        option = item.option_by_letter(letter)
        if option is None:
            return None
        return self._record(option.key, option.key == item.answer, False, duration_ms)

    def type_answer(self, text: str, duration_ms: int) -> Result:
        """Answer the current numeric question; InputError (nothing recorded) when ``text`` is no number."""
        from drill.content.generated import check_numeric_answer

        item = self.current
        if item is None or not item.numeric:
            raise InputError("this question is answered by choosing an option")
        correct = check_numeric_answer(text, item.question)
        return self._record(text.strip()[:CHOSEN_WIDTH], correct, False, duration_ms)

    def time_out(self, duration_ms: int) -> Result | None:
        if self.current is None:
            return None
        return self._record(None, False, True, duration_ms)

    def _record(self, chosen: str | None, correct: bool, timed_out: bool, duration_ms: int) -> Result:
        result = Result(self.current, chosen, correct, timed_out, max(0, duration_ms), self.clock())
        self.results.append(result)
        self.streak = self.streak + 1 if correct else 0
        self.best_streak = max(self.best_streak, self.streak)
        return result

    def records(self) -> list[QuizAnswerRecord]:
        """The answers as the store records them."""
        return [record_of(r) for r in self.results]


def record_of(result: Result) -> QuizAnswerRecord:
    """One answer as the store records it."""
    from drill.store.types import QuizAnswerRecord

    return QuizAnswerRecord(
        item_id=result.item.id,
        kind=result.item.kind,
        chosen=result.chosen,
        correct=result.correct,
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
        answered_at=result.answered_at,
    )
