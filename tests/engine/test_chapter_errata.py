"""Where the chapter prints a wrong number: the chapter's value, kept beside the engine's correct one.

Each case names the section, what the chapter printed, and asserts (a) the engine disagrees with the printed
value at the printed precision and (b) the engine's value is the correct one, computed independently here.
data/checks.yaml carries the same cases as `erratum:` entries; the last test keeps the two lists in step.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from drill.engine.examples import build_example
from drill.engine.verify import tolerance

A = math.exp(1 / math.sqrt(2))  # e^(1/√2) ≈ 2.028

ERRATA = [
    # (section, example, step, index, printed, decimals, correct value computed independently)
    (
        "7.9",
        "scaling",
        "max_prob",
        (1,),
        0.445,
        3,
        math.exp(0.75) / sum(math.exp(v) for v in (0.75, 0.5, 0.25)),
    ),
    (
        "7.9",
        "scaling",
        "max_prob",
        (2,),
        0.383,
        3,
        math.exp(0.375) / sum(math.exp(v) for v in (0.375, 0.25, 0.125)),
    ),
    ("7.10", "softmax", "softmax", (1, 2), 0.504, 3, A / (2 + A)),
    ("7.12", "worked", "softmax", (1, 2), 0.504, 3, A / (2 + A)),
    ("7.13", "worked", "softmax", (1, 2), 0.504, 3, A / (2 + A)),
    ("7.12", "softmax", "exp", (2, 2), 8.343, 3, math.exp(3 / math.sqrt(2))),
    ("7.10", "softmax", "overflow_threshold", (0,), 89, 0, math.log(65504.0)),
    (
        "7.16",
        "padding",
        "softmax_unmasked",
        (0, 4),
        0.21,
        2,
        math.exp(4) / sum(math.exp(v) for v in (2, 1, 3, 2, 4, 5)),
    ),
    (
        "7.16",
        "padding",
        "softmax_unmasked",
        (0, 5),
        0.57,
        2,
        math.exp(5) / sum(math.exp(v) for v in (2, 1, 3, 2, 4, 5)),
    ),
    ("7.3", "posenc", "pe_variance", (), 0.333, 1, None),  # computed below from the PE table itself
]


@pytest.mark.parametrize("section,example,step,index,printed,decimals,correct", ERRATA)
def test_chapter_value_beside_the_correction(section, example, step, index, printed, decimals, correct):
    engine = float(np.asarray(build_example(example)[step].output)[index])
    assert abs(engine - printed) > tolerance(decimals), (
        f"{section}: the chapter's {printed} is not wrong after all"
    )
    if correct is not None:
        assert engine == pytest.approx(correct, abs=1e-12)


def test_the_0_504_is_an_intermediate_rounding_artefact():
    # 0.504 is not even what the chapter's own rounded intermediates give: 4.113 / 8.169 = 0.50349 → 0.503.
    assert round(4.113 / 8.169, 3) == 0.503
    # it is what forcing the printed row to sum to 1 gives: 1 - 2 × 0.248
    assert round(1 - 2 * 0.248, 3) == 0.504


def test_pe_variance_is_not_a_third():
    pe = build_example("posenc")
    assert float(pe["pe_mean_square"].output) == pytest.approx(0.5)  # sin² + cos² = 1 per pair
    assert float(pe["pe_variance"].output) == pytest.approx(0.4286, abs=1e-3)


def test_checks_yaml_records_exactly_these_errata(chapter_checks):
    recorded = {
        (c["section"], c["example"], c["step"], tuple(c["index"])) for c in chapter_checks if c.get("erratum")
    }
    expected = {(s, e, st, i) for s, e, st, i, *_ in ERRATA}
    assert recorded == expected


def test_chapter_values_that_are_right_despite_looking_rough():
    # "≈ 100%" for softmax([24, 16, 8]) holds to the printed 2 decimals
    assert float(build_example("scaling")["unscaled_max_prob"].output) == pytest.approx(1.0, abs=0.005)
    # the row sum 14.484 is right even though e^2.121 is printed 8.343
    assert float(build_example("softmax")["row_sum"].output[2]) == pytest.approx(14.484, abs=5e-4)
