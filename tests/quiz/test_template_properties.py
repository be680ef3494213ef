"""Every quiz template, on any seed: the marked answer and every distractor recomputed here, independently.

Oracle: plain Python / numpy written in this file from the chapter's formulas and from what each named mistake
says it does (its wording), not the templates' code, not drill.engine (ops, sizes, traces) and not the mistakes'
own ``evaluate``. For a question drawn from a template with a seed (hypothesis: seeds x templates) the test
recomputes the right value and the value of the mistake behind each wrong letter from the inputs the question
shows, and checks that the options are those values, formatted; then the rules every question keeps:

- the least distance between options (stated here, as docs/quiz.md states it): three-decimal values 0.01 apart
  as displayed, values in scientific notation 10 % apart, sizes, counts and factors 5 % apart, discrete options
  different — between the answer and each distractor and between the distractors;
- one explanation per distractor: the three mistakes behind a question's wrong options have three different
  wordings, and the explanation gives each letter its own line.
"""

from __future__ import annotations

import math
import random
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.content.generated import _build
from drill.content.quizgen import TEMPLATES
from drill.engine.mistakes import MISTAKES

# ---------------------------------------------------------------- plain recomputations


def _rows_softmax(m):
    e = np.exp(np.asarray(m, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def _cols_softmax(m):
    e = np.exp(np.asarray(m, dtype=float))
    return e / e.sum(axis=0, keepdims=True)


def _projections(i):
    x = np.asarray(i["X"], dtype=float)
    q, k = x @ np.asarray(i["W_Q"], dtype=float), x @ np.asarray(i["W_K"], dtype=float)
    v = x @ np.asarray(i["W_V"], dtype=float) if "W_V" in i else None
    return x, q, k, v


def _argmax(row):
    row = list(row)
    return row.index(max(row))


def _pe(pos, dim, d):
    angle = pos / 10000 ** (2 * (dim // 2) / d)
    return math.sin(angle) if dim % 2 == 0 else math.cos(angle)


def _rotate(a, b, angle):
    return a * math.cos(angle) - b * math.sin(angle), a * math.sin(angle) + b * math.cos(angle)


def _rope(x, m, k, sign=1.0):
    p = k // 2
    pair = _rotate(x[2 * p], x[2 * p + 1], sign * m * 10000 ** (-2 * p / len(x)))
    return pair[k % 2]


def _rope_half(x, m, k):
    half = len(x) // 2
    p = k % half
    pair = _rotate(x[p], x[p + half], m * 10000 ** (-2 * p / len(x)))
    return pair[k // half]


def _layernorm(rows, i, j, *, ddof=0, axis=1, eps=1e-5):
    x = np.asarray(rows, dtype=float)
    line = x[i] if axis == 1 else x[:, j]
    at = j if axis == 1 else i
    mean = sum(line) / len(line)
    var = sum((v - mean) ** 2 for v in line) / (len(line) - ddof)
    return (line[at] - mean) / math.sqrt(var + eps)


def _rms(rows, i, j, eps=1e-5):  # the stem's ε, as LayerNorm's
    line = [float(v) for v in rows[i]]
    return line[j] / math.sqrt(sum(v * v for v in line) / len(line) + eps)


def _noam(step, d, w, pick=min):
    return d**-0.5 * pick(step**-0.5, step * w**-1.5)


def _masked_keys(allowed_row):
    return tuple(j for j, ok in enumerate(allowed_row) if not ok)


def _kv(layers, heads, d_head, tokens, bytes_=2, kv=2):
    return kv * layers * heads * d_head * tokens * bytes_


def expected(topic, i):
    """(right value, {mistake id: its value}) from the question's inputs."""
    if topic == "path-length":
        n, k = i["distance"], i["kernel"]
        return 1, {
            "path_length/rnn": n,
            "path_length/cnn": math.ceil(n / (k - 1)),
            "path_length/log-depth": max(1, math.ceil(math.log2(n))),
        }
    if topic in ("layer-params", "ffn-params"):
        d, f = i["d_model"], i["d_ff"]
        if topic == "ffn-params":
            return d * f + f * d, {
                "ffn_params/one-matrix": d * f,
                "ffn_params/d-ff-as-d-model": 2 * d * d,
                "ffn_params/swiglu-three-matrices": 3 * d * f,
            }
        return 4 * d * d + 2 * d * f, {
            "layer_params/no-output-projection": 3 * d * d + 2 * d * f,
            "layer_params/output-projection-twice": 5 * d * d + 2 * d * f,
            "layer_params/ffn-one-matrix": 4 * d * d + d * f,
        }
    if topic == "pe-value":
        pos, dim, d = i["pos"], i["dim"], i["d_model"]
        angle = pos / 10000 ** (2 * (dim // 2) / d)
        own = pos / 10000 ** (dim / d)
        half = d // 2
        halves = (
            math.sin(pos / 10000 ** (2 * dim / d))
            if dim < half
            else math.cos(pos / 10000 ** (2 * (dim - half) / d))
        )
        return _pe(pos, dim, d), {
            "sinusoidal_pe/sin-cos-swapped": math.cos(angle) if dim % 2 == 0 else math.sin(angle),
            "sinusoidal_pe/exponent-uses-dimension": math.sin(own) if dim % 2 == 0 else math.cos(own),
            "sinusoidal_pe/halves-not-interleaved": halves,
        }
    if topic == "rope-value":
        x, m, k = i["x"], i["m"], i["k"]
        return _rope(x, m, k), {
            "rope/half-split-pairs": _rope_half(x, m, k),
            "rope/rotation-sign": _rope(x, m, k, sign=-1.0),
            "rope_value/angle-without-position": _rope(x, 1, k),
        }
    if topic == "score-growth":
        r = i["factor"]
        return r * r, {"score_growth/linear": r, "score_growth/cubic": r**3, "score_growth/doubling": 2 * r}
    if topic == "q-shape":
        b, s, dm, dk = i["B"], i["S"], i["d_model"], i["d_k"]
        return (b, s, dk), {
            "q_shape/keeps-d-model": (b, s, dm),
            "q_shape/transposed": (b, dk, s),
            "q_shape/no-batch": (s, dk),
        }
    if topic == "score-shape":
        b, s, dk = i["B"], i["S"], i["d_k"]
        return (b, s, s), {
            "score_shape/q-shape": (b, s, dk),
            "score_shape/qt-k": (b, dk, dk),
            "score_shape/no-batch": (s, s),
        }
    if topic == "cross-shape":
        b, sd, se = i["B"], i["S_dec"], i["S_enc"]
        return (b, sd, se), {
            "cross_shape/decoder-keys": (b, sd, sd),
            "cross_shape/encoder-self": (b, se, se),
            "cross_shape/q-from-encoder": (b, se, sd),
        }
    if topic == "raw-score":
        x, q, k, _v = _projections(i)
        a, b = i["i"], i["j"]
        wq = np.asarray(i["W_Q"], dtype=float)
        return float(q[a] @ k[b]), {
            "raw_score/no-projection": float(x[a] @ x[b]),
            "raw_score/shared-projection": float((x[a] @ wq) @ (x[b] @ wq)),
            "raw_score/swapped-roles": float(q[b] @ k[a]),
        }
    if topic == "scaled-score":
        _x, q, k, _v = _projections(i)
        raw, dk = float(q[i["i"]] @ k[i["j"]]), i["d_k"]
        return raw / math.sqrt(dk), {
            "scaled_score/scale-by-dk": raw / dk,
            "scaled_score/no-scale": raw,
            "scaled_score/multiply": raw * math.sqrt(dk),
        }
    if topic == "softmax-row":
        m, a, b = np.asarray(i["scores"], dtype=float), i["i"], i["j"]
        return float(_rows_softmax(m)[a, b]), {
            "softmax/wrong-axis": float(_cols_softmax(m)[a, b]),
            "softmax/whole-array": float(np.exp(m[a, b]) / np.exp(m).sum()),
            "softmax/sigmoid": 1 / (1 + math.exp(-m[a, b])),
        }
    if topic in ("softmax-weight", "output-value"):
        _x, q, k, v = _projections(i)
        a, b = i["i"], i["j"]
        dk = q.shape[1]
        s = q @ k.T
        right_w, by_dk, unscaled, columns = (
            _rows_softmax(s / math.sqrt(dk)),
            _rows_softmax(s / dk),
            _rows_softmax(s),
            _cols_softmax(s / math.sqrt(dk)),
        )
        if topic == "softmax-weight":
            return float(right_w[a, b]), {
                "attention/scale-by-dk": float(by_dk[a, b]),
                "attention/no-scale": float(unscaled[a, b]),
                "attention/softmax-wrong-axis": float(columns[a, b]),
            }
        return float((right_w @ v)[a, b]), {
            "attention/no-scale": float((unscaled @ v)[a, b]),
            "attention/softmax-wrong-axis": float((columns @ v)[a, b]),
            "attention/weights-times-k": float((right_w @ k)[a, b]),
        }
    if topic == "argmax-key":
        x, q, k, _v = _projections(i)
        a = i["i"]
        s = q @ k.T
        return _argmax(s[a]), {
            "raw_score/no-projection": _argmax(x[a] @ x.T),
            "raw_score/swapped-roles": _argmax(s[:, a]),
            "attention/softmax-wrong-axis": _argmax(_cols_softmax(s / math.sqrt(q.shape[1]))[a]),
        }
    if topic == "head-dim":
        d, h = i["d_model"], i["h"]
        return d // h, {"head_dim/full-width": d, "head_dim/times-heads": d * h, "head_dim/half": d / (2 * h)}
    if topic == "kv-cache-gqa":
        L, g, dh, t, h = i["layers"], i["G"], i["d_head"], i["tokens"], i["h"]
        return _kv(L, g, dh, t), {
            "kv_cache/query-heads": _kv(L, h, dh, t),
            "kv_cache/keys-only": _kv(L, g, dh, t, kv=1),
            "kv_cache/one-kv-head": _kv(L, 1, dh, t),
        }
    if topic == "kv-cache-size":
        L, h, dh, t = i["layers"], i["h"], i["d_head"], i["tokens"]
        return _kv(L, h, dh, t), {
            "kv_cache/keys-only": _kv(L, h, dh, t, kv=1),
            "kv_cache/one-layer": _kv(1, h, dh, t),
            "kv_cache/one-kv-head": _kv(L, 1, dh, t),
        }
    if topic == "padding-mask":
        s, n = i["S"], i["length"]
        return tuple(range(n, s)), {
            "padding_mask/masks-queries": (),  # a real query's row: nothing masked when PAD is read as queries
            "padding_mask/inverted": tuple(range(n)),
            "padding_mask/off-by-one": tuple(range(n + 1, s)),
        }
    if topic == "causal-mask":
        s, a = i["S"], i["i"]
        return _masked_keys([j <= a for j in range(s)]), {
            "causal_mask/upper-triangle": _masked_keys([j >= a for j in range(s)]),
            "causal_mask/masked-convention": _masked_keys([j > a for j in range(s)]),
            "causal_mask/no-diagonal": _masked_keys([j < a for j in range(s)]),
        }
    if topic == "residual-gradient":
        f, n = i["factor"], i["layers"]
        return 1 + f**n, {
            "residual_gradient/no-residual": f**n,
            "residual_gradient/sum": 1 + n * f,
            "residual_gradient/one-layer": 1 + f,
        }
    if topic == "layernorm":
        x, a, b = i["x"], i["i"], i["j"]
        return _layernorm(x, a, b), {
            "layer_norm/unbiased-variance": _layernorm(x, a, b, ddof=1),
            "layer_norm/wrong-axis": _layernorm(x, a, b, axis=0),
            "layer_norm_value/rms-norm": _rms(x, a, b),
        }
    if topic == "noam-lr":
        step, d, w = i["step"], i["d_model"], i["warmup"]
        return _noam(step, d, w), {
            "noam_lr/max-not-min": _noam(step, d, w, pick=max),
            "noam_lr/no-d-model-factor": min(step**-0.5, step * w**-1.5),
            "noam_value/constant-peak": d**-0.5 * w**-0.5,
        }
    if topic == "additive-cost":
        d, s = i["d"], i["S"]
        additive = (
            2 * s * d * d + s * s * d
        )  # projections once per token, then one d-wide product with v per pair
        return additive / (s * s * d), {
            "additive_cost/same-cost": 1,
            "additive_cost/per-pair-projection": (s * s * (2 * d * d + d)) / (s * s * d),
            "additive_cost/chapter-factor-d": d,
        }
    return None


# ---------------------------------------------------------------- the rules, stated here


def _far_enough(fmt_name, texts, values):
    if fmt_name == "f3":
        shown = [float(t.replace("−", "-")) for t in texts]  # the typographic minus (drill.engine.notation)
        return min(abs(a - b) for n, a in enumerate(shown) for b in shown[n + 1 :]) >= 0.01 - 1e-9
    gaps = {"sci": 0.10, "count": 0.05, "mib": 0.05, "times": 0.05}
    if fmt_name in gaps:
        raw = [float(v) for v in values]
        return all(
            abs(a - b) >= gaps[fmt_name] * max(abs(a), abs(b))
            for n, a in enumerate(raw)
            for b in raw[n + 1 :]
        )
    return len(set(texts)) == len(texts)


def _same(a, b):
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return tuple(a) == tuple(b)
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def check(name: str, seed: int) -> None:
    t = TEMPLATES[name]
    q = _build(t, random.Random(seed), f"gen-{seed}-1", seed % 4)
    if q.topic == "formula-code":
        return check_code(q)
    fmt = t.fmt
    computed = expected(q.topic, q.inputs)
    if computed is None:
        computed = EXTRA[q.topic](q.inputs)
    right, wrong = computed
    assert _same(q.values[q.answer], right), (name, seed, q.inputs)
    assert q.options[q.answer] == fmt(right)
    assert set(q.mistakes) == set("ABCD") - {q.answer}
    for letter, mid in q.mistakes.items():
        assert mid in wrong, (name, mid)
        assert _same(q.values[letter], wrong[mid]), (name, seed, mid, q.inputs)
        assert q.options[letter] == fmt(wrong[mid]) != q.options[q.answer]
    letters = sorted(q.options)
    texts = [q.options[x] for x in letters]
    assert _far_enough(fmt.__name__, texts, [q.values[x] for x in letters]), (name, seed, q.options)
    # one explanation per distractor: three mistakes, three wordings, one line each
    wordings = [MISTAKES[mid].wording for mid in q.mistakes.values()]
    assert len(set(wordings)) == 3, (name, wordings)
    lines = q.explanation.split("\n")
    for letter, mid in q.mistakes.items():
        assert len([line for line in lines if re.match(rf"{letter}[:：]", line)]) == 1, letter
        assert q.explanation.count(f"({mid};") == 1, (letter, mid)


def _masked_weights(i):
    """7.13's masked softmax on the given scores, the causal mask in plain numpy: query a sees keys 0..a."""
    m, a, b = np.asarray(i["scores"], dtype=float), i["i"], i["j"]
    s = len(m)
    allowed = np.array([[key <= query for key in range(s)] for query in range(s)])
    kept = np.where(allowed, m, -np.inf)
    return float(_rows_softmax(kept)[a, b]), {
        "attention/mask-fill-zero": float(_rows_softmax(np.where(allowed, m, 0.0))[a, b]),
        "attention/mask-after-softmax": float(_rows_softmax(m)[a, b]) if allowed[a, b] else 0.0,
        "attention/softmax-wrong-axis": float(_cols_softmax(kept)[a, b]),
    }


EXTRA = {"masked-weights": _masked_weights}


def _run_line(line: str, inputs: dict):
    """Run one option's PyTorch code on random tensors of the question's sizes; what it leaves (``scores`` or
    ``P``), or None when PyTorch refuses it."""
    import torch
    import torch.nn.functional as F

    names = {"torch": torch, "F": F, "math": math, **inputs}
    try:
        with (
            warnings.catch_warnings()
        ):  # K.T on a 3-d tensor: PyTorch warns it is deprecated, then reverses every axis
            warnings.simplefilter("ignore", UserWarning)
            exec(line, names)  # the option's code, as the learner would type it
    except RuntimeError:
        return None
    return names["P"] if "P = " in line else names["scores"]


def check_code(q) -> None:
    """formula-code: the right option computes the formula's step (written here with einsum and loops); each
    wrong option does not (a different tensor, or PyTorch refuses it on the batch)."""
    import torch

    b, s, d_k = q.inputs["B"], q.inputs["S"], q.inputs["d_k"]
    g = torch.Generator().manual_seed(b * 100 + s * 10 + d_k)
    Q, K, V = (torch.randn(b, s, d_k, generator=g, dtype=torch.float64) for _ in range(3))
    scores = torch.randn(b, s, s, generator=g, dtype=torch.float64)
    mask = torch.triu(torch.ones(s, s), 1).bool()
    step = q.inputs["step"]
    if step == "scores":
        want = torch.einsum("bqd,bkd->bqk", Q, K)
    elif step == "scale":
        want = scores / d_k**0.5
    else:
        keep = torch.tensor([[key <= query for key in range(s)] for query in range(s)])
        use = scores if step == "softmax" else scores.masked_fill(~keep, -math.inf)
        e = torch.exp(use - use.amax(-1, keepdim=True))
        want = e / e.sum(-1, keepdim=True)
    inputs = {"Q": Q, "K": K, "V": V, "scores": scores, "mask": mask, "d_k": d_k}
    for letter, line in q.options.items():
        got = _run_line(line, dict(inputs))
        right = got is not None and got.shape == want.shape and bool(torch.allclose(got, want, atol=1e-9))
        assert right == (letter == q.answer), (letter, line, q.answer)
    assert set(q.mistakes) == set("ABCD") - {q.answer}
    assert len({MISTAKES[mid].wording for mid in q.mistakes.values()}) == 3


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_each_template_on_seeds_0_to_9(name):
    for seed in range(10):
        check(name, seed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TEMPLATES)), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_any_template_any_seed(name, seed):
    check(name, seed)


def test_the_generators_rule_refuses_options_a_rounding_slip_apart():
    """drill's own rule (quizgen.base.options_apart, which the generator redraws on) bites where the old
    generators did not: pe-value's 0.999 beside 1.000, noam-lr's 3.125e-04 beside 3.162e-04."""
    from drill.content.quizgen.base import count, f3, options_apart, sci

    assert not options_apart(f3, [1.0, 0.9994, 0.54, 0.841])
    assert not options_apart(sci, [3.125e-4, 3.162e-4, 1e-3, 2e-3])
    assert not options_apart(count, [12_000, 11_800, 8_000, 13_000])
    assert options_apart(f3, [1.0, 0.99, 0.54, 0.841])
    assert options_apart(sci, [3.125e-4, 3.5e-4, 1e-3, 2e-3])
    for shown in (["1.000", "0.999", "0.540", "0.841"], ["0.990", "1.000", "0.540", "0.841"]):
        assert options_apart(f3, [float(t) for t in shown]) == _far_enough("f3", shown, shown)
