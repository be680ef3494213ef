"""Snapshots of every built demo at 120×40 (after a move, so a control's new state shows) and of three at
80×24. Regenerate with ``pytest tests/demo/test_demo_snapshots.py --snapshot-update`` and look at the SVGs."""

from __future__ import annotations

import pytest

from drill.tui.app import make_app
from drill.tui.demos import DEMO_CLASSES

from .conftest import opened

MOVES = {
    "qkv-matrix": ("enter", "enter"),
    "attn-handcalc": ("enter", "enter", "enter", "enter"),
    "causal-mask": ("enter",),
    "softmax": ("right", "tab", "left"),
    "scaling": ("right",),
    "weighted-sum": ("right", "tab", "left"),
    "dot-product": ("right", "tab", "right", "right"),
    "mha": ("enter",),
    "cross-attention": ("right",),
    "layernorm": ("enter", "enter", "enter", "tab", "right"),
    "residual": ("right", "tab", "left"),
    "ffn": ("right", "tab", "right"),
    "train-vs-inference": ("right", "enter", "enter"),
    "attention": ("left",),
    "transformer-block": ("right", "tab", "tab", "tab", "right"),
}


def run_before(name):
    async def go(pilot):
        await opened(pilot, name)
        await pilot.press(*MOVES[name])
        await pilot.pause()

    return go


@pytest.mark.parametrize("name", sorted(DEMO_CLASSES))
def test_demo_120x40(snap_compare, name):
    assert snap_compare(make_app("demo", demo=name), terminal_size=(120, 40), run_before=run_before(name))


@pytest.mark.parametrize("name", ["attn-handcalc", "softmax", "causal-mask"])
def test_demo_80x24(snap_compare, name):
    assert snap_compare(make_app("demo", demo=name), terminal_size=(80, 24), run_before=run_before(name))


def test_demo_list_120x40(snap_compare):
    assert snap_compare(make_app("demo"), terminal_size=(120, 40))


def test_every_demo_has_moves():
    assert set(MOVES) == set(DEMO_CLASSES)
