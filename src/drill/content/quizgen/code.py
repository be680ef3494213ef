"""Templates for 7.13, formula ↔ code: which line of the chapter's PyTorch code computes a step of the formula,
and what the chapter's masked softmax gives on given scores.

The code lines are the chapter's (its 7.13 table and listing; the weights are named P here, as in every stem, since
A–D are the option letters); each wrong line is the code of a named mistake of drill.engine.mistakes, written the
way the chapter writes the right one."""

from __future__ import annotations

from drill.content.generated import format_matrix
from drill.content.quizgen.base import CONCEPT, FORMULA, Draft, _small, _vec, code, f3, template
from drill.i18n import N_, _

# step -> (the formula's step as the stem names it, the chapter's line, [(mistake id, its line)])
CODE_STEPS: dict[str, tuple[str, str, list[tuple[str, str]]]] = {
    "scores": (
        N_("the scores QKᵀ"),
        "scores = Q @ K.transpose(-2, -1)",
        [
            ("attention/transpose-0-1", "scores = Q @ K.transpose(0, 1)"),
            ("attention/transpose-all-axes", "scores = Q @ K.T"),
            ("raw_score/swapped-roles", "scores = K @ Q.transpose(-2, -1)"),
        ],
    ),
    "scale": (
        N_("the scaling ÷√d_k of the scores"),
        "scores = scores / math.sqrt(d_k)",
        [
            ("attention/scale-by-dk", "scores = scores / d_k"),
            ("scaled_score/multiply", "scores = scores * math.sqrt(d_k)"),
            ("attention/scale-by-sqrt-sk", "scores = scores / math.sqrt(K.size(-2))"),
        ],
    ),
    "mask": (
        N_(
            "the causal mask M and softmax, softmax(scores + M) (mask = torch.triu(torch.ones(S, S), 1).bool(): "
            "True at the future positions)"
        ),
        'scores = scores.masked_fill(mask, float("-inf")); P = F.softmax(scores, dim=-1)',
        [
            (
                "attention/mask-fill-zero",
                "scores = scores.masked_fill(mask, 0); P = F.softmax(scores, dim=-1)",
            ),
            ("attention/mask-after-softmax", "P = F.softmax(scores, dim=-1); P = P.masked_fill(mask, 0)"),
            (
                "attention/mask-inverted",
                'scores = scores.masked_fill(~mask, float("-inf")); P = F.softmax(scores, dim=-1)',
            ),
        ],
    ),
    "softmax": (
        N_("softmax(·), the weights P of each query over the keys"),
        "P = F.softmax(scores, dim=-1)",
        [
            ("attention/softmax-wrong-axis", "P = F.softmax(scores, dim=1)"),
            ("softmax/sigmoid", "P = torch.sigmoid(scores)"),
            ("softmax/whole-array", "P = scores.exp() / scores.exp().sum()"),
        ],
    ),
}


@template("formula-code", "7.13", code, CONCEPT)
def _formula_code(rng):
    step = rng.choice(sorted(CODE_STEPS))
    formula, right, wrong = CODE_STEPS[step]
    b, s, d_k = rng.sample(range(2, 9), 3)  # three different sizes: a transpose of the wrong axes shows
    return Draft(
        _(
            "The chapter's attention code (7.13), on a batch: Q, K and V have shape [batch, S, d_k] = [{batch}, "
            "{length}, {d_k}] (import torch, torch.nn.functional as F, math). Which line computes {formula}?"
        ).format(batch=b, length=s, d_k=d_k, formula=_(formula)),
        right,
        list(wrong),
        _("The chapter's table (7.13): {formula} ↔ {line}").format(formula=_(formula), line=right),
        {"step": step, "B": b, "S": s, "d_k": d_k},
    )


MASKED_MISTAKES = ("attention/mask-fill-zero", "attention/mask-after-softmax", "attention/softmax-wrong-axis")


@template("masked-weights", "7.13", f3, FORMULA)
def _masked_weights(rng):
    import numpy as np

    from drill.engine import ops
    from drill.engine.mistakes import MISTAKES

    s = rng.choice((3, 4))
    scores = np.array(_small(rng, s, s, (-1, 0, 1, 2, 3)), dtype=float)
    i = rng.randrange(s)
    j = rng.randrange(i + 1)  # a key the query may see: a masked one weighs 0 with or without the mistakes
    allowed = ops.causal_allowed(s)
    weights = ops.softmax(np.where(allowed, scores, -np.inf), axis=-1)
    # the mistakes take (Q, K, V, mask) and scale by √d_k: with K = I and Q = scores·√S their scaled scores are
    # the given ones
    q, eye = scores * np.sqrt(s), np.eye(s)
    wrong = [(mid, float(MISTAKES[mid].evaluate(q, eye, eye, allowed)[1][i, j])) for mid in MASKED_MISTAKES]
    return Draft(
        _(
            "The chapter's code (7.13) with causal=True, on one sequence of S = {size} tokens whose scaled scores "
            "(already divided by √d_k) are below: mask = torch.triu(torch.ones(S, S), 1).bool(); scores = "
            'scores.masked_fill(mask, float("-inf")); P = F.softmax(scores, dim=-1). What is P[{row},{column}] '
            "(counting from 1)?\n\n{scores}"
        ).format(
            size=s, row=i + 1, column=j + 1, scores=format_matrix(_("scores"), scores.astype(int).tolist())
        ),
        float(weights[i, j]),
        wrong,
        _(
            "Row {row} keeps keys 1–{row} (the future is −∞, weight 0): softmax of {kept} over those keys → "
            "{weights}."
        ).format(row=i + 1, kept=_vec(scores[i, : i + 1]), weights=_vec(weights[i, : i + 1])),
        {"scores": scores.astype(int).tolist(), "i": i, "j": j},
    )
