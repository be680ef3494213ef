"""The numerical core of attention: projections and scores → softmax → A·V, written block by block into
preallocated arrays, on drill.engine.parallel's thread pool when the problem is big (same numbers either way)."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops, parallel


def project(pairs, parallel_ok: bool) -> list[np.ndarray]:
    """x @ w for each (x [B, S, d_in], w [d_in, d_out]), split into row blocks when the problem is big."""
    outs = [np.empty(x.shape[:-1] + (w.shape[1],)) for x, w in pairs]
    if not parallel_ok:
        for (x, w), o in zip(pairs, outs, strict=True):
            np.matmul(x, w, out=o)
        return outs
    tasks = []
    for (x, w), o in zip(pairs, outs, strict=True):
        for bi in range(x.shape[0]):
            for rows in parallel.row_blocks(x.shape[1], parallel.workers()):
                tasks.append(
                    lambda x=x, w=w, o=o, bi=bi, rows=rows: np.matmul(x[bi, rows], w, out=o[bi, rows])
                )
    parallel.run_blocks(tasks, True)
    return outs


def attend(qh, kh, vh, add, d_k: int, heads_per_mask: int, parallel_ok: bool):
    """scores, scaled scores, masked logits, softmax weights and A·V, block by block.

    qh [..., S_q, d_k], kh [..., S_k, d_k], vh [..., S_k, d_v] with the same leading axes ([B] or [B, h]);
    ``add`` is the additive mask [B, S_q, S_k] (shared by the heads of a sequence) or None.
    """
    lead = qh.shape[:-2]
    s_q, s_k, d_v = qh.shape[-2], kh.shape[-2], vh.shape[-1]
    q3, k3, v3 = (a.reshape((-1,) + a.shape[-2:]) for a in (qh, kh, vh))
    n = q3.shape[0]
    scores = np.empty((n, s_q, s_k))
    scaled = np.empty_like(scores)
    logits = scaled if add is None else np.empty_like(scores)
    weights = np.empty_like(scores)
    context = np.empty((n, s_q, d_v))
    root = math.sqrt(d_k)

    def block(i: int, rows: slice) -> None:
        np.matmul(q3[i, rows], k3[i].T, out=scores[i, rows])
        np.divide(scores[i, rows], root, out=scaled[i, rows])
        if add is not None:
            np.add(scaled[i, rows], add[i // heads_per_mask, rows], out=logits[i, rows])
        ops.softmax_into(logits[i, rows], weights[i, rows])
        np.matmul(weights[i, rows], v3[i], out=context[i, rows])

    parts = parallel.workers() if parallel_ok else 1
    per_item = max(1, parts // n) if n < parts else 1
    tasks = [
        (lambda i=i, rows=rows: block(i, rows))
        for i in range(n)
        for rows in parallel.row_blocks(s_q, per_item)
    ]
    parallel.run_blocks(tasks, parallel_ok)
    shape = lead + (s_q, s_k)
    return (
        scores.reshape(shape),
        scaled.reshape(shape),
        logits.reshape(shape),
        weights.reshape(shape),
        context.reshape(lead + (s_q, d_v)),
    )
