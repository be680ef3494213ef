"""The pure-Python catalog matches the traces the engine really builds."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from drill.engine.catalog import EXAMPLE_STEPS
from drill.engine.examples import EXAMPLES, build_example


def test_catalog_lists_every_example():
    assert set(EXAMPLE_STEPS) == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLE_STEPS))
def test_catalog_matches_trace(name):
    trace = build_example(name)
    assert trace.names() == EXAMPLE_STEPS[name]
    assert trace.example == name
    assert trace.section


def test_the_brief_step_names_are_stable():
    assert EXAMPLE_STEPS["worked"][:8] == (
        "x",
        "project_q",
        "project_k",
        "project_v",
        "scores",
        "scale",
        "softmax",
        "weighted_sum",
    )
    for name in (
        "xxt",
        "scaling",
        "softmax",
        "causal",
        "padding",
        "mha",
        "cross",
        "residual",
        "layernorm",
        "ffn",
    ):
        assert name in EXAMPLE_STEPS
    assert {"split_heads", "concat_heads", "output_proj"} <= set(EXAMPLE_STEPS["mha"])
    assert {"mask", "masked"} <= set(EXAMPLE_STEPS["causal"])


def test_catalog_imports_without_numpy():
    code = "import drill.engine.catalog, sys, json; print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "numpy" not in json.loads(out.stdout)
