"""The engine's words: every step title, explanation and note of every example trace (and of the attention
traces built from typed inputs) goes through the catalog, has a Chinese translation, and names elements from 1
as the chapter does ("第 1 个 token", "head 1", A₁₂), while the trace itself (`drill calc --json`) stays English."""

from __future__ import annotations

import io
import json
import math
import pickle
import re

import numpy as np
import pytest

import drill.i18n
from drill.engine.attention import attention_trace, cross_attention_trace
from drill.engine.examples import EXAMPLES, build_example
from drill.engine.examples.common import W_K, W_Q, W_V, X
from drill.i18n import N_, Deferred, _, deferred
from tests.i18n.pseudo import unmarked_words


def _typed_traces():
    """Attention traces whose words come from the builders, not an example: every title variant, a GQA
    repeat note, a batched fully masked row (query and sequence named), cross-attention."""
    rng = np.random.default_rng(5)
    x8 = rng.normal(size=(3, 8))
    w8 = rng.normal(size=(8, 8))
    w4 = rng.normal(size=(8, 4))
    xb = np.stack([X, X])
    return [
        attention_trace(X, W_Q, W_K, W_V),
        attention_trace(X, W_Q, W_K, W_V, causal=True, pad=[0, 1, 1]),
        attention_trace(xb, W_Q, W_K, W_V, causal=True, pad=[[1, 1, 1], [0, 1, 1]]),
        attention_trace(X, W_Q, W_K, W_V, pad=[1, 1, 0]),
        attention_trace(x8, w8, w8, w8, w8, heads=4),
        attention_trace(x8, w8, w4, w4, heads=4, kv_heads=2, causal=True),
        attention_trace(x8, w8, w8[:, :2], w8[:, :2], heads=4, kv_heads=1, pad=[1, 1, 0]),
        cross_attention_trace(X[:2], X, W_Q, W_K, W_V),
    ]


def all_traces():
    return [build_example(name) for name in EXAMPLES] + _typed_traces()


def shown_words(trace) -> list[str]:
    """Every text of the engine's own a screen shows for this trace (title, each step's title, explanation and
    note), the example summary included."""
    texts = [trace.title]
    if trace.example:
        texts.append(EXAMPLES[trace.example].summary)
    for step in trace.steps:
        texts += [step.title, step.explanation]
        if step.note:
            texts.append(step.note)
    return [text for text in texts if text]


TRACES = all_traces()
IDS = [trace.example or f"typed-{i}" for i, trace in enumerate(TRACES)]

# A 0-based name a learner would read: "head 0", "row 0", "query 0 of sequence 0", "A[0, 2]", "A₀", "第 0".
ZERO_BASED = re.compile(
    r"\b(heads?|rows?|columns?|tokens?|quer(?:y|ies)|keys?|sequences?|positions?|elements?|KV heads?)\s+0\b"
    r"|\b[A-Za-z]\w*\[\s*0\s*[,\]]"
    r"|[A-Za-z]₀"
    r"|第\s*0"
    r"|头\s*0",
    re.IGNORECASE,
)


@pytest.mark.parametrize("trace", TRACES, ids=IDS)
def test_no_zero_based_name_in_any_step_in_either_language(trace):
    drill.i18n.set_language("zh")
    chinese = [_(text) for text in shown_words(trace)]
    drill.i18n.set_language("en")
    for text in [*shown_words(trace), *chinese]:
        assert not ZERO_BASED.search(text), text


def test_the_checker_sees_zero_based_names():
    """The pattern above is not vacuous: the engine's old wordings all match it."""
    old = [
        "S is symmetric but A is not: A[0, 2] ≠ A[2, 0] because rows 0 and 2 have different sums",
        "fully masked row (query 0 of sequence 1)",
        "row 0 is the chapter's x = [1, 0]",
        "head 0, sequence 0",
        "第 0 个查询",
    ]
    assert all(ZERO_BASED.search(text) for text in old)
    assert not ZERO_BASED.search("row 1 is the chapter's x = [1, 0]; all in (0, 1]; m_j ∈ {0, 1}")


def test_masked_rows_are_named_from_one():
    batched = attention_trace(np.stack([X, X]), W_Q, W_K, W_V, causal=True, pad=[[1, 1, 1], [0, 1, 1]])
    assert "(query 1 of sequence 2)" in batched["softmax"].note
    single = build_example("fully_masked")
    assert "(query 1)" in single["softmax"].note  # pad [0, 1, 1] + causal: the first token sees nothing


@pytest.mark.parametrize("trace", TRACES, ids=IDS)
def test_every_word_goes_through_the_catalog(pseudo, trace):
    """Under the pseudo-locale every title, explanation and note is marked; only numbers and symbols (d_k,
    √2) are left outside the markers."""
    for text in shown_words(trace):
        assert unmarked_words(_(text)) == [], text


def _chinese_catalog() -> dict:
    drill.i18n.set_language("zh")
    translation = drill.i18n._translation
    assert translation is not None and translation.info().get("language") == "zh_CN"
    return translation._catalog


def _msgids(text: str) -> list[str]:
    """The catalog message(s) behind a shown text: a plain marked string, or a Deferred and its fields."""
    if not isinstance(text, Deferred):
        return [text]
    found = [text.msgid]
    for value in text.fields.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Deferred):
                found += _msgids(item)
    return found


def test_every_step_title_and_word_has_a_chinese_translation():
    catalog = _chinese_catalog()
    words_only = re.compile(r"[^\W\d_]{2,}")  # "d = 4", "√2 ≈ 1.414": nothing to translate
    missing = set()
    for trace in TRACES:
        titles = [trace.title, *(step.title for step in trace.steps)]
        for text in titles:  # every title, however short ("ReLU" stays "ReLU", but is in the catalog)
            missing.update(m for m in _msgids(text) if not catalog.get(m))
        for text in shown_words(trace):
            if words_only.search(text):
                missing.update(m for m in _msgids(text) if not catalog.get(m))
    assert sorted(missing) == []


