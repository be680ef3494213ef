"""The golden record of drill's generated quiz questions, as the Chinese code wrote them before their words went
through the catalog (tests/content/golden_generated.json, made once with this script from that code).

Every template is drawn with seeds 0..9 (its own `random.Random(seed)`, the right option at letter seed % 4),
and whole quizzes (`generate_questions(seed, 24)`, seeds 0..2) are kept in order. For each question: the texts
(stem, the four options, the explanation), the right letter, the mistake behind each wrong letter, the value
behind each option and the inputs. ``python -m tests.content.golden_generated [--lang zh|en]`` writes the
record; the test compares the current code with it.

Written again once, when the card text took drill.engine.notation's number rule (issue 26): the only bytes that
changed are a ``-`` before a digit, now the typographic ``−``, and a vector mixing integers and fractions, now
written by its own numbers (``[−1.155, 0.577, 0.000]``, not ``[-1.155, 0.577, 0]``).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden_generated.json")
SEEDS = range(10)
QUIZ_SEEDS = range(3)
QUIZ_LENGTH = 24


def _plain(value):
    """A value as JSON keeps it: tuples and numpy arrays become lists, numpy scalars Python numbers."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def record(q) -> dict:
    return {
        "id": q.id,
        "topic": q.topic,
        "section": q.section,
        "prompt": q.prompt,
        "options": dict(q.options or {}),
        "answer": q.answer,
        "explanation": q.explanation,
        "mistakes": dict(q.mistakes),
        "values": _plain(q.values),
        "inputs": _plain(q.inputs),
    }


def snapshot() -> dict:
    """Every template's question for each seed, and whole quizzes, from the current code in the current
    language."""
    from drill.content.generated import _build, generate_questions
    from drill.content.quizgen import TEMPLATES

    templates = {
        name: [
            record(_build(template, random.Random(seed), f"gen-{seed}-{name}", seed % 4)) for seed in SEEDS
        ]
        for name, template in TEMPLATES.items()
    }
    quizzes = {str(seed): [record(q) for q in generate_questions(seed, QUIZ_LENGTH)] for seed in QUIZ_SEEDS}
    return {"templates": templates, "quizzes": quizzes}


def main(argv: list[str]) -> None:
    from drill.i18n import set_language

    language = argv[argv.index("--lang") + 1] if "--lang" in argv else "zh"
    set_language(language)
    GOLDEN.write_text(json.dumps(snapshot(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main(sys.argv[1:])
