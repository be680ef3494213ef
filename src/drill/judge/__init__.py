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

__all__ = ["MisconceptionVerdict", "PointVerdict", "Span", "Verdict", "has_cues", "judge", "warm_up"]


def warm_up() -> None:
    """Load jieba's dictionary now (≈0.5 s), so that judging the first Chinese answer does not pay for it."""
    from drill.judge.match import _jieba

    _jieba()
