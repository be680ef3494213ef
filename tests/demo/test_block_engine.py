"""The 7.2 block against PyTorch: `nn.TransformerEncoderLayer` and `nn.TransformerDecoderLayer` (post-norm,
ReLU, no dropout, zero biases) loaded with the demo's weights give the engine's every sub-layer output."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.engine.demos import BLOCK_D_FF, BLOCK_D_MODEL, BLOCK_HEADS, block_inputs, transformer_block
from tests.i18n.conftest import pseudo, pseudo_locale_dir  # noqa: F401 - the fixtures


def t(a) -> torch.Tensor:
    return torch.tensor(np.asarray(a), dtype=torch.float64)


def load_attention(mha: torch.nn.MultiheadAttention, inputs, part: str) -> None:
    w = [t(inputs[f"{part}.{m}"]) for m in ("W_Q", "W_K", "W_V")]
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([m.T for m in w]))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(t(inputs[f"{part}.W_O"]).T)
        mha.out_proj.bias.zero_()


def load_ffn(layer, inputs, part: str) -> None:
    with torch.no_grad():
        layer.linear1.weight.copy_(t(inputs[f"{part}.W_1"]).T)
        layer.linear2.weight.copy_(t(inputs[f"{part}.W_2"]).T)
        layer.linear1.bias.zero_()
        layer.linear2.bias.zero_()


def torch_block(seed: int, heads: int, x11: float | None):
    inputs = block_inputs(seed)
    x, y = t(inputs["X"]), t(inputs["Y"])
    if x11 is not None:
        x[0, 0] = x11
    options = dict(dim_feedforward=BLOCK_D_FF, dropout=0.0, batch_first=True, dtype=torch.float64)
    enc = torch.nn.TransformerEncoderLayer(BLOCK_D_MODEL, heads, **options).eval()
    dec = torch.nn.TransformerDecoderLayer(BLOCK_D_MODEL, heads, **options).eval()
    load_attention(enc.self_attn, inputs, "enc_self")
    load_attention(dec.self_attn, inputs, "dec_self")
    load_attention(dec.multihead_attn, inputs, "dec_cross")
    load_ffn(enc, inputs, "enc_ffn")
    load_ffn(dec, inputs, "dec_ffn")
    causal = torch.nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
    with torch.no_grad():
        memory = enc(x[None])[0]
        out = dec(y[None], memory[None], tgt_mask=causal, tgt_is_causal=True)[0]
        # the sub-layers one by one, through PyTorch's own modules
        attn, weights = enc.self_attn(x[None], x[None], x[None], average_attn_weights=False)
        norm1 = enc.norm1(x + attn[0])
        hidden = torch.relu(enc.linear1(norm1))
        dec_attn, dec_weights = dec.self_attn(
            y[None], y[None], y[None], attn_mask=causal, average_attn_weights=False
        )
        dec_norm1 = dec.norm1(y + dec_attn[0])
        cross, cross_weights = dec.multihead_attn(
            dec_norm1[None], memory[None], memory[None], average_attn_weights=False
        )
    return {
        "enc_weights": weights[0],
        "enc_self_attn": attn[0],
        "enc_norm_1": norm1,
        "enc_ffn_hidden": hidden,
        "enc_norm_2": memory,
        "dec_weights": dec_weights[0],
        "dec_self_attn": dec_attn[0],
        "dec_norm_1": dec_norm1,
        "dec_cross_weights": cross_weights[0],
        "dec_cross_attn": cross[0],
        "dec_norm_3": out,
    }


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 50),
    heads=st.sampled_from([1, 2, 4]),
    x11=st.none() | st.floats(-3, 3, allow_nan=False),
)
def test_every_sublayer_matches_pytorch(seed, heads, x11):
    trace = transformer_block(seed, heads, x11)
    expected = torch_block(seed, heads, x11)
    for name, value in expected.items():
        np.testing.assert_allclose(trace[name].output, value.numpy(), atol=1e-10, err_msg=name)


def test_every_module_keeps_the_shape_and_adds_are_residuals():
    trace = transformer_block(3, 2)
    for step in trace.steps:
        if step.shape == "[S, d_model]":
            assert step.output.shape == (3, BLOCK_D_MODEL), step.name
    x = trace["enc_input"].output
    np.testing.assert_array_equal(trace["enc_add_1"].output, x + trace["enc_self_attn"].output)
    # the decoder's first token sees only itself: a causal mask
    assert np.allclose(np.triu(trace["dec_weights"].output, 1), 0.0)
    assert trace["enc_ffn_hidden"].output.shape == (3, BLOCK_D_FF)
    assert (trace["enc_ffn_hidden"].output >= 0).all()


def test_heads_must_divide_d_model():
    with pytest.raises(ValueError, match="heads must be one of"):
        transformer_block(0, 3)


def block_titles(heads: int) -> list[str]:
    trace = transformer_block(0, heads)
    return [trace.title, *(step.title for step in trace.steps)]


def test_every_step_title_goes_through_the_catalog(pseudo):  # noqa: F811 - the fixture
    """Under the pseudo-locale every title of the block's trace (and the trace's own) is marked."""
    from drill.i18n import _
    from tests.i18n.pseudo import unmarked_words

    for heads in BLOCK_HEADS:
        for title in block_titles(heads):
            assert unmarked_words(_(title)) == [], title


def test_every_step_title_has_a_chinese_translation():
    import drill.i18n
    from drill.i18n import Deferred, _

    drill.i18n.set_language("zh")
    try:
        catalog = drill.i18n._translation._catalog
        for heads in BLOCK_HEADS:
            for title in block_titles(heads):
                msgid = title.msgid if isinstance(title, Deferred) else title
                assert catalog.get(msgid), msgid
        assert _(transformer_block(0, 2).title) == "7.2 Transformer Block（h = 2）"
        assert _(transformer_block(0, 1)["dec_ffn_hidden"].title) == "FFN 隐藏层"
    finally:
        drill.i18n.set_language("en")
