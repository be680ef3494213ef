"""The catalogue of named mistakes: wrong variants of the chapter's computations, each tied to its pitfall.

One catalogue, pure numpy, shared by `drill code` (a submission that agrees with a wrong variant on a failing
test is told which mistake it made) and by `drill quiz` (its generated questions' wrong options). Each `Mistake`
has a stable ``id`` (``<task>/<name>``, never reused), the chapter ``section``, its ``wording`` (when
``verbatim``, the chapter's own words, word for word from the section's 常见误区 or text, Markdown and ``$LaTeX$``
as written: content, the same in every language; otherwise drill's wording, declared in English with ``N_()``
and shown in the UI language, the Chinese in the chapter's terms), the ``step`` of the computation where it goes
wrong, and
``wrong``: the wrong computation, with the same signature as the task's function (or, for the quiz's
quantities, the right computation's arguments), so it can be evaluated on any inputs.

One registry (``registry.MISTAKES``, filled by the ``@mistake`` decorator), one module per topic:
``attention`` (softmax, scaled dot-product attention), ``masks`` (causal, padding), ``heads`` (multi-head,
grouped-query, cross-attention), ``block`` (LayerNorm, FFN), ``position`` (sinusoidal, RoPE), ``cost`` (the
KV-cache step, the Noam schedule) — the `drill code` tasks' — and ``quiz_shapes`` / ``quiz_counts`` (the quiz's
shapes, scores and counts). ``common`` holds the chapter's words that name more than one mistake and the right
computations the wrong variants bend.
"""

from __future__ import annotations

from importlib import import_module

from drill.engine.mistakes.registry import MISTAKES, Mistake, mistake, mistakes_for

# Registered in this order (``MISTAKES`` keeps it): the coding tasks' topics, then the quiz's quantities.
TOPICS = ("attention", "masks", "heads", "block", "position", "cost", "quiz_shapes", "quiz_counts")
for _topic in TOPICS:
    import_module(f"{__name__}.{_topic}")

__all__ = ["MISTAKES", "TOPICS", "Mistake", "mistake", "mistakes_for"]
