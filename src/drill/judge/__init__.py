"""The answer judge: a typed interview answer checked against a bank card's key points and the misconceptions
its rubric lists (a core package: no textual, rich or click).

- drill.judge.normalize: case, width, √/sqrt/根号, d_k/dₖ/dk, sub/superscripts folded, offsets kept;
- drill.judge.glossary: the chapter's terms, zh and en, as patterns;
- drill.judge.cues: per key point and per misconception, what must be said;
- drill.judge.match: sentences, negation (jieba for Chinese), hedges, the cue language;
- drill.judge.verdict: `judge(card_id, n_points, text, misconception_ids) -> Verdict`.

Importing this package is cheap; jieba's dictionary loads on the first Chinese answer (`warm_up` loads it ahead,
e.g. while the learner is still typing).
"""

from __future__ import annotations

from drill.judge.verdict import MisconceptionVerdict, PointVerdict, Span, Verdict, has_cues, judge

__all__ = [
    "concepts_in",
    "MisconceptionVerdict",
    "PointVerdict",
    "Span",
    "Verdict",
    "has_cues",
    "judge",
    "warm_up",
]


def warm_up() -> None:
    """Load jieba's dictionary now (≈0.5 s), so that judging the first Chinese answer does not pay for it."""
    from drill.judge.match import _jieba

    _jieba()


def concepts_in(text: str) -> frozenset[str]:
    """The glossary concepts (drill.judge.glossary) ``text`` mentions, negated or not: what a text is about."""
    import re

    from drill.judge.glossary import CONCEPTS
    from drill.judge.normalize import normalize

    folded = normalize(text).text
    return frozenset(name for name, pattern in CONCEPTS.items() if re.search(pattern, folded))
