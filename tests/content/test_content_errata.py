"""Every erratum in data/errata.yaml, recomputed beside the chapter's claim (engine, algebra or PyTorch).

Each test states what the chapter claims and computes what is true; `test_every_erratum_is_recomputed` keeps
the list of errata and the list of tests the same. The loader attaches each note to every card that shows a
claim (the issue's example: q08 shows the FP16 pitfall, so it shows the FP16 erratum).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from drill.content import load_content

torch = pytest.importorskip("torch")
F = torch.nn.functional

DATA = Path(__file__).resolve().parents[2] / "data"
LIBRARY = load_content(DATA, cache=False)
ERRATA = {e.id: e for e in LIBRARY.errata}
RECOMPUTED: dict = {}


def recomputes(erratum_id: str):
    def register(fn):
        RECOMPUTED[erratum_id] = fn
        return fn

    return register


def test_every_erratum_is_recomputed():
    assert set(RECOMPUTED) == set(ERRATA)


@pytest.mark.parametrize("erratum_id", sorted(ERRATA))
def test_erratum(erratum_id):
    RECOMPUTED[erratum_id]()


def test_every_card_showing_a_claim_shows_its_note():
    for erratum in LIBRARY.errata:
        for card in LIBRARY.cards.values():
            shows = any(c in t for c in erratum.claims for t in card.shown_text())
            assert (card.id in erratum.cards) == shows
            assert any(erratum.note in note for note in card.errata) == shows, (erratum.id, card.id)
    q08 = LIBRARY.cards["q08"]
    assert any("FP16 下 $e^{89}$ 就溢出了" in p for p in q08.pitfalls)
    assert any("e^11.09" in note for note in q08.errata)


@recomputes("e7.7-s-symmetric")
def _s_symmetric():
    from drill.engine.examples import build_example

    steps = {s.name: s.output for s in build_example("worked")}
    X, Q, K = steps["x"], steps["project_q"], steps["project_k"]
    W_Q, W_K = np.linalg.solve(X[:2], Q[:2]), np.linalg.solve(X[:2], K[:2])  # X's first rows are e₁, e₂
    M = W_Q @ W_K.T
    assert np.allclose(M, [[0, 1], [1, 1]]) and np.allclose(M, M.T)
    rng = np.random.default_rng(0)
    for _ in range(50):  # symmetric for every X, not by coincidence
        X = rng.normal(size=(5, 2))
        S = (X @ W_Q) @ (X @ W_K).T
        assert np.allclose(S, S.T)
    W = rng.normal(size=(2, 2))  # a general W_Q W_Kᵀ gives a non-symmetric S
    S = X @ W @ X.T
    assert not np.allclose(S, S.T)


@recomputes("e7.8-additive-complexity")
def _additive_complexity():
    # additive score s_ij = vᵀ tanh(W_q q_i + W_k k_j): hoisting the projections gives the same scores
    rng = np.random.default_rng(1)
    S, d = 6, 4
    q, k = rng.normal(size=(S, d)), rng.normal(size=(S, d))
    Wq, Wk, v = rng.normal(size=(d, d)), rng.normal(size=(d, d)), rng.normal(size=d)
    naive = np.array([[v @ np.tanh(Wq @ q[i] + Wk @ k[j]) for j in range(S)] for i in range(S)])
    pq, pk = q @ Wq.T, k @ Wk.T  # S·d² once
    hoisted = np.tanh(pq[:, None, :] + pk[None, :, :]) @ v  # S²·d
    assert np.allclose(naive, hoisted)

    def cost(S, d):  # multiply-adds of the hoisted form
        return 2 * S * d * d + S * S * d

    # O(S·d² + S²·d): quadrupling S at fixed d costs at most 16×; S²d² would give 16× from S and grow with d²
    assert cost(4096, 64) / cost(1024, 64) < 16 and cost(1024, 256) / cost(1024, 64) < 16


@recomputes("e7.9-unscaled-row")
def _unscaled_row():
    top = lambda z: float(torch.softmax(torch.tensor(z, dtype=torch.float64), -1).max())  # noqa: E731
    assert round(top([3.0, 2.0, 1.0]) * 100, 1) == 66.5  # [3, 2, 1] unscaled is itself
    assert round(top([24.0, 16.0, 8.0]) * 100, 2) == 99.97  # the 8×-grown row (std √64) does saturate


def _top(z):
    return float(torch.softmax(torch.tensor(z, dtype=torch.float64), -1).max())


@recomputes("e7.9-max-prob-16")
def _max_prob_16():
    assert round(_top([0.75, 0.5, 0.25]) * 100, 1) == 41.9  # the chapter's table says 44.5%
    assert ERRATA["e7.9-max-prob-16"].check in {c.id for c in LIBRARY.checks}
    assert "t7.9-3.r2" in ERRATA["e7.9-max-prob-16"].cards  # the cloze card asking that cell shows the note


@recomputes("e7.9-max-prob-64")
def _max_prob_64():
    assert round(_top([0.375, 0.25, 0.125]) * 100, 1) == 37.6  # the chapter's table says 38.3%
    assert "t7.9-3.r3" in ERRATA["e7.9-max-prob-64"].cards


@recomputes("e7.12-a23-rounding")
def _a23_rounding():
    a = math.exp(1 / math.sqrt(2))
    assert round(a / (2 + a), 3) == 0.503 and round(1 - 2 * round(1 / (2 + a), 3), 3) == 0.504
    assert {"c7.12-o21", "c7.12-o32"} <= set(ERRATA["e7.12-a23-rounding"].cards)  # they show the chapter's A


@recomputes("e7.10-fp16-overflow")
def _fp16_overflow():
    assert math.log(float(torch.finfo(torch.float16).max)) == pytest.approx(11.09, abs=0.005)
    assert torch.isinf(torch.exp(torch.tensor(11.1, dtype=torch.float16)))
    assert math.log(float(torch.finfo(torch.float32).max)) == pytest.approx(88.72, abs=0.005)
    assert ERRATA["e7.10-fp16-overflow"].check in {c.id for c in LIBRARY.checks}


@recomputes("e7.10-underflow")
def _underflow():
    def weight(gap, dtype):
        return float(torch.softmax(torch.tensor([0.0, -gap], dtype=dtype), -1)[1])

    assert weight(100, torch.float64) == pytest.approx(math.exp(-100) / (1 + math.exp(-100)))
    assert weight(100, torch.float32) > 0 and weight(105, torch.float32) == 0.0  # FP32: 0 from about 104
    assert weight(16, torch.float16) > 0 and weight(18, torch.float16) == 0.0  # FP16: 0 from about 17


def _chapter_self_attention():
    """The 7.13 implementation, run as the chapter prints it."""
    text = (DATA / "transformer-chapter-7.md").read_text(encoding="utf-8")
    start = text.index("class SelfAttention(nn.Module):")
    code = text[text.rindex("```python", 0, start) + len("```python") : text.index("```", start)]
    scope: dict = {}
    exec(compile(code, "chapter-7.13", "exec"), scope)
    return scope["SelfAttention"]


@recomputes("e7.13-v-width")
def _v_width():
    SelfAttention = _chapter_self_attention()
    model = SelfAttention(d_model=8, d_k=4)
    x = torch.randn(2, 5, 8)
    assert model.Wv(x).shape == (2, 5, 4)  # d_k, whatever d_v was meant to be
    assert model(x).shape == (2, 5, 4)


@recomputes("e7.15-kv-cache")
def _kv_cache():
    def total(per_step, n):
        return sum(per_step(t) for t in range(1, n + 1))

    n = 1000
    proj_no_cache, proj_cache = total(lambda t: t, n), total(lambda t: 1, n)  # projections/FFN
    attn_no_cache, attn_cache = total(lambda t: t * t, n), total(lambda t: t, n)  # scores over the prefix
    assert proj_no_cache == n * (n + 1) // 2 and proj_cache == n  # O(n²) -> O(n): right for this part
    assert (
        attn_no_cache == n * (n + 1) * (2 * n + 1) // 6 and attn_cache == n * (n + 1) // 2
    )  # O(n³) -> O(n²)
    # and the cached step computes the same output as the full recomputation
    torch.manual_seed(0)
    x = torch.randn(1, 6, 4)
    causal = torch.ones(6, 6).triu(1).bool()
    full = F.scaled_dot_product_attention(x, x, x, attn_mask=~causal)
    last = F.scaled_dot_product_attention(x[:, -1:], x, x)  # one new token against the cached K/V
    assert torch.allclose(full[:, -1:], last, atol=1e-6)


@recomputes("e7.16-mask-convention")
def _mask_convention():
    torch.manual_seed(0)
    q, k, v = torch.randn(1, 1, 4), torch.randn(1, 3, 4), torch.randn(1, 3, 4)
    keep_first_two = torch.tensor([[True, True, False]])
    mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)
    with torch.no_grad():
        _, w = mha(q, k, v, attn_mask=~keep_first_two)  # MHA: True = masked
    assert float(w[0, 0, 2]) == 0 and float(w[0, 0, :2].sum()) == pytest.approx(1)
    sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=keep_first_two)  # SDPA: True = attends
    scores = torch.softmax(q @ k.transpose(-2, -1) / 2 + torch.tensor([0.0, 0.0, float("-inf")]), -1)
    assert torch.allclose(sdpa, scores @ v, atol=1e-6)


@recomputes("e7.17-mha-is-causal")
def _mha_is_causal():
    with pytest.raises(TypeError):
        torch.nn.MultiheadAttention(4, 1, is_causal=True)
    mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)
    x = torch.randn(1, 3, 4)
    with pytest.raises(RuntimeError):  # a hint only: the mask must be given
        mha(x, x, x, is_causal=True)
    causal = torch.ones(3, 3).triu(1).bool()
    out = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    assert torch.allclose(out, F.scaled_dot_product_attention(x, x, x, attn_mask=~causal), atol=1e-6)


@recomputes("e7.17-large-negative")
def _large_negative():
    row = torch.tensor([1.0, 2.0, 3.0])
    some = torch.tensor([False, True, True])
    assert torch.allclose(
        torch.softmax(row.masked_fill(some, -1e9), -1),
        torch.softmax(row.masked_fill(some, float("-inf")), -1),
    )
    every = torch.ones(3, dtype=torch.bool)
    assert torch.allclose(torch.softmax(row.masked_fill(every, -1e9), -1), torch.full((3,), 1 / 3))
    assert torch.isnan(torch.softmax(row.masked_fill(every, float("-inf")), -1)).all()
    q = torch.randn(1, 1, 4)
    kv = torch.randn(1, 3, 4)
    out = F.scaled_dot_product_attention(q, kv, kv, attn_mask=torch.zeros(1, 3, dtype=torch.bool))
    assert torch.equal(out, torch.zeros_like(out))


@recomputes("e7.17-inference-mask")
def _inference_mask():
    torch.manual_seed(0)
    x = torch.randn(1, 5, 4)
    causal = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    unmasked = F.scaled_dot_product_attention(x, x, x)
    assert not torch.allclose(causal, unmasked)  # a prefill of 5 tokens needs the mask
    step = F.scaled_dot_product_attention(x[:, -1:], x, x)  # one token with a cache: nothing in the future
    assert torch.allclose(step, causal[:, -1:], atol=1e-6)


@recomputes("e7.19-residual-product")
def _residual_product():
    for n, one_skip in ((1, 1.7), (4, 1.24), (12, 1.014)):
        x = torch.tensor(1.0, requires_grad=True)
        h = x
        for _ in range(n):
            h = h + 0.7 * h  # a residual around each layer
        h.backward()
        assert float(x.grad) == pytest.approx(1.7**n)
        assert 1 + 0.7**n == pytest.approx(
            one_skip, abs=5e-4
        )  # the chapter's column: one skip around n layers
        if n > 1:  # one layer: the same thing
            assert float(x.grad) != pytest.approx(one_skip, abs=5e-4)


@recomputes("e7.24-q18-softmax")
def _q18_softmax():
    def softmax_ops(S):  # exp, sum and divide on every one of the S² scores
        return 3 * S * S

    def av_ops(S, d_v):
        return S * S * d_v

    assert softmax_ops(512) == softmax_ops(512)  # independent of d
    assert av_ops(512, 128) == 2 * av_ops(512, 64)  # grows with d_v


@recomputes("e7.23-dropout-eval")
def _dropout_eval():
    torch.manual_seed(0)
    drop = torch.nn.Dropout(p=0.1)
    x = torch.ones(200_000)
    drop.train()
    assert float(drop(x).mean()) == pytest.approx(1.0, abs=0.01)  # training output's mean is x
    drop.eval()
    assert torch.equal(drop(x), x)  # eval: the identity, no scaling


# Claims about what a paper did: no computation can stand in for the paper, so the erratum names its source (the
# paper and section) and the test checks that the note rests on it and reaches the cards that quote the claim.
def _sourced(erratum_id: str, cites: tuple[str, ...], cards: set[str]) -> None:
    e = ERRATA[erratum_id]
    assert e.source and all(c in e.source for c in cites), e.source
    assert cards <= set(e.cards), (erratum_id, e.cards)
    assert e.note_en and e.kind == "wrong"


@recomputes("e7.23-dropout-places")
def _dropout_places():
    _sourced("e7.23-dropout-places", ("Vaswani", "§5.4"), {"q39", "t7.23-2.r1", "t7.25-1.r1"})
    # what the paper does name, as PyTorch's nn.TransformerEncoderLayer implements it: with the attention
    # weights' dropout off and the two residual dropouts on, training output still differs from eval
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5, batch_first=True)
    layer.self_attn.dropout = (
        0.0  # the weights' dropout is an implementation knob, separate from the paper's two
    )
    x = torch.randn(1, 4, 8)
    layer.train()
    trained = layer(x)
    layer.eval()
    assert not torch.allclose(trained, layer(x))


@recomputes("e7.14-head-pruning")
def _head_pruning():
    _sourced("e7.14-head-pruning", ("Michel", "2019"), {"q21"})


@recomputes("e7.8-scaled-equals-additive")
def _scaled_equals_additive():
    _sourced("e7.8-scaled-equals-additive", ("Vaswani", "§3.2.1"), {"q23", "q24", "t7.8-1.r4"})
    # every place the chapter words "equal once scaled" carries the note: 7.8's intuition, table, warning and
    # answer, 7.9's answer, 7.24 Q23 (whose key point the interview rubric no longer rewards) and 7.25's table
    chapter = (DATA / "transformer-chapter-7.md").read_text(encoding="utf-8")
    claims = ERRATA["e7.8-scaled-equals-additive"].claims
    for line in chapter.splitlines():
        if "相当" in line and ("加性" in line or "点乘" in line):
            assert any(c.strip() in line for c in claims), line
    q23 = LIBRARY.cards["q23"]
    assert not any("相当" in point for point in q23.points)


@recomputes("e7.19-residual-lossless")
def _residual_lossless():
    for slope, factor in ((-0.7, 0.3), (-1.0, 0.0), (0.7, 1.7)):
        x = torch.tensor([2.0], requires_grad=True)
        y = x + slope * x  # y = x + F(x), F linear with ∂F/∂x = slope
        y.backward()
        assert float(x.grad) == pytest.approx(factor)  # below 1 whenever ∂F/∂x < 0: the "1" is no floor
    assert "q31" in ERRATA["e7.19-residual-lossless"].cards


@recomputes("e7.10-softmax-always-positive")
def _softmax_always_positive():
    w = torch.softmax(torch.tensor([0.0, -800.0], dtype=torch.float64), -1)
    assert w.tolist() == [1.0, 0.0]  # an exact 0 in float64
    z = torch.tensor([800.0, 0.0], dtype=torch.float64)
    assert torch.isnan(torch.exp(z) / torch.exp(z).sum()).any()  # without the max: inf/inf
    assert ERRATA["e7.10-softmax-always-positive"].kind == "note"  # right in exact arithmetic


@recomputes("e7.11-outputs-differ")
def _outputs_differ():
    g = torch.Generator().manual_seed(711)
    X = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], dtype=torch.float64)  # the note's example
    for _ in range(20):  # any W_Q, W_K, W_V: tokens 1 and 2 share their weights and their output
        W_Q, W_K, W_V = (torch.randn(2, 2, generator=g, dtype=torch.float64) for _ in range(3))
        Q, K, V = X @ W_Q, X @ W_K, X @ W_V
        A = torch.softmax(Q @ K.T / math.sqrt(2), dim=-1)
        out = F.scaled_dot_product_attention(Q, K, V)
        assert torch.equal(A[0], A[1]) and torch.allclose(out[0], out[1])
    # different rows of weights, one output: the V rows they weigh are the same
    Q = torch.tensor([[1.0, 0.0], [0.0, 1.0]], dtype=torch.float64)
    K = torch.tensor([[1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
    V = torch.tensor([[3.0, 1.0], [3.0, 1.0]], dtype=torch.float64)
    A = torch.softmax(Q @ K.T / math.sqrt(2), dim=-1)
    out = F.scaled_dot_product_attention(Q, K, V)
    assert not torch.allclose(A[0], A[1]) and torch.allclose(out[0], out[1])
    assert {"q09", "q10"} <= set(ERRATA["e7.11-outputs-differ"].cards)


@recomputes("e7.13-mask-after-softmax")
def _mask_after_softmax():
    scores = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float64)
    masked = torch.tensor([[False, False, True]])
    after = torch.softmax(scores, -1).masked_fill(masked, 0.0)  # "加在之后"
    before = torch.softmax(scores.masked_fill(masked, float("-inf")), -1)
    assert after[0, 2] == 0 == before[0, 2]  # the masked key is gone either way: not "no effect"
    assert [round(v, 3) for v in after[0].tolist()] == [0.090, 0.245, 0.0]
    assert round(float(after.sum()), 3) == 0.335  # what is wrong: the row no longer sums to 1
    assert torch.allclose(after / after.sum(-1, keepdim=True), before)  # renormalised, it is the same
    assert [round(v, 3) for v in before[0].tolist()] == [0.269, 0.731, 0.0]
    g = torch.Generator().manual_seed(713)
    s = torch.randn(4, 6, generator=g, dtype=torch.float64)
    m = torch.rand(4, 6, generator=g) < 0.4
    m[:, 0] = False  # every row keeps a key
    a = torch.softmax(s, -1).masked_fill(m, 0.0)
    assert torch.allclose(a / a.sum(-1, keepdim=True), torch.softmax(s.masked_fill(m, float("-inf")), -1))
    assert {"f7.13-mask.to-code"} <= set(ERRATA["e7.13-mask-after-softmax"].cards)


def test_the_7_3_variance_note_states_both_statistics():
    def pe(S, d):
        pos, i = np.arange(S)[:, None], np.arange(0, d, 2)[None, :]
        angle = pos / 10000 ** (i / d)
        out = np.zeros((S, d))
        out[:, 0::2], out[:, 1::2] = np.sin(angle), np.cos(angle)
        return out

    whole = pe(512, 512).var()
    per_dim = {S: pe(S, 512).var(axis=0).mean() for S in (128, 512, 2048)}
    assert round(whole, 2) == 0.43 and (pe(512, 512) ** 2).mean() == pytest.approx(0.5)
    assert [round(per_dim[S], 2) for S in (128, 512, 2048)] == [0.21, 0.29, 0.36]
    assert abs(per_dim[512] - 1 / 3) < 0.05  # like for like, "about 1/3" holds at one decimal
    note = next(c.erratum for c in LIBRARY.checks if c.id == "7.3-posenc-pe_variance")
    assert "0.43" in note and "0.29" in note and "0.21" in note and "0.36" in note


@recomputes("e7.7-gqa-bottleneck")
def _gqa_bottleneck():
    # GQA = every query head attends with the K/V head of its group: PyTorch's enable_gqa against the same
    # attention with the K/V heads repeated, so each of the h query heads computes its own S×S scores
    g = torch.Generator().manual_seed(77)
    B, h, n_kv, S, d = 1, 8, 2, 16, 4
    q = torch.randn(B, h, S, d, generator=g, dtype=torch.float64)
    k, v = (torch.randn(B, n_kv, S, d, generator=g, dtype=torch.float64) for _ in range(2))
    gqa = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    k_rep, v_rep = k.repeat_interleave(h // n_kv, dim=1), v.repeat_interleave(h // n_kv, dim=1)
    scores = q @ k_rep.transpose(-2, -1) / math.sqrt(d)
    assert scores.shape == (B, h, S, S)  # h·S² scores, as many as multi-head attention with h K/V heads
    assert torch.allclose(gqa, torch.softmax(scores, -1) @ v_rep)

    def score_macs(heads_q, S, d):  # QKᵀ per query head: S² dot products of length d; no n_kv in it
        return heads_q * S * S * d

    def kv_cache(heads_kv, S, d):  # K and V kept for every past position
        return 2 * heads_kv * S * d

    assert score_macs(h, 2 * S, d) == 4 * score_macs(h, S, d)  # still quadratic in S, whatever n_kv is
    assert kv_cache(n_kv, S, d) / kv_cache(h, S, d) == n_kv / h == 0.25  # what GQA saves: the cache
    assert kv_cache(n_kv, 2 * S, d) == 2 * kv_cache(n_kv, S, d)  # which grows linearly in S
    assert "q05" in ERRATA["e7.7-gqa-bottleneck"].cards
