"""Finding a cue in a normalised answer: sentences, negation, hedges, and the small cue language.

A cue (drill.judge.cues) is alternatives separated by ``|``; an alternative is terms joined by ``&``, all of which
must hold inside one window of the answer (a sentence, or two neighbouring ones for a key point). A term is a
glossary concept (drill.judge.glossary) or a ``/regex/`` over the normalised text, prefixed by

- nothing: it occurs, and not negated;
- ``!``: it occurs negated ("不需要减最大值", "no need to subtract the max");
- ``-``: it does not occur un-negated in the window.

Negated: a negator ends at most a few characters before the term, in the same clause, and is not part of the
term's own match. Chinese negators are jieba tokens (so 不变, 不同, 不对称 are words, not negations), loaded on
first use; English ones are whole words. A sentence that hedges ("记不清", "not sure") counts for nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from drill.judge.glossary import CONCEPTS
from drill.judge.normalize import Normalized

_SENTENCE_END = re.compile(r"[。！？!?\n]+|\.(?=\s|$)")
_CLAUSE_BREAK = re.compile(r"[，,、：:]|而是|但是?|只是|but\b|instead\b|rather\b")
_HEDGE = re.compile(
    r"记不清|不确定|不太确定|不记得|忘了|好像是.{0,12}还是|not sure|don't remember|do not remember|i forget|"
    r"something like that|no idea|之类的|什么的|has to do with|我记得和"
)
_ZH_NEGATORS = frozenset(
    "不 不是 不用 不需要 无需 不必 没 没有 并非 非 别 未 不能 无法 不会 不可 不可以 不要 并不 从不 绝不".split()
)
_EN_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|don't|doesn't|isn't|aren't|won't|wouldn't|needn't|without|nor)\b|n't\b"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
NEGATION_REACH = 12  # characters between a negator's end and the term's start


@dataclass(frozen=True)
class Hit:
    start: int  # in the normalised text
    end: int


@dataclass(frozen=True)
class Window:
    start: int
    end: int


class Answer:
    """One normalised answer, ready for cues: its sentences, its negators, its hedged sentences."""

    def __init__(self, norm: Normalized) -> None:
        self.norm = norm
        text = norm.text
        self.sentences: list[Window] = []
        last = 0
        for m in _SENTENCE_END.finditer(text):
            if m.start() > last:
                self.sentences.append(Window(last, m.start()))
            last = m.end()
        if last < len(text):
            self.sentences.append(Window(last, len(text)))
        self.hedged = {i for i, w in enumerate(self.sentences) if _HEDGE.search(text, w.start, w.end)}
        self.negators: list[tuple[int, int]] = [(m.start(), m.end()) for m in _EN_NEGATION.finditer(text)]
        if _CJK.search(text):
            self.negators += [(start, end) for word, start, end in _tokenize(text) if word in _ZH_NEGATORS]
        self.negators.sort()
        self.breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text)]

    def windows(self, size: int) -> Iterator[Window]:
        usable = [w for i, w in enumerate(self.sentences) if i not in self.hedged]
        for i, w in enumerate(usable):
            yield w
            if size > 1 and i + 1 < len(usable):
                yield Window(w.start, usable[i + 1].end)

    def negated(self, hit: Hit, window: Window) -> bool:
        for start, end in self.negators:
            if start >= hit.start:
                break
            if end > hit.start:  # the negator is part of the term's own words
                continue
            if start < window.start or hit.start - end > NEGATION_REACH:
                continue
            if any(end <= b < hit.start for b in self.breaks):
                continue
            return True
        return False

    def find(self, term: str, window: Window) -> list[Hit]:
        pattern = _pattern(term)
        return [Hit(m.start(), m.end()) for m in pattern.finditer(self.norm.text, window.start, window.end)]


def _tokenize(text: str) -> list[tuple[str, int, int]]:
    return list(_jieba().tokenize(text, HMM=False))


@lru_cache(maxsize=1)
def _jieba():
    """jieba's default tokenizer, its dictionary loaded once (≈0.4-0.7 s; drill.judge.warm_up does it early)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba.dt


@cache
def _pattern(term: str) -> re.Pattern[str]:
    if term.startswith("/") and term.endswith("/") and len(term) > 2:
        return re.compile(term[1:-1])
    try:
        return re.compile(CONCEPTS[term])
    except KeyError:
        raise KeyError(f"cue term {term!r} is neither a glossary concept nor a /regex/") from None


@cache
def parse(cue: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """``cue`` as alternatives of (mode, term): mode '' (occurs), '!' (occurs negated), '-' (absent)."""
    alternatives = []
    for alternative in cue.split(" | "):
        terms = []
        for raw in alternative.split(" & "):
            raw = raw.strip()
            mode = raw[0] if raw[0] in "!-" and len(raw) > 1 else ""
            term = raw[1:] if mode else raw
            _pattern(term)
            terms.append((mode, term))
        alternatives.append(tuple(terms))
    return tuple(alternatives)


def evaluate(answer: Answer, cue: str, window_size: int) -> list[Hit] | None:
    """The hits of the first window and alternative where ``cue`` holds, or None."""
    for window in answer.windows(window_size):
        for alternative in parse(cue):
            hits = _holds(answer, alternative, window)
            if hits is not None:
                return hits
    return None


def _holds(answer: Answer, terms: Sequence[tuple[str, str]], window: Window) -> list[Hit] | None:
    found: list[Hit] = []
    for mode, term in terms:
        hits = answer.find(term, window)
        plain = [h for h in hits if not answer.negated(h, window)]
        if mode == "":
            if not plain:
                return None
            found.append(plain[0])
        elif mode == "!":
            negated = [h for h in hits if answer.negated(h, window)]
            if not negated:
                return None
            found.append(negated[0])
        elif plain:  # mode '-': must be absent
            return None
    return found
