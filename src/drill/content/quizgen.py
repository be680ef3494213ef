"""The question templates of drill.content.generated: one or two per chapter section, in Chinese.

A template draws inputs with ``rng`` and returns a `Draft`: the stem, the engine's right value and three
``(mistake id, value)`` pairs, each value the named mistake's ``evaluate`` on the same inputs. Right values come
from the engine (attention traces, drill.engine.ops, drill.engine.sizes); nothing is computed here but the
choice of inputs. Stems name the attention weights P (never A–D, the option letters) and give sizes as numbers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from drill.content.generated import _num, format_matrix


@dataclass(frozen=True)
class Draft:
    prompt: str
    right: object
    wrong: list[tuple[str, object]]
    working: str
    inputs: dict[str, object]


@dataclass(frozen=True)
class Template:
    name: str
    section: str
    draw: Callable[[random.Random], Draft | None]
    fmt: Callable[[object], str]


TEMPLATES: dict[str, Template] = {}


def template(name: str, section: str, fmt: Callable[[object], str]):
    def register(fn):
        TEMPLATES[name] = Template(name, section, fn, fmt)
        return fn

    return register


def _wrong(mids, *args, **kwargs) -> list[tuple[str, object]]:
    from drill.engine.mistakes import MISTAKES

    return [(mid, _plain(MISTAKES[mid].evaluate(*args, **kwargs))) for mid in mids]


def _plain(value):
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return value
    try:
        return float(value)
    except TypeError:
        return value


def f3(v) -> str:
    text = f"{float(v):.3f}"
    return "0.000" if text == "-0.000" else text


def shape(v) -> str:
    return "[" + ", ".join(str(int(d)) for d in v) + "]"


def count(v) -> str:
    return f"{int(round(float(v))):,}"


def times(v) -> str:
    return f"{float(v):g} 倍"


def mib(v) -> str:
    return f"{float(v) / 2**20:,.1f} MiB"


def sci(v) -> str:
    return f"{float(v):.3e}"


def keys(v) -> str:
    return "、".join(f"key {j + 1}" for j in v) if v else "不遮任何 key"


def steps(v) -> str:
    return f"{int(v)} 步"


# ---------------------------------------------------------------- small worked inputs


def _small(rng: random.Random, rows: int, cols: int, values=(-1, 0, 1, 1, 2)) -> list[list[int]]:
    return [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]


def _hand(rng: random.Random, s: int | None = None, d_k: int | None = None):
    import numpy as np

    from drill.engine.attention import attention_trace

    s = s or rng.choice((3, 3, 4))
    d_k = d_k or rng.choice((2, 3))
    x = _small(rng, s, 2)
    wq, wk, wv = (_small(rng, 2, d_k, (-1, 0, 1, 1)) for _ in range(3))
    if min(np.linalg.matrix_rank(np.array(m)) for m in (x, wq, wk)) < 2:
        return None
    trace = attention_trace(np.array(x), np.array(wq), np.array(wk), np.array(wv))
    return x, wq, wk, wv, d_k, trace


def _givens(x, wq, wk, d_k, wv=None) -> str:
    parts = [format_matrix("X", x), format_matrix("W_Q", wq), format_matrix("W_K", wk)]
    if wv is not None:
        parts.append(format_matrix("W_V", wv))
    return "\n".join(parts + [f"d_k = {d_k}"])


def _vec(values) -> str:
    return "[" + ", ".join(_num(v) for v in values) + "]"


# ---------------------------------------------------------------- 7.1 – 7.8


@template("path-length", "7.1", steps)
def _path(rng):
    from drill.engine.sizes import path_length

    distance, kernel = rng.randint(6, 40), rng.choice((3, 5))
    args = ("attention", distance, kernel)
    return Draft(
        f"一句话里第 1 个 token 和第 {distance + 1} 个 token 相距 {distance} 个位置。在一层自注意力里，信息从前者传到"
        f"后者的路径长度是几步？（对照：RNN 逐步传递，CNN 卷积核宽 {kernel}）",
        path_length(*args),
        _wrong(["path_length/rnn", "path_length/cnn", "path_length/log-depth"], *args),
        "自注意力里任意两个位置直接点积交互：路径长度 O(1)，一步。",
        {"distance": distance, "kernel": kernel},
    )


@template("layer-params", "7.2", count)
def _layer_params(rng):
    from drill.engine.sizes import layer_params

    d = rng.choice((256, 384, 512, 640, 768, 1024))
    args = (d, 4 * d)
    return Draft(
        f"一个 Encoder 层：d_model = {d}，FFN 中间维 d_ff = {4 * d}。不计偏置和 LayerNorm，注意力和 FFN 的权重矩阵"
        "一共有多少个参数？",
        layer_params(*args),
        _wrong(
            [
                "layer_params/no-output-projection",
                "layer_params/output-projection-twice",
                "layer_params/ffn-one-matrix",
            ],
            *args,
        ),
        f"注意力 W_Q, W_K, W_V, W_O 共 4·d² = {4 * d * d:,}；FFN 的 W_1, W_2 共 2·d·d_ff = 8·d² = {8 * d * d:,}。",
        {"d_model": d, "d_ff": 4 * d},
    )


@template("pe-value", "7.3", f3)
def _pe(rng):
    from drill.engine import ops

    d, s = rng.choice((4, 6, 8)), rng.randint(2, 6)
    pos, i = rng.randint(1, s - 1), rng.randint(0, d - 1)
    right = float(ops.sinusoidal_pe(s, d)[pos, i])
    wrong = [
        (mid, float(v[pos, i]))
        for mid, v in _wrong(
            [
                "sinusoidal_pe/sin-cos-swapped",
                "sinusoidal_pe/exponent-uses-dimension",
                "sinusoidal_pe/halves-not-interleaved",
            ],
            s,
            d,
        )
    ]
    kind = "sin" if i % 2 == 0 else "cos"
    return Draft(
        f"正弦位置编码，d_model = {d}：PE(pos, 2i) = sin(pos / 10000^(2i/d_model))，PE(pos, 2i+1) = cos(同一角度)。"
        f"位置 pos = {pos}、第 {i} 维（从 0 数）的值是多少？",
        right,
        wrong,
        f"第 {i} 维属于第 {i // 2} 对，用 {kind}，角度 {pos}/10000^({2 * (i // 2)}/{d})，值 {right:.4f}。",
        {"d_model": d, "pos": pos, "dim": i},
    )


@template("score-growth", "7.4", times)
def _growth(rng):
    from drill.engine.sizes import score_growth

    s, r = rng.choice((256, 512, 1024, 2048)), rng.randint(2, 6)
    return Draft(
        f"序列长度从 {s} 变成 {s * r}（{r} 倍），d_model 不变。自注意力的 S×S 分数矩阵（计算和显存）变成原来的几倍？",
        score_growth(s, r),
        _wrong(["score_growth/linear", "score_growth/cubic", "score_growth/doubling"], s, r),
        f"分数矩阵有 S² 个元素：({s * r})² / {s}² = {r}² = {r * r}。",
        {"S": s, "factor": r},
    )


def _dims(rng):
    b, s, d_k, d_model = rng.sample(range(2, 10), 4)
    return b, s, d_model, d_k


@template("q-shape", "7.5", shape)
def _q_shape(rng):
    import numpy as np

    from drill.engine.attention import attention_trace

    b, s, d_model, d_k = _dims(rng)
    w = np.zeros((d_model, d_k))
    right = tuple(attention_trace(np.zeros((b, s, d_model)), w, w, w)["project_q"].output.shape)
    return Draft(
        f"输入 X 的形状是 [{b}, {s}, {d_model}]（batch = {b}，序列长度 {s}，d_model = {d_model}），"
        f"W_Q 的形状是 [{d_model}, {d_k}]。Q = X·W_Q 的形状是？",
        right,
        _wrong(["q_shape/keeps-d-model", "q_shape/transposed", "q_shape/no-batch"], b, s, d_model, d_k),
        f"每个 token 的 {d_model} 维向量乘 W_Q 变成 {d_k} 维：Q 是 [batch, S, d_k] = {shape(right)}。",
        {"B": b, "S": s, "d_model": d_model, "d_k": d_k},
    )


@template("raw-score", "7.6", f3)
def _raw(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, _, d_k, trace = hand
    s = len(x)
    i, j = rng.sample(range(s), 2)
    right = float(trace["scores"].output[i, j])
    q, k = trace["project_q"].output, trace["project_k"].output
    return Draft(
        f"标准 Transformer 用独立的投影：Q = X·W_Q，K = X·W_K，分数 S = QKᵀ。第 {i + 1} 个 token 对第 {j + 1} 个 "
        f"token 的原始分数 S[{i + 1},{j + 1}]（不缩放，从 1 数）是多少？\n\n{_givens(x, wq, wk, d_k)}",
        right,
        _wrong(
            ["raw_score/no-projection", "raw_score/shared-projection", "raw_score/swapped-roles"],
            x,
            wq,
            wk,
            i,
            j,
        ),
        f"q{i + 1} = {_vec(q[i])}，k{j + 1} = {_vec(k[j])}，点积 {_num(right)}。",
        {"X": x, "W_Q": wq, "W_K": wk, "i": i, "j": j},
    )


@template("score-shape", "7.7", shape)
def _score_shape(rng):
    import numpy as np

    from drill.engine.attention import attention_trace

    b, s, d_model, d_k = _dims(rng)
    w = np.zeros((d_model, d_k))
    right = tuple(attention_trace(np.zeros((b, s, d_model)), w, w, w)["scores"].output.shape)
    return Draft(
        f"自注意力：batch = {b}，序列长度 S = {s}，d_model = {d_model}，d_k = {d_k}。打分矩阵 QKᵀ 的形状是？",
        right,
        _wrong(["score_shape/q-shape", "score_shape/qt-k", "score_shape/no-batch"], b, s, d_model, d_k),
        f"QKᵀ = [{b}, {s}, {d_k}]·[{b}, {d_k}, {s}] = {shape(right)}：每个 query 对每个 key 一个分数。",
        {"B": b, "S": s, "d_model": d_model, "d_k": d_k},
    )


@template("additive-cost", "7.8", times)
def _additive(rng):
    from drill.engine.sizes import additive_cost_ratio

    d = rng.choice((16, 32, 64, 128, 256))
    return Draft(
        f"d = {d}。加性注意力用两个 d×d 投影给一对 (query, key) 打分，点乘注意力算一个 d 维点积。"
        "每个分数，加性的乘加次数是点乘的几倍？",
        additive_cost_ratio(d),
        _wrong(["additive_cost/same-cost", "additive_cost/squared", "additive_cost/sqrt"], d),
        f"加性 O(d²)、点乘 O(d)：总复杂度 O(S²d²) 对 O(S²d)，差 d = {d} 倍。",
        {"d": d},
    )


# ---------------------------------------------------------------- 7.9 – 7.12: scores, softmax, output


@template("scaled-score", "7.9", f3)
def _scaled(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, _, d_k, trace = hand
    cells = [(i, j) for i in range(len(x)) for j in range(len(x)) if trace["scores"].output[i, j] != 0]
    if not cells:
        return None
    i, j = rng.choice(cells)
    raw = float(trace["scores"].output[i, j])
    return Draft(
        f"Q = X·W_Q，K = X·W_K，S = QKᵀ。缩放后的分数 S[{i + 1},{j + 1}]/√d_k 是多少（从 1 数）？\n\n"
        f"{_givens(x, wq, wk, d_k)}",
        float(trace["scale"].output[i, j]),
        _wrong(["scaled_score/scale-by-dk", "scaled_score/no-scale", "scaled_score/multiply"], raw, d_k),
        f"S[{i + 1},{j + 1}] = {_num(raw)}，√d_k = √{d_k} ≈ {math.sqrt(d_k):.3f}，相除 ≈ "
        f"{float(trace['scale'].output[i, j]):.4f}。",
        {"X": x, "W_Q": wq, "W_K": wk, "d_k": d_k, "i": i, "j": j},
    )


@template("softmax-row", "7.10", f3)
def _softmax_row(rng):
    import numpy as np

    from drill.engine import ops

    logits = np.array(_small(rng, 2, 3, (-1, 0, 1, 2, 3)), dtype=float)
    i, j = rng.randrange(2), rng.randrange(3)
    right = float(ops.softmax(logits, axis=-1)[i, j])
    wrong = [
        (mid, float(v[i, j]))
        for mid, v in _wrong(["softmax/wrong-axis", "softmax/whole-array", "softmax/sigmoid"], logits)
    ]
    return Draft(
        f"两个 query 对三个 key 的分数（已缩放）如下，按注意力的约定做 softmax 得到权重 P。P[{i + 1},{j + 1}] 是多少"
        f"（从 1 数）？\n\n{format_matrix('分数', logits.astype(int).tolist())}",
        right,
        wrong,
        f"softmax 逐行（dim=-1）：第 {i + 1} 行 {_vec(logits[i])} → {_vec(ops.softmax(logits, axis=-1)[i])}。",
        {"scores": logits.tolist(), "i": i, "j": j},
    )


def _attention_mistakes(x, wq, wk, wv, i, j, column: str):
    import numpy as np

    from drill.engine.mistakes import MISTAKES

    q, k, v = (np.array(x, dtype=float) @ np.array(w, dtype=float) for w in (wq, wk, wv))
    out = []
    for mid in (
        "attention/scale-by-dk",
        "attention/no-scale",
        "attention/softmax-wrong-axis",
        "attention/weights-times-k",
    ):
        result, weights = MISTAKES[mid].evaluate(q, k, v)
        out.append((mid, float((weights if column == "weights" else result)[i, j])))
    return out


@template("output-value", "7.11", f3)
def _output(rng):
    hand = _hand(rng, d_k=2)
    if hand is None:
        return None
    x, wq, wk, wv, d_k, trace = hand
    i, j = rng.randrange(len(x)), rng.randrange(d_k)
    right = float(trace["weighted_sum"].output[i, j])
    wrong = [w for w in _attention_mistakes(x, wq, wk, wv, i, j, "output") if w[0] != "attention/scale-by-dk"]
    return Draft(
        f"Q = X·W_Q，K = X·W_K，V = X·W_V，P = softmax(QKᵀ/√d_k)，输出 O = P·V。O[{i + 1},{j + 1}] 是多少（从 1 数）？"
        f"\n\n{_givens(x, wq, wk, d_k, wv)}",
        right,
        wrong,
        f"P 的第 {i + 1} 行 {_vec(trace['softmax'].output[i])}，乘 V 的第 {j + 1} 列 "
        f"{_vec(trace['project_v'].output[:, j])}，得 {right:.4f}。",
        {"X": x, "W_Q": wq, "W_K": wk, "W_V": wv, "i": i, "j": j},
    )


@template("softmax-weight", "7.12", f3)
def _weight(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, wv, d_k, trace = hand
    i, j = rng.randrange(len(x)), rng.randrange(len(x))
    right = float(trace["softmax"].output[i, j])
    wrong = [
        w for w in _attention_mistakes(x, wq, wk, wv, i, j, "weights") if w[0] != "attention/weights-times-k"
    ]
    return Draft(
        f"完整手算：Q = X·W_Q，K = X·W_K，P = softmax(QKᵀ/√d_k) 逐行。第 {i + 1} 个 query 对第 {j + 1} 个 key 的"
        f"权重 P[{i + 1},{j + 1}] 是多少（从 1 数）？\n\n{_givens(x, wq, wk, d_k)}",
        right,
        wrong,
        f"第 {i + 1} 行分数 {_vec(trace['scores'].output[i])}，除以 √{d_k} 得 {_vec(trace['scale'].output[i])}，"
        f"softmax 得 {_vec(trace['softmax'].output[i])}。",
        {"X": x, "W_Q": wq, "W_K": wk, "i": i, "j": j},
    )


# ---------------------------------------------------------------- 7.14 – 7.18: heads, cost, masks


@template("head-dim", "7.14", count)
def _head_dim(rng):
    from drill.engine.sizes import head_dim

    h = rng.choice((4, 8, 12, 16))
    d = h * rng.choice((16, 32, 64))
    return Draft(
        f"Multi-Head Attention：d_model = {d}，h = {h} 个 head。每个 head 的 d_k 是多少？",
        head_dim(d, h),
        _wrong(["head_dim/full-width", "head_dim/times-heads", "head_dim/half"], d, h),
        f"每个 head 降维到 d_model/h = {d}/{h} = {d // h}，拼接回 {d} 维。",
        {"d_model": d, "h": h},
    )


@template("kv-cache-gqa", "7.15", mib)
def _kv_gqa(rng):
    from drill.engine.sizes import kv_cache_bytes

    h = rng.choice((16, 32, 64))
    g = rng.choice([c for c in (2, 4, 8) if c < h])
    layers, d_head, tokens = rng.choice((12, 24, 32)), rng.choice((64, 128)), rng.choice((1024, 2048, 4096))
    args = (layers, g, d_head, tokens, 2)
    return Draft(
        f"GQA：{h} 个 query head 分成 {g} 组，每组共享一个 KV head；{layers} 层，每个 head 维度 {d_head}，"
        f"缓存 {tokens} 个 token，FP16（2 字节）。KV cache 有多大？",
        kv_cache_bytes(*args),
        _wrong(["kv_cache/query-heads", "kv_cache/keys-only", "kv_cache/one-kv-head"], *args, heads=h),
        f"2（K 和 V）× {layers} 层 × {g} 个 KV head × {d_head} × {tokens} × 2 字节；MHA 要 {h // g} 倍。",
        {"h": h, "G": g, "layers": layers, "d_head": d_head, "tokens": tokens},
    )


def _mask_trace(s, pad=None, causal=False):
    import numpy as np

    from drill.engine.attention import attention_trace

    eye = np.eye(2)
    return np.isfinite(attention_trace(np.ones((s, 2)), eye, eye, eye, pad=pad, causal=causal)["mask"].output)


def _mask_row(value, i) -> tuple[int, ...]:
    import numpy as np

    allowed = np.asarray(value, dtype=bool)
    allowed = allowed.reshape(allowed.shape[-2:]) if allowed.ndim >= 2 else allowed[None, :]
    row = np.broadcast_to(allowed, (max(allowed.shape[0], i + 1), allowed.shape[-1]))[i]
    return tuple(j for j, ok in enumerate(row) if not ok)


@template("padding-mask", "7.16", keys)
def _padding(rng):
    s = rng.randint(4, 7)
    length = rng.randint(2, s - 1)
    i = rng.randrange(length)
    right = _mask_row(_mask_trace(s, pad=[1] * length + [0] * (s - length)), i)
    wrong = [
        (mid, _mask_row(v, i))
        for mid, v in _wrong(
            ["padding_mask/masks-queries", "padding_mask/inverted", "padding_mask/off-by-one"], [length], s
        )
    ]
    return Draft(
        f"一句话长 {length} 个 token，补 PAD 到 S = {s}。padding mask 加在 softmax 之前：第 {i + 1} 个 token（query，"
        "真实 token）的那一行，哪些 key 被遮住（权重为 0）？",
        right,
        wrong,
        f"padding mask 遮的是 key 维度：位置 {length + 1}–{s} 是 PAD，每个 query 都不能关注它们。",
        {"S": s, "length": length, "i": i},
    )


@template("causal-mask", "7.17", keys)
def _causal(rng):
    s = rng.randint(3, 6)
    i = rng.randrange(s)
    right = _mask_row(_mask_trace(s, causal=True), i)
    wrong = [
        (mid, _mask_row(v, i))
        for mid, v in _wrong(
            ["causal_mask/upper-triangle", "causal_mask/masked-convention", "causal_mask/no-diagonal"], s
        )
    ]
    return Draft(
        f"Decoder 自注意力，序列长度 S = {s}，加 causal mask。第 {i + 1} 个位置（query）的那一行，哪些 key 被遮住？",
        right,
        wrong,
        f"位置 {i + 1} 只能看 j ≤ {i + 1}（包括自己），右边（未来）的 key 都被遮住。",
        {"S": s, "i": i},
    )


@template("cross-shape", "7.18", shape)
def _cross_shape(rng):
    import numpy as np

    from drill.engine.attention import cross_attention_trace

    b, s_dec, s_enc, d_model, d_k = rng.sample(range(2, 10), 5)
    w = np.zeros((d_model, d_k))
    right = tuple(
        cross_attention_trace(np.zeros((b, s_dec, d_model)), np.zeros((b, s_enc, d_model)), w, w, w)[
            "scores"
        ].output.shape
    )
    return Draft(
        f"Cross-Attention：batch = {b}，Decoder 长度 {s_dec}，Encoder 长度 {s_enc}，d_model = {d_model}，"
        f"d_k = {d_k}。分数矩阵 QKᵀ 的形状是？",
        right,
        _wrong(
            ["cross_shape/decoder-keys", "cross_shape/encoder-self", "cross_shape/q-from-encoder"],
            b,
            s_dec,
            s_enc,
            d_model,
            d_k,
        ),
        f"Q 来自 Decoder [{b}, {s_dec}, {d_k}]，K 来自 Encoder [{b}, {s_enc}, {d_k}]：QKᵀ = {shape(right)}。",
        {"B": b, "S_dec": s_dec, "S_enc": s_enc, "d_model": d_model, "d_k": d_k},
    )


# ---------------------------------------------------------------- 7.19 – 7.23: block, cost, training


@template("residual-gradient", "7.19", f3)
def _residual(rng):
    from drill.engine.sizes import residual_gradient

    factor, layers = rng.choice((0.5, 0.6, 0.7, 0.8, 0.9)), rng.randint(2, 12)
    return Draft(
        f"每个子层的梯度因子是 {factor}。一条跳连跨过 {layers} 个串联的子层（y = x + F(x)，F 是这 {layers} 层），"
        "∂y/∂x 是多少？",
        residual_gradient(factor, layers),
        _wrong(
            ["residual_gradient/no-residual", "residual_gradient/sum", "residual_gradient/one-layer"],
            factor,
            layers,
        ),
        f"捷径贡献 1，子层路径连乘 {factor}^{layers}：1 + {factor}^{layers} ≈ {residual_gradient(factor, layers):.4f}。",
        {"factor": factor, "layers": layers},
    )


@template("layernorm", "7.20", f3)
def _layernorm(rng):
    import numpy as np

    from drill.engine import ops

    x = np.array(_small(rng, 2, 4, (-2, -1, 0, 1, 2, 3, 4)), dtype=float)
    if (x.std(axis=-1) == 0).any() or (x.std(axis=0) == 0).any():
        return None
    i, j = rng.randrange(2), rng.randrange(4)
    right = float(ops.layer_norm(x)[i, j])
    wrong = [
        (mid, float(v[i, j]))
        for mid, v in _wrong(
            ["layer_norm/unbiased-variance", "layer_norm/wrong-axis", "layer_norm_value/rms-norm"],
            x,
            1.0,
            0.0,
        )
    ]
    return Draft(
        f"两个 token 的隐藏向量（每行一个 token，d = 4），做 LayerNorm（γ = 1，β = 0，ε = 1e-5）。"
        f"输出第 {i + 1} 行第 {j + 1} 列是多少？\n\n{format_matrix('x', x.astype(int).tolist())}",
        right,
        wrong,
        f"对每个 token 的 4 维求均值 {x[i].mean():g}、有偏方差 {x[i].var():.4f}，(x − μ)/√(σ² + ε) ≈ {right:.4f}。",
        {"x": x.tolist(), "i": i, "j": j},
    )


@template("ffn-params", "7.21", count)
def _ffn_params(rng):
    from drill.engine.sizes import ffn_params

    d = rng.choice((256, 384, 512, 768, 1024))
    return Draft(
        f"FFN：d_model = {d}，d_ff = 4·d_model = {4 * d}。不计偏置，W_1 和 W_2 一共有多少参数？",
        ffn_params(d, 4 * d),
        _wrong(
            ["ffn_params/one-matrix", "ffn_params/d-ff-as-d-model", "ffn_params/swiglu-three-matrices"],
            d,
            4 * d,
        ),
        f"W_1 [{d}, {4 * d}] + W_2 [{4 * d}, {d}] = 2·d·d_ff = 8·d² = {8 * d * d:,}：是注意力 4·d² 的两倍。",
        {"d_model": d, "d_ff": 4 * d},
    )


@template("kv-cache-size", "7.22", mib)
def _kv_size(rng):
    from drill.engine.sizes import kv_cache_bytes

    layers, heads, d_head = rng.choice((6, 12, 24)), rng.choice((8, 12, 16)), rng.choice((64, 128))
    tokens = rng.choice((512, 1024, 2048))
    args = (layers, heads, d_head, tokens, 2)
    return Draft(
        f"标准 MHA 解码：{layers} 层，每层 {heads} 个 head，每个 head 维度 {d_head}，已缓存 {tokens} 个 token，FP16"
        "（2 字节）。KV cache 占多少显存？",
        kv_cache_bytes(*args),
        _wrong(["kv_cache/keys-only", "kv_cache/one-layer", "kv_cache/one-kv-head"], *args),
        f"2（K 和 V）× {layers} 层 × {heads} 个 head × {d_head} × {tokens} × 2 字节；随 token 数线性增长。",
        {"layers": layers, "h": heads, "d_head": d_head, "tokens": tokens},
    )


@template("noam-lr", "7.23", sci)
def _noam(rng):
    from drill.engine import ops

    d, warmup = rng.choice((256, 512, 1024)), rng.choice((1000, 2000, 4000, 8000))
    step = rng.choice((warmup // 4, warmup // 2, 2 * warmup, 4 * warmup, 10 * warmup))
    right = float(ops.noam_lr(step, d, warmup))
    return Draft(
        f"Noam 学习率：lr = d_model^-0.5 · min(step^-0.5, step · warmup_steps^-1.5)，d_model = {d}，"
        f"warmup_steps = {warmup}。第 {step} 步的学习率是多少？",
        right,
        _wrong(
            ["noam_lr/max-not-min", "noam_lr/no-d-model-factor", "noam_value/constant-peak"], step, d, warmup
        ),
        f"step {'<' if step < warmup else '>'} warmup：取 {'step·warmup^-1.5（线性升温）' if step < warmup else 'step^-0.5（衰减）'}，"
        f"再乘 {d}^-0.5，得 {right:.4e}。",
        {"d_model": d, "warmup": warmup, "step": step},
    )
