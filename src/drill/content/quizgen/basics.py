"""Templates for 7.1 – 7.8: why attention, parameters, positional encoding, cost, Q/K/V shapes and scores."""

from __future__ import annotations

from drill.content.generated import _num
from drill.content.quizgen.base import (
    CONCEPT,
    FORMULA,
    HAND,
    SHAPE,
    Draft,
    _givens,
    _hand,
    _vec,
    _wrong,
    count,
    f3,
    shape,
    steps,
    template,
    times,
)


@template("path-length", "7.1", steps, CONCEPT)
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


@template("layer-params", "7.2", count, FORMULA)
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


@template("pe-value", "7.3", f3, FORMULA)
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


@template("rope-value", "7.3", f3, FORMULA)
def _rope(rng):
    import numpy as np

    from drill.engine import ops

    d, m, k = 4, rng.randint(2, 6), rng.randrange(4)
    x = [rng.choice((-2, -1, 1, 2, 3)) for _ in range(d)]
    rotated = ops.rope(np.array([x], dtype=float), np.array([m]))[0]
    wrong = [
        (mid, float(np.asarray(v)[0, k]))
        for mid, v in _wrong(
            ["rope/half-split-pairs", "rope/rotation-sign", "rope_value/angle-without-position"], [x], [m]
        )
    ]
    pair = k // 2
    return Draft(
        f"RoPE（RoFormer 约定：相邻两维 (x₁, x₂)、(x₃, x₄) 各为一对，第 i 对（i 从 0 数）按角度 m·θ_i 逆时针旋转，"
        f"θ_i = 10000^(−2i/d)）。d = 4，位置 m = {m} 的向量 x = {_vec(x)}。旋转后第 {k + 1} 维（从 1 数）是多少？",
        float(rotated[k]),
        wrong,
        f"第 {k + 1} 维属于第 {pair} 对，角度 {m}·10000^(−{2 * pair}/4) ≈ {m * 10000 ** (-2 * pair / 4):.4f} 弧度；"
        f"(a, b) → (a·cos − b·sin, a·sin + b·cos)，旋转后 {_vec(rotated)}。",
        {"x": x, "m": m, "k": k},
    )


@template("score-growth", "7.4", times, CONCEPT)
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


@template("q-shape", "7.5", shape, SHAPE)
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


@template("raw-score", "7.6", f3, HAND)
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


@template("score-shape", "7.7", shape, SHAPE)
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


@template("additive-cost", "7.8", times, CONCEPT)
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