def test_chinese_steps_read_in_the_chapters_words():
    drill.i18n.set_language("zh")
    worked = build_example("worked")
    assert _(worked.title) == "7.12 手算示例：3 个 token × 2 维"
    assert _(worked["softmax"].title) == "逐行 softmax"
    assert _(worked["scale"].explanation) == "除以 √d_k = √2 ≈ 1.414，让方差保持在 1 附近"
    gqa = build_example("gqa")
    assert _(gqa["repeat_k"].explanation) == "GQA：每 2 个查询头共享一个 KV 头"
    assert _(gqa["repeat_k"].note) == "KV Cache 只存 4 个头中的 2 个（MHA 大小的 0.5）"
    masked = attention_trace(np.stack([X, X]), W_Q, W_K, W_V, causal=True, pad=[[0, 1, 1], [0, 1, 1]])
    assert _(masked["softmax"].note).startswith(
        "整行被掩码（第 1 条序列的第 1 个查询、第 2 条序列的第 1 个查询）"
    )
    typed = attention_trace(X, W_Q, W_K, W_V, causal=True, pad=[1, 1, 0])
    assert _(typed.title) == "自注意力，因果掩码，填充掩码"


def test_a_trace_stays_english_whatever_the_language():
    """`drill calc --json` and anything that stores a trace keep the English words."""
    english = build_example("gqa").to_json()
    drill.i18n.set_language("zh")
    trace = build_example("gqa")
    assert trace.to_json() == english
    data = json.loads(trace.to_json())
    assert data["title"] == "GQA: 4 query heads share 2 KV heads (d_model = 8, d_k = 2)"
    steps = {step["name"]: step for step in data["steps"]}
    assert steps["repeat_k"]["note"] == "the KV cache stores only 2 of 4 heads (0.5 of the MHA size)"


def test_a_deferred_message_is_its_english_text_until_shown():
    message = N_("{g} key head(s) of d_k = {d_k}", g=2, d_k=4)
    assert message == "2 key head(s) of d_k = 4" and isinstance(message, str)
    assert N_("plain") == "plain" and not isinstance(N_("plain"), Deferred)
    nested = N_("{kind}, causal", kind=deferred(N_("Self-attention")))
    listed = N_("fully masked row ({where})", where=(N_("query {q}", q=1), N_("query {q}", q=3)))
    assert nested == "Self-attention, causal" and listed == "fully masked row (query 1, query 3)"
    for copy in (pickle.loads(pickle.dumps(listed)), __import__("copy").deepcopy(listed)):
        assert copy == listed and isinstance(copy, Deferred) and copy.fields == listed.fields
    drill.i18n.set_language("zh")
    assert _(message) == "2 个键头，每个 d_k = 4"
    assert _(nested) == "自注意力，因果掩码"
    assert _(N_("query {q}", q=3)) == "第 3 个查询"
    assert str(message) == "2 key head(s) of d_k = 4"  # the str itself never changes


def _plain(trace) -> str:
    from rich.console import Console

    from drill.commands.calc import print_plain

    out = io.StringIO()
    print_plain(trace, console=Console(file=out, width=160, highlight=False, color_system=None))
    return out.getvalue()


def test_calc_plain_numbers_rows_columns_and_heads_from_one():
    text = _plain(build_example("worked"))
    softmax = text[text.index("Row-wise softmax") :]
    header = next(line for line in softmax.splitlines() if re.fullmatch(r"│\s+1\s+2\s+3\s+│", line.strip()))
    assert header
    rows = [line.split()[1] for line in softmax.splitlines() if re.match(r"│ [123] ", line)][:3]
    assert rows == ["1", "2", "3"]
    heads = _plain(build_example("mha"))
    assert "head 1" in heads and "head 2" in heads and "head 0" not in heads
    batch = _plain(build_example("padding_batch"))
    assert "sequence 1" in batch and "sequence 2" in batch and "sequence 0" not in batch


def test_calc_plain_speaks_chinese():
    drill.i18n.set_language("zh")
    text = _plain(build_example("fully_masked"))
    assert text.startswith("左侧填充 + 因果掩码：一个看不到任何键的查询")
    assert "注：整行被掩码（第 1 个查询）" in text
    assert "Row-wise" not in text and "fully masked" not in text


def test_check_results_speak_the_learners_language():
    """`drill check` shows a mismatch's message: English in the result, Chinese where shown under zh."""
    from types import SimpleNamespace

    from drill.engine.verify import verify_checks

    wrong = SimpleNamespace(
        id="x",
        section="7.12",
        example="worked",
        step="softmax",
        index=(0, 0),
        claimed=0.5,
        decimals=3,
        erratum=None,
    )
    missing = SimpleNamespace(**{**vars(wrong), "step": "nope"})
    bad, absent = verify_checks([wrong, missing])
    a11 = f"{1 / (1 + 2 * math.exp(1 / math.sqrt(2))):.6f}"  # the worked example's A₁₁, recomputed
    assert (
        bad.message
        == f"the chapter printed 0.5 (to 3 decimals) but the engine says {a11}; difference 0.3 > 0.0005"
    )
    assert absent.message == "example 'worked' has no step 'nope'"
    drill.i18n.set_language("zh")
    assert _(bad.message) == f"本章写的是 0.5（3 位小数），但计算引擎算得 {a11}；差值 0.3 > 0.0005"
    assert _(absent.message) == "示例 'worked' 没有步骤 'nope'"
