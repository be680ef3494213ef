"""The blocked, multi-threaded path gives the same trace as the sequential one."""

from __future__ import annotations

import numpy as np
import pytest

from drill.engine import parallel
from drill.engine.attention import attention_trace, cross_attention_trace


def traces(monkeypatch, make):
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ELEMENTS", 10**12)
    sequential = make()
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ELEMENTS", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 3)  # more blocks than items and uneven row splits
    blocked = make()
    return sequential, blocked


@pytest.mark.skipif(parallel._controller() is None, reason="threadpoolctl not installed: no parallel path")
@pytest.mark.parametrize(
    "b,s,d,h,g,causal,pad",
    [
        (1, 7, 4, 1, None, False, False),
        (2, 9, 8, 2, None, True, True),
        (1, 5, 8, 4, 2, True, False),
        (3, 4, 6, 3, 1, False, True),
    ],
)
def test_blocked_equals_sequential(monkeypatch, b, s, d, h, g, causal, pad):
    rng = np.random.default_rng(s * d)
    x = rng.standard_normal((b, s, d))
    kv = (g or h) * (d // h)
    wq, wo = rng.standard_normal((d, d)), rng.standard_normal((d, d))
    wk, wv = rng.standard_normal((d, kv)), rng.standard_normal((d, kv))
    mask = rng.integers(0, 2, (b, s)) if pad else None
    seq, blk = traces(
        monkeypatch, lambda: attention_trace(x, wq, wk, wv, wo, heads=h, kv_heads=g, causal=causal, pad=mask)
    )
    assert seq.names() == blk.names()
    for a, c in zip(seq, blk, strict=True):
        np.testing.assert_allclose(c.output, a.output, atol=1e-12, err_msg=a.name)
        assert a.note == c.note


@pytest.mark.skipif(parallel._controller() is None, reason="threadpoolctl not installed: no parallel path")
def test_blocked_cross_attention(monkeypatch):
    rng = np.random.default_rng(0)
    dec, enc = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 6, 4))
    w = [rng.standard_normal((4, 4)) for _ in range(4)]
    seq, blk = traces(monkeypatch, lambda: cross_attention_trace(dec, enc, *w, heads=2))
    for a, c in zip(seq, blk, strict=True):
        np.testing.assert_allclose(c.output, a.output, atol=1e-12)


def test_row_blocks_cover_every_row_once():
    for rows in range(1, 20):
        for parts in range(1, 6):
            blocks = parallel.row_blocks(rows, parts)
            covered = [i for blk in blocks for i in range(rows)[blk]]
            assert covered == list(range(rows)) and len(blocks) == min(rows, parts)
