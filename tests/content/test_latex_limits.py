"""LaTeX cost is bounded (issue 11, item 11): nesting has a ceiling, and below it rendering is linear.

Work is counted, not timed: the number of Python and C function calls the renderer makes (a profiler hook),
which does not depend on how loaded the machine is. "Linear" is checked as: a formula ten times as long does
at most ~12 times the work of one copy (quadratic work would be ~100 times).
"""

from __future__ import annotations

import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.content.latex import MAX_NESTING, render_latex_box, too_deep, unknown_macros
from drill.content.latex._limits import nesting

render_uncached = render_latex_box.__wrapped__  # lru_cache would answer a repeated formula for free


def calls(fn, *args) -> tuple[int, object]:
    """(function calls made while running fn(*args), its result)."""
    count = 0

    def hook(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(hook)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(None)
    return count, result


def work(src: str) -> int:
    render_uncached("x")  # pylatexenc's macro database is built once per process: not part of any formula
    return calls(render_uncached, src)[0]


def nested(open_: str, close: str, depth: int) -> str:
    return open_ * depth + "x" + close * depth


DEEP = {
    "frac": ("\\frac{", "}{2}"),
    "frac-denominator": ("\\frac{1}{", "}"),
    "braces": ("{", "}"),
    "left-right": ("\\left(", "\\right)"),
    "sqrt": ("\\sqrt{", "}"),
    "subscript": ("x_{", "}"),
    "pmatrix": ("\\begin{pmatrix}", "&1\\\\2&3\\end{pmatrix}"),
}


def test_nesting_counts_groups_left_right_and_environments_only():
    assert nesting("\\frac{a}{b}")[0] == 1
    assert nesting("\\left(\\left[x\\right]\\right)")[0] == 2
    assert nesting("\\begin{pmatrix}1\\\\2\\end{pmatrix}")[0] == 1  # {pmatrix} is the environment's own level
    assert nesting("\\{\\{\\{ a \\leftarrow b \\beginx")[0] == 0  # escaped braces and look-alike macros
    assert nesting("}}}{{")[0] == 2  # stray closers never take the level below zero
    assert too_deep(nested("{", "}", MAX_NESTING)) is None
    problem = too_deep("a\n" + nested("{", "}", MAX_NESTING + 1))
    assert f"nests {MAX_NESTING + 1} levels deep (line 2 of the text)" in problem


def test_a_formula_nested_thousands_deep_renders_as_plain_text_in_linear_work():
    """Before: \\frac 1,000 deep recursed past Python's limit and was retried position by position (minutes)."""
    for open_, close in DEEP.values():
        small, big = nested(open_, close, 200), nested(open_, close, 2000)
        box = render_uncached(big)
        assert box.is_line and "x" in box.str and "\\" not in box.str and "{" not in box.str
        assert work(big) <= 12 * work(small)
        assert unknown_macros(big) == set()


def test_at_the_bound_every_construct_renders_as_laid_out():
    for name, (open_, close) in DEEP.items():
        src = nested(open_, close, MAX_NESTING)
        assert too_deep(src) is None, name
        shown = render_uncached(src).render()
        assert "x" in shown and "frac" not in shown and "left" not in shown, name


# A formula grammar reaching the bound: every construct the renderer lays out, nested up to MAX_NESTING.
ATOMS = st.sampled_from(["x", "Q", "K^\\top", "d_k", "\\alpha", "1", "\\infty", "\\text{ab}", "\\mathbb{R}"])


def _grow(inner: st.SearchStrategy) -> st.SearchStrategy:
    two = st.tuples(inner, inner)
    return st.one_of(
        two.map(lambda p: f"\\frac{{{p[0]}}}{{{p[1]}}}"),
        inner.map(lambda a: f"\\sqrt{{{a}}}"),
        inner.map(lambda a: f"\\left({a}\\right)"),
        two.map(lambda p: f"{p[0]}^{{{p[1]}}}"),
        two.map(lambda p: f"{p[0]}_{{{p[1]}}}"),
        two.map(lambda p: f"\\begin{{pmatrix}}{p[0]} & {p[1]} \\\\ {p[1]} & {p[0]}\\end{{pmatrix}}"),
        two.map(lambda p: f"{p[0]} + {p[1]}"),
        inner.map(lambda a: f"\\underbrace{{{a}}}_{{n}}"),
    )


FORMULAS = st.recursive(ATOMS, _grow, max_leaves=12).filter(lambda s: too_deep(s) is None)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FORMULAS)
def test_rendering_ten_copies_is_about_ten_times_the_work(src):
    one = work(src)
    ten = work(" + ".join([src] * 10))
    assert ten <= 12 * one + 2_000


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=1, max_value=MAX_NESTING))
def test_deepest_accepted_matrices_side_by_side_stay_linear(depth):
    src = nested(*DEEP["pmatrix"], depth)
    assert work(" ".join([src] * 10)) <= 12 * work(src) + 2_000
