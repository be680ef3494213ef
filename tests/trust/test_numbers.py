"""What a typed number is (issue 11, item 14): drill.engine.parse's one rule for matrices and numeric options.

Deliberately accepted: full-width forms (a Chinese input method's) and U+2212 MINUS SIGN, read as ASCII.
Refused: other scripts' digits, nan/inf, |values| over MAX_ABS_VALUE, text over MAX_MATRIX_CHARS, whole
numbers of more than MAX_DIGITS digits. The oracle for "no step overflows" is numpy's own isfinite over every
step of the trace the engine builds from values at the cap.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.engine.build import build_trace
from drill.engine.parse import (
    MAX_ABS_VALUE,
    MAX_DIGITS,
    MAX_MATRIX_CHARS,
    parse_mask,
    parse_matrix,
    whole_number,
)
from drill.errors import InputError

FULL_WIDTH = str.maketrans("0123456789.,;-+e ", "０１２３４５６７８９．，；－＋ｅ\u3000")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-(10**6), 10**6).map(lambda n: n / 100), min_size=1, max_size=4).map(tuple),
        min_size=1,
        max_size=4,
    ).filter(lambda rows: len({len(r) for r in rows}) == 1)
)
def test_full_width_text_reads_as_its_ascii_twin(rows):
    ascii_text = ";".join(",".join(repr(v) for v in row) for row in rows)
    expected = np.array(rows, dtype=np.float64)
    np.testing.assert_array_equal(parse_matrix(ascii_text, "X"), expected)
    np.testing.assert_array_equal(parse_matrix(ascii_text.translate(FULL_WIDTH), "X"), expected)


def test_minus_sign_u2212_as_drill_prints_it_reads_back():
    np.testing.assert_array_equal(parse_matrix("−1.5, 2; 3, −0.25", "X"), [[-1.5, 2], [3, -0.25]])
    np.testing.assert_array_equal(parse_mask("１，１，０", 3), [True, True, False])


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("١,٢;٣,٤", "'١' (U+0661 ARABIC-INDIC DIGIT ONE) is not an ASCII digit"),
        ("1٠5", "'٠' (U+0660 ARABIC-INDIC DIGIT ZERO)"),  # looks like 1.5; float() would read 105
        ("३", "U+0969 DEVANAGARI DIGIT THREE"),
        ("1_000", "'1_000' is not a number"),
        ("1e308", "magnitude at most 1e+15"),
        ("1e309", "magnitude at most 1e+15"),  # float() makes it inf
        ("-1e16", "magnitude at most 1e+15"),
        pytest.param("9" * 5000, "'99999999999999999999…'", id="5000-digits"),  # not echoed whole
        ("nan", "must be finite"),
        ("Infinity", "must be finite"),
    ],
)
def test_refused_values_name_the_problem(text, fragment):
    with pytest.raises(InputError) as caught:
        parse_matrix(text, "X")
    assert fragment in str(caught.value)
    assert len(str(caught.value)) < 300


def test_a_matrix_over_the_text_cap_is_refused_before_parsing():
    with pytest.raises(InputError, match=f"over the limit of {MAX_MATRIX_CHARS:,} for one matrix"):
        parse_matrix("1," * (MAX_MATRIX_CHARS // 2 + 1), "X")


def test_whole_numbers():
    assert whole_number("３") == 3 and whole_number(" 12 ") == 12 and whole_number("−4") == -4
    assert whole_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    for text, fragment in [
        ("9" * (MAX_DIGITS + 1), f"has {MAX_DIGITS + 1} digits; at most {MAX_DIGITS}"),
        ("9" * 5000, "has 5,000 digits"),
        ("٣", "U+0663 ARABIC-INDIC DIGIT THREE"),
        ("3.0", "'3.0' is not a whole number"),
        ("1_0", "'1_0' is not a whole number"),
    ]:
        with pytest.raises(InputError, match=re.escape(fragment)):
            whole_number(text, "--tokens")


def assert_no_overflow(trace) -> None:
    """No NaN and no +inf anywhere; -inf only where a mask puts it on purpose (mask, masked scores)."""
    for step in trace.steps:
        out = np.asarray(step.output, dtype=np.float64)
        assert not np.isnan(out).any() and not np.isposinf(out).any(), step.name
        if "mask" not in step.name:
            assert np.isfinite(out).all(), step.name


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_at_the_value_cap_no_step_overflows(sign):
    """The largest accepted values through every step at the largest d_model: all finite, no warning."""
    d = 512
    x = ";".join([",".join([repr(sign * MAX_ABS_VALUE)] * d)] * 2)
    w = ";".join([",".join([repr(MAX_ABS_VALUE)] * d)] * d)
    with np.errstate(over="raise", invalid="raise"):  # an overflow would raise FloatingPointError here
        trace = build_trace(x=x, wq=w, wk=w, wv=w, causal=True)
    assert_no_overflow(trace)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.lists(st.sampled_from([MAX_ABS_VALUE, -MAX_ABS_VALUE, 0.0, 1.0, -1e-300]), min_size=36, max_size=36),
)
def test_any_accepted_values_give_finite_steps(s, d, pool):
    x = ";".join(",".join(repr(pool[(i * d + j) % 36]) for j in range(d)) for i in range(s))
    w = ";".join(",".join(repr(pool[(i * d + j + 7) % 36]) for j in range(d)) for i in range(d))
    with np.errstate(over="raise", invalid="raise"):
        trace = build_trace(x=x, wq=w, wk=w, wv=w, wo=w)
    assert_no_overflow(trace)
