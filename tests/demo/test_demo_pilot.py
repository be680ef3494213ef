"""Pilot tests: open each demo, move every control, and check that the numbers on screen are the ones an
independent computation gives (PyTorch for softmax and attention, plain Python for the arithmetic)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from drill.engine.examples.common import W_K, W_Q, W_V, X
from drill.engine.notation import number_format

from .conftest import opened, shown


def assert_rows_shown(text: str, matrix, decimals: int = 3) -> None:
    """Every row of ``matrix`` appears on one line of ``text``, its numbers in order."""
    rows = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    fmt = number_format(
        rows, decimals
    )  # written as drill writes a matrix (its rule: tests/tui/test_calc_numbers.py)
    for row in rows:
        cells = [re.escape(fmt(v)) for v in row]
        pattern = r"(?<![\d.])" + r"\s+".join(cells) + r"(?![\d])"
        assert re.search(pattern, text), f"row {cells} not on screen:\n{text}"


def torch_attention(causal: bool = False) -> dict[str, np.ndarray]:
    x, wq, wk, wv = (torch.tensor(m, dtype=torch.float64) for m in (X, W_Q, W_K, W_V))
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = q @ k.T
    scaled = scores / math.sqrt(q.shape[-1])
    masked = scaled.masked_fill(torch.triu(torch.ones(3, 3, dtype=torch.bool), 1), float("-inf"))
    weights = torch.softmax(masked if causal else scaled, dim=-1)
    out = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=causal)[0]
    return {
        "x": x.numpy(),
        "project_q": q.numpy(),
        "project_k": k.numpy(),
        "project_v": v.numpy(),
        "scores": scores.numpy(),
        "scale": scaled.numpy(),
        "masked": masked.numpy(),
        "softmax": weights.numpy(),
        "weighted_sum": out.numpy(),
    }


STAGES = {
    "qkv-matrix": [
        ["x"],
        ["project_q", "project_k", "project_v"],
        ["scores"],
        ["scale"],
        ["softmax"],
        ["weighted_sum"],
    ],
    "attn-handcalc": [
        ["x"],
        ["project_q", "project_k", "project_v"],
        ["scores"],
        ["scale"],
        ["softmax"],
        ["weighted_sum"],
    ],
    "causal-mask": [["scale"], ["masked"], ["softmax"]],
}


@pytest.mark.parametrize("name", list(STAGES))
async def test_step_demos_show_the_oracle_at_every_step(demo_app, name):
    oracle = torch_attention(causal=name == "causal-mask")
    async with demo_app(name).run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, name)
        for stage, steps in enumerate(STAGES[name]):
            assert screen.demo.control("step").index == stage
            text = shown(screen)
            assert f"[{stage + 1}/{len(STAGES[name])}]" in text
            for step in steps:
                assert_rows_shown(text, oracle[step])
            await pilot.press("enter")
        assert screen.demo.control("step").index == 0  # "next" wraps to the start
        await pilot.press("left")  # ←/→ move the step too, kept in range
        assert screen.demo.control("step").index == 0
        await pilot.press("right", "right")
        assert screen.demo.control("step").index == 2
        assert_rows_shown(shown(screen), oracle[STAGES[name][2][0]])


async def test_handcalc_shows_the_chapters_number_beside_drills(demo_app):
    async with demo_app("attn-handcalc").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "attn-handcalc")
        await pilot.press("right", "right", "right", "right")
        text = shown(screen)
        assert "第 4 步：逐行 softmax" in text
        a = math.exp(1 / math.sqrt(2))
        assert f"chapter prints 0.504, drill computes {a / (2 + a):.5f}" in text
        assert text.count("chapter prints") == 1
        await pilot.press("right")
        assert "chapter prints" not in shown(screen)


async def test_softmax_sliders(demo_app):
    async with demo_app("softmax").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "softmax")
        expected = [2.0, 1.0, 0.1]
        moves = [("right", 0.5), ("left", -0.5), ("plus", 0.5)]
        for i in range(3):
            for key, delta in moves:
                await pilot.press(key)
                expected[i] += delta
                logits = torch.tensor(expected, dtype=torch.float64)
                text = shown(screen)
                assert_rows_shown(text, [expected])
                assert_rows_shown(text, [torch.softmax(logits, 0).numpy()])
                assert_rows_shown(text, [(logits - logits.max()).exp().numpy()])
            await pilot.press("tab")
        # Large logits: still positive and summing to 1 (the max is subtracted first)
        await pilot.press(*["right"] * 200)
        assert screen.demo.control("z0").value == 100.0
        logits = torch.tensor([100.0, 1.5, 0.6], dtype=torch.float64)
        text = shown(screen)
        assert_rows_shown(text, [torch.softmax(logits, 0).numpy()])
        assert "sum to 1.000000" in text
        await pilot.press("shift+tab")
        assert screen.focused_control == 2


async def test_scaling_slider_doubles_and_halves(demo_app):
    async with demo_app("scaling").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "scaling")
        row = torch.tensor([3.0, 2.0, 1.0], dtype=torch.float64)
        for key, d_k in [("right", 128), ("right", 256), ("left", 128), ("left", 64), ("left", 32)]:
            await pilot.press(key)
            assert screen.demo.control("d_k").value == d_k
            text = shown(screen)
            assert f"d_k {d_k} [1…1024]" in text
            assert_rows_shown(text, [(row * math.sqrt(d_k)).numpy()])
            assert_rows_shown(text, [torch.softmax(row * math.sqrt(d_k), 0).numpy()])
            assert_rows_shown(text, [torch.softmax(row, 0).numpy()])
        for d_k in (1, 4, 16, 64, 256, 1024):  # the 7.9 table, recomputed
            without = torch.softmax(row * math.sqrt(d_k), 0).max().item()
            with_s = torch.softmax(row, 0).max().item()
            assert re.search(rf"\b{d_k}\s+{with_s:.3f}\s+{without:.3f}", text)


async def test_list_opens_a_demo_and_escape_returns(demo_app):
    from drill.tui.screens.demo import DemoListScreen

    async with demo_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, DemoListScreen)
        names = [d.name for d in pilot.app.screen.demos]
        assert len(names) == 15
        await pilot.press(*["down"] * names.index("softmax"), "enter")
        screen = await opened(pilot, "softmax")
        assert "逐行归一化" in shown(screen) or screen.info.title == "交互：逐行归一化"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, DemoListScreen)


async def test_weighted_sum_sliders_stay_normalised(demo_app):
    v = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=torch.float64)  # the worked example's V
    async with demo_app("weighted-sum").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "weighted-sum")
        raw = [round(float(w), 3) for w in torch_attention()["softmax"][0]]
        for i in range(3):
            for key, delta in [("right", 0.05), ("left", -0.05), ("left", -0.05)]:
                await pilot.press(key)
                raw[i] = round(raw[i] + delta, 9)
                a = torch.tensor(raw, dtype=torch.float64) / sum(raw)
                text = shown(screen)
                assert_rows_shown(text, [a.numpy()])
                assert_rows_shown(text, [(a @ v).numpy()])
            await pilot.press("tab")
        # all weight on V1 gives V1; every weight at 0 is refused
        await pilot.press("tab", *["left"] * 30, "tab", *["left"] * 30)
        assert_rows_shown(shown(screen), [[1.0, 0.0, 0.0]])
        assert_rows_shown(shown(screen), [[1.0, 0.0]])
        await pilot.press("shift+tab", "shift+tab", *["left"] * 30)
        assert screen.demo.control("w0").value > 0


async def test_dot_product_angles(demo_app):
    async with demo_app("dot-product").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "dot-product")
        angles = [30.0, 60.0]
        for i, key in [(0, "right"), (0, "right"), (1, "tab"), (1, "left"), (1, "plus")]:
            await pilot.press(key)
            if key != "tab":
                angles[i] += 15.0 if key in ("right", "plus") else -15.0
            q = 2 * torch.tensor([math.cos(math.radians(angles[0])), math.sin(math.radians(angles[0]))])
            k = 2 * torch.tensor([math.cos(math.radians(angles[1])), math.sin(math.radians(angles[1]))])
            text = shown(screen)
            assert_rows_shown(text, [q.numpy()])
            assert_rows_shown(text, [k.numpy()])
            assert_rows_shown(text, [[torch.dot(q, k).item()]])
        await pilot.press(*["right"] * 24)  # k at 345°, q at 60°
        assert "aligned" not in shown(screen)


async def test_dot_product_curve_against_the_angle(demo_app):
    """The second plot: q·k and cos θ over θ = −180°…180°, recomputed with numpy's cos; the marker sits at
    the current angle on both curves."""
    from textual_plot.plot_widget import LinePlot, ScatterPlot

    async with demo_app("dot-product").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "dot-product")
        curve = screen.query_one("#demo-curve")
        for keys, theta in [((), 30.0), (("right",), 15.0), (("tab", "left", "left", "left", "left"), -45.0)]:
            await pilot.press(*keys)
            await pilot.pause()
            lines = [d for d in curve._datasets if isinstance(d, LinePlot)]
            (marker,) = [d for d in curve._datasets if isinstance(d, ScatterPlot)]
            angles = np.arange(-180.0, 181.0, 5.0)
            np.testing.assert_allclose(lines[0].x, angles)
            np.testing.assert_allclose(lines[0].y, 4 * np.cos(np.radians(angles)), atol=1e-12)
            np.testing.assert_allclose(lines[1].y, np.cos(np.radians(angles)), atol=1e-12)
            np.testing.assert_allclose(marker.x, [theta, theta])
            np.testing.assert_allclose(
                marker.y, [4 * math.cos(math.radians(theta)), math.cos(math.radians(theta))]
            )
            assert_rows_shown(shown(screen), [[math.cos(math.radians(theta))]])


def pattern(kind: str, s: int = 6) -> torch.Tensor:
    """The four 7.14 patterns written out independently: which keys each query should attend to."""
    m = torch.zeros(s, s, dtype=torch.float64)
    for i in range(s):
        keys = {
            "local": [j for j in (i - 1, i, i + 1) if 0 <= j < s],
            "previous": [max(i - 1, 0)],
            "self": [i],
            "start": [0],
        }[kind]
        m[i, keys] = 1.0
    return m


async def test_mha_heads(demo_app):
    async with demo_app("mha").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "mha")
        for i, kind in enumerate(["local", "previous", "self", "start"]):
            assert screen.demo.control("head").index == i
            text = shown(screen)
            assert "constructed weights" in text
            weights = torch.softmax(9.0 * pattern(kind) / math.sqrt(6), dim=-1)
            assert_rows_shown(text, weights.numpy())
            # the pattern is what the chapter names: each row's largest weights are on the pattern's keys
            assert torch.equal(weights >= weights.max(dim=-1, keepdim=True).values - 1e-12, pattern(kind) > 0)
            await pilot.press("right" if i % 2 else "enter")
        assert screen.demo.control("head").index == 3  # → stops at the last head
        await pilot.press("left")
        assert screen.demo.control("head").index == 2


async def test_cross_attention_selects_a_decoder_token(demo_app):
    table = [[0.85, 0.10, 0.05], [0.05, 0.90, 0.05], [0.05, 0.10, 0.85]]  # 7.18's table
    # the engine's inputs, recomputed in PyTorch: decoder states log(table), encoder one-hot, W = 3^(1/4)·I
    w = 3**0.25 * torch.eye(3, dtype=torch.float64)
    q = torch.log(torch.tensor(table, dtype=torch.float64)) @ w
    k = torch.eye(3, dtype=torch.float64) @ w
    weights = torch.softmax(q @ k.T / math.sqrt(3), dim=-1)
    assert torch.allclose(weights, torch.tensor(table, dtype=torch.float64))
    async with demo_app("cross-attention").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "cross-attention")
        for i, token in enumerate("我爱你"):
            text = shown(screen)
            assert f"Decoder token {token}" in text and f"{token} attends over the encoder" in text
            assert f"▶{token}" in text
            assert_rows_shown(text, weights.numpy())
            for j, word in enumerate(["I", "love", "you"]):
                assert re.search(rf"^{word}\s+{weights[i, j].item():.2f}\s*$", text, re.M)
            await pilot.press("right")
        await pilot.press("enter")  # enter wraps to the first token
        assert screen.demo.control("token").index == 0


async def test_layernorm_steps_and_edits(demo_app):
    async with demo_app("layernorm").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "layernorm")
        x, gamma, beta = [1.0, 2.0, 3.0, 4.0], [1.0] * 4, [0.0] * 4

        def check(stage: int) -> None:
            text = shown(screen)
            t = torch.tensor(x, dtype=torch.float64)
            assert_rows_shown(text, [t.numpy()])
            assert_rows_shown(text, [[t.mean().item()]])
            var = t.var(unbiased=False)
            assert (f"{var.item():.3f}" in text) == (stage >= 1)
            ln = torch.nn.LayerNorm(4, eps=1e-5, dtype=torch.float64)
            with torch.no_grad():
                ln.weight.copy_(torch.tensor(gamma, dtype=torch.float64))
                ln.bias.copy_(torch.tensor(beta, dtype=torch.float64))
                out = ln(t)
            if stage >= 2:
                assert_rows_shown(text, [torch.nn.functional.layer_norm(t, (4,), eps=1e-5).numpy()])
            if stage >= 3:
                assert_rows_shown(text, [gamma])  # each named row is written by its own numbers
                assert_rows_shown(text, [beta])
                assert_rows_shown(text, [out.numpy()])  # PyTorch's LayerNorm with these γ, β

        check(0)
        assert "2.500" in shown(screen)  # the chapter's μ = 2.5
        for stage in (1, 2, 3):
            await pilot.press("enter")
            check(stage)
        assert "1.118" in shown(screen) and "1.250" in shown(screen)  # σ ≈ 1.118, σ² = 1.25
        for i in range(4):  # each x moves
            await pilot.press("tab", "right")
            x[i] += 0.5
            check(3)
        for i in range(4):  # γ one per dimension
            await pilot.press("tab", *["left"] * (i + 1))
            gamma[i] = round(gamma[i] - 0.1 * (i + 1), 9)
            check(3)
        for i in range(4):  # β one per dimension
            await pilot.press("tab", *["right"] * (4 - i))
            beta[i] = round(beta[i] + 0.1 * (4 - i), 9)
            check(3)


async def test_residual_sliders(demo_app):
    async with demo_app("residual").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "residual")
        depth, factor = 24, 0.7
        for key, change in [
            ("right", (1, 0)),
            ("left", (-1, 0)),
            ("left", (-1, 0)),
            ("tab", None),
            ("left", (0, -0.05)),
            ("right", (0, 0.05)),
            ("right", (0, 0.05)),
        ]:
            await pilot.press(key)
            if change:
                depth, factor = depth + change[0], round(factor + change[1], 9)
            text = shown(screen)
            assert f"n = {depth} layers" in text
            for value in (factor**depth, 1 + factor**depth, (1 + factor) ** depth):
                assert_rows_shown(text, [[value]], decimals=4)
            assert "erratum" in text
        await pilot.press("shift+tab", *["left"] * 60)  # n = 1: one skip and every layer agree
        text = shown(screen)
        assert "n = 1 layers" in text and "erratum" not in text


def torch_ffn_params(d_model: int, d_ff: int, kind: str) -> int:
    if kind == "relu":
        layers = [torch.nn.Linear(d_model, d_ff), torch.nn.Linear(d_ff, d_model)]
    else:
        layers = [
            torch.nn.Linear(d_model, d_ff, bias=False),
            torch.nn.Linear(d_model, d_ff, bias=False),
            torch.nn.Linear(d_ff, d_model, bias=False),
        ]
    return sum(p.numel() for layer in layers for p in layer.parameters())


async def test_ffn_shapes_and_parameter_counts(demo_app):
    async with demo_app("ffn").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "ffn")
        d_models = [2, 64, 128, 256, 512, 768, 1024, 2048, 4096]
        state = {"kind": "relu", "d": 4, "ratio": 4.0}

        def check() -> None:
            d_model = d_models[state["d"]]
            d_ff = round(state["ratio"] * d_model)
            text = shown(screen)
            assert f"[B, S, {d_ff}]" in text and f"[B, S, {d_model}]" in text
            total = torch_ffn_params(d_model, d_ff, state["kind"])
            assert re.search(rf"total\s+{total:,}\s*$", text, re.M), (total, text)

        check()
        await pilot.press("right")  # SwiGLU
        state["kind"] = "swiglu"
        check()
        await pilot.press("tab", "right")
        state["d"] += 1
        check()
        await pilot.press("left", "left")
        state["d"] -= 2
        check()
        await pilot.press("tab", "left")
        state["ratio"] -= 0.5
        check()
        await pilot.press("shift+tab", "shift+tab", "left")
        state["kind"] = "relu"
        check()


async def test_train_vs_inference_counts_forward_passes(demo_app):
    async with demo_app("train-vs-inference").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "train-vs-inference")
        text = shown(screen)
        assert "forward passes: 1" in text  # training: the chapter's "1 次"
        await pilot.press("right")  # inference
        assert "forward passes: 0" in shown(screen)
        for generated in (1, 2, 3):  # the chapter's "3 次": I, love, AI
            await pilot.press("enter")
            text = shown(screen)
            assert f"forward passes: {generated}" in text
            assert f"positions computed per pass: {', '.join(['1'] * generated)}" in text  # cache on
            assert f"K/V rows computed in all: {generated} " in text
        await pilot.press("tab", "tab", "left")  # KV cache off: each pass recomputes the prefix
        text = shown(screen)
        assert "positions computed per pass: 1, 2, 3" in text and "K/V rows computed in all: 6 " in text
        await pilot.press("shift+tab", "left")
        assert "forward passes: 2" in shown(screen)


async def test_attention_shows_the_packs_illustrative_weights(demo_app):
    import yaml

    from drill.content.loader import default_content_path

    data = yaml.safe_load((default_content_path() / "demos.yaml").read_text(encoding="utf-8"))["attention"]
    tokens, weights = data["tokens"], data["weights"]
    async with demo_app("attention").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "attention")
        i = tokens.index("it")
        text = shown(screen)
        assert "[示意]" in text
        assert_rows_shown(text, [weights[i]], decimals=2)
        assert max(range(len(tokens)), key=weights[i].__getitem__) == tokens.index("animal")
        assert "most weight: animal" in text  # the chapter: on "it", "animal" gets the most weight
        for key in ["right", "enter", "left", "left"]:
            await pilot.press(key)
            i = i + (1 if key in ("right", "enter") else -1)
            assert screen.demo.control("token").index == i
            assert_rows_shown(shown(screen), [weights[i]], decimals=2)
