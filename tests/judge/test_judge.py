"""The judge's parts on their own: normalisation keeps the learner's offsets, negation and hedges, evidence spans,
determinism, and one cue per key point for every bank card."""

from __future__ import annotations

import pytest

from drill.content import load_content
from drill.judge import judge
from drill.judge.cues import MISCONCEPTIONS, POINTS
from drill.judge.normalize import normalize


@pytest.fixture(scope="module")
def library():
    return load_content()


@pytest.mark.parametrize(
    "raw, folded",
    [
        ("除以 √dₖ", "除以 sqrt dk"),
        ("sqrt(dk)", "sqrt dk"),
        ("根号 d_k", "sqrt dk"),
        ("√d_{k}", "sqrt dk"),
        ("Softmax 之后 dim=−1", "softmax 之后 dim=-1"),
        ("d_model/h", "dmodel/h"),
        ("e^(−∞)=0", "e^(-inf)=0"),
        ("O(S²d)", "o(s2d)"),
    ],
)
def test_formulas_fold_to_one_spelling(raw, folded):
    assert normalize(raw).text == folded


def test_every_folded_character_points_into_the_learners_text():
    raw = "先 softmax，再除以 √dₖ：方差归一到 1（不是除以 d_k）"
    norm = normalize(raw)
    assert len(norm.origin) == len(norm.text)
    assert list(norm.origin) == sorted(norm.origin)
    assert all(0 <= i < len(raw) for i in norm.origin)
    start = norm.text.index("sqrt dk")
    s, e = norm.span(start, start + len("sqrt dk"))
    assert raw[s:e] == "√dₖ"


def test_every_bank_card_has_one_cue_per_point(library):
    with_points = {c.id: c for c in library.cards.values() if c.bank is not None and c.points}
    assert set(POINTS) == set(with_points)
    for cid, card in with_points.items():
        assert len(POINTS[cid]) == len(card.points), cid


def test_every_misconception_has_a_cue(library):
    from drill.content.misconceptions import load_misconceptions

    assert {m.id for m in load_misconceptions(library).items} == set(MISCONCEPTIONS)


def _q07(text):
    return judge("q07", 4, text, ["divide-by-dk", "scaling-changes-order", "scaling-for-speed"])


def test_evidence_is_the_learners_own_words():
    text = "方差是 d_k，标准差 √dₖ。除以 √dₖ 把方差归一到 1。"
    verdict = _q07(text)
    assert verdict.covered == {0, 2}
    for point in verdict.points:
        for span in point.evidence:
            assert text[span.start : span.end] == span.text
    assert any("√dₖ" in s.text for s in verdict.points[2].evidence)


def test_a_negated_claim_is_not_the_claim():
    assert "divide-by-dk" in {m.id for m in _q07("分数除以 d_k 就行。").misconceptions}
    rejected = _q07("注意不是除以 d_k，那样会缩得太小。")
    assert "divide-by-dk" not in {m.id for m in rejected.misconceptions}
    assert 3 in rejected.covered  # the point "不是除以 d_k——那会过度缩小"


def test_chinese_words_that_start_with_bu_are_not_negations():
    # 不变 (unchanged) is one word for jieba: the scaling claim below is not negated by it
    verdict = judge(
        "q08", 3, "softmax 对最后一维 dim=-1 做，形状不变，每一行是 query 对所有 key 的分布，和为 1。", []
    )
    assert verdict.covered >= {0, 1}


def test_keywords_without_the_claim_cover_nothing():
    assert _q07("根号 d_k 这个缩放我知道，和方差有关，具体记不清了。").covered == set()
    assert (
        judge("q08", 3, "好像是 dim=0 还是 -1 吧，不太确定。", ["softmax-over-columns"]).misconceptions == ()
    )


def test_the_corrected_kv_cache_claim_is_a_misconception_not_a_point():
    text = "KV Cache 把生成 n 个 token 的总计算从 O(n²) 降到 O(n)。"
    verdict = judge("q20", 4, text, ["kvcache-total-linear"])
    assert [m.id for m in verdict.misconceptions] == ["kvcache-total-linear"]


def test_the_same_answer_gives_the_same_verdict():
    text = "Each score sums d_k terms, variance d_k, std sqrt(d_k); dividing by √dₖ gives unit variance."
    assert _q07(text) == _q07(text)
