"""The labelled set (tests/judge/labels) and the four figures the judge is held to, per language.

Used by tests/judge/test_accuracy.py (the goals as assertions) and benchmarks/judge_accuracy.py (the figures
printed). The labels were written before the judge; nothing here reads the judge's output into a label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

LABELS = Path(__file__).parent / "labels"
SETS = ("tune", "heldout")
GOALS = {"agreement": 0.85, "false_covered": 0.10, "recall": 0.80, "false_alarms": 0.05}


@dataclass(frozen=True)
class Labelled:
    card: str
    lang: str
    text: str
    points: frozenset[int]  # 0-based
    misconceptions: frozenset[str]


def load(name: str) -> list[Labelled]:
    data = yaml.safe_load((LABELS / f"{name}.yaml").read_text(encoding="utf-8"))
    return [
        Labelled(
            a["card"],
            a["lang"],
            a["text"],
            frozenset(i - 1 for i in a["points"]),
            frozenset(a["misconceptions"]),
        )
        for a in data["answers"]
    ]


@dataclass
class Figures:
    answers: int = 0
    pairs: int = 0
    agree: int = 0
    not_covered: int = 0
    false_covered: int = 0
    stated: int = 0
    caught: int = 0
    alarmed: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def agreement(self) -> float:
        return self.agree / self.pairs if self.pairs else 1.0

    @property
    def false_covered_rate(self) -> float:
        return self.false_covered / self.not_covered if self.not_covered else 0.0

    @property
    def recall(self) -> float:
        return self.caught / self.stated if self.stated else 1.0

    @property
    def false_alarm_rate(self) -> float:
        return self.alarmed / self.answers if self.answers else 0.0

    def meets_goals(self) -> bool:
        return (
            self.agreement >= GOALS["agreement"]
            and self.false_covered_rate <= GOALS["false_covered"]
            and self.recall >= GOALS["recall"]
            and self.false_alarm_rate <= GOALS["false_alarms"]
        )


def figures(answers: list[Labelled]) -> dict[str, Figures]:
    """Per language ('zh', 'en'): the judge's figures on ``answers``, through the shipped content."""
    from drill.content import load_content
    from drill.content.misconceptions import load_misconceptions
    from drill.judge import judge

    library = load_content()
    book = load_misconceptions(library)
    out: dict[str, Figures] = {}
    for a in answers:
        card = library.cards[a.card]
        f = out.setdefault(a.lang, Figures())
        verdict = judge(card.id, len(card.points), a.text, [m.id for m in book.for_card(card.id)])
        covered = verdict.covered
        f.answers += 1
        for i in range(len(card.points)):
            f.pairs += 1
            f.agree += (i in covered) == (i in a.points)
            if i not in a.points:
                f.not_covered += 1
                f.false_covered += i in covered
        found = {m.id for m in verdict.misconceptions}
        f.stated += len(a.misconceptions)
        f.caught += len(a.misconceptions & found)
        f.alarmed += bool(found - a.misconceptions)
        if covered != a.points or found != a.misconceptions:
            f.misses.append(
                f"{a.card} points {sorted(i + 1 for i in a.points)} judged {sorted(i + 1 for i in covered)}; "
                f"misconceptions {sorted(a.misconceptions)} judged {sorted(found)}"
            )
    return out
