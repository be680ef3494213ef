"""LaTeX -> terminal text: exact renderings, the whole chapter and content, Markdown handling, robustness."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content.latex import render_latex, render_text, split_math, unknown_macros
from drill.content.latex._render import Renderer

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
CHAPTER = DATA / "transformer-chapter-7.md"  # the course chapter, shipped in the pack
COMMAND = re.compile(r"\\[A-Za-z]+")


def block(*lines: str) -> str:
    return "\n".join(lines)


# -------------------------------------------------------------------------------------- exact renderings

EXACT = [
    # scripts: Unicode only when every character has a form; words and the rest stay full size
    (r"x^2", "x²"),
    (r"d_k", "dₖ"),
    (r"d_{model}", "d_(model)"),
    (r"S_{ij} = S_{ji}", "Sᵢⱼ = Sⱼᵢ"),
    (r"h_{t-1}", "hₜ₋₁"),
    (r"W_i^Q, W_i^K, W_i^V", "Wᵢ^Q, Wᵢ^K, Wᵢ^V"),
    (r"W_Q W_K^\top", "W_Q W_Kᵀ"),
    (r"Q_{dec} K_{enc}^\top", "Q_(dec) K_(enc)ᵀ"),
    (r"V_{love}", "V_(love)"),
    (r"e^{S_{ij}}", "e^(Sᵢⱼ)"),
    (r"e^{-100}", "e⁻¹⁰⁰"),
    (r"e^{[0,\ 0.707]}", "e^[0, 0.707]"),
    (r"W_Q^{(i)}", "W_Q⁽ⁱ⁾"),
    (r"W_Q^{ab}", "W_Qᵃᵇ"),
    (r"W_Q^{S \times S}", "W_(Q)^(S×S)"),
    (r"W_{Q}{K}", "W_(Q)K"),
    (r"d_{model}^{-0.5}", "d_(model)^(−0.5)"),
    (r"S'", "S′"),
    # fractions and roots
    (r"\frac{1}{2}", "1/2"),
    (r"\frac12", "1/2"),
    (r"\frac{QK^\top}{\sqrt{d_k}}", "QKᵀ/√dₖ"),
    (r"\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}}", "(x − μ)/√(σ² + ε)"),
    (r"\dfrac{a+b}{c}", "(a + b)/c"),
    (r"\tfrac{1}{\sqrt{d_{model}}}", "1/√(d_model)"),
    # issue 12 §3: a bar over several characters is a mean; a compound denominator after a slash is
    # parenthesised with no stray space; a radical over a subscripted symbol says what it covers and is a
    # product with what precedes it; a primed subscript is written like the others on the line
    (r"\overline{PE^2}", "mean(PE²)"),
    (r"\bar{x}", "x̄"),
    (r"e^{s_{ij}} / \sum_{j'} e^{s_{ij'}}", "e^(sᵢⱼ)/(Σⱼ′ e^(sᵢⱼ′))"),
    (r"E \sqrt{d_{model}}", "E·√(d_model)"),
    (r"E \sqrt{d_{model}} + PE", "E·√(d_model) + PE"),
    (r"QK^\top / \sqrt{d_k}", "QKᵀ/√dₖ"),
    (r"\frac{e}{2e+e^{2}} = \frac{1}{2+e}", "e/(2e + e²) = 1/(2 + e)"),
    (r"-\frac{1}{S}\sum_{t=1}^{S} \log P_\theta(x_t \mid x_{<t})", "−(1/S) Σₜ₌₁^S log P_θ(xₜ | x_(<t))"),
    (r"\frac{\partial y}{\partial x} = 1 + \frac{\partial F}{\partial x}", "∂y/∂x = 1 + ∂F/∂x"),
    (r"\sqrt{2}", "√2"),
    (r"\sqrt[3]{x}", "∛x"),
    (r"\sqrt[n]{x+1}", "ⁿ√(x + 1)"),
    (r"\sqrt{x}^2 + \sqrt{d_k}", "(√x)² + √dₖ"),
    # the chapter's formulas
    (
        r"\text{LN}(x) = \gamma \cdot \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta",
        "LN(x) = γ · (x − μ)/√(σ² + ε) + β",
    ),
    (
        r"\text{Attention}(Q,K,V) = \text{Softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V",
        "Attention(Q, K, V) = Softmax(QKᵀ/√dₖ)V",
    ),
    (
        r"\text{lr} = d_{model}^{-0.5} \cdot \min\left(\text{step}^{-0.5},\ \text{step} \cdot "
        r"\text{warmup\_steps}^{-1.5}\right)",
        "lr = d_(model)^(−0.5) · min(step^(−0.5), step · warmup_steps^(−1.5))",
    ),
    (
        r"PE_{(pos,2i)} = \sin\left(\frac{pos}{10000^{2i/d}}\right), \qquad "
        r"PE_{(pos,2i+1)} = \cos\left(\frac{pos}{10000^{2i/d}}\right)",
        "PE_(pos,2i) = sin(pos/10000^(2i/d)),    PE_(pos,2i+1) = cos(pos/10000^(2i/d))",
    ),
    (r"\theta_i = 10000^{-2i/d}", "θᵢ = 10000^(−2i/d)"),  # RoPE frequencies
    (r"A = \mathrm{softmax}(S,\ \mathrm{dim}=-1)", "A = softmax(S, dim = −1)"),
    (
        r"S_{ij} = q_i \cdot k_j = \sum_{t=1}^{d_k} q_{i,t}\, k_{j,t}",
        "Sᵢⱼ = qᵢ · kⱼ = Σₜ₌₁^(dₖ) q_(i,t) k_(j,t)",
    ),
    (r"A_{ij} = \frac{e^{S_{ij}}}{\sum_{j'} e^{S_{ij'}}}", "Aᵢⱼ = e^(Sᵢⱼ)/(Σⱼ′ e^(Sᵢⱼ′))"),
    (
        r"\text{head}_i = \text{Attention}\left(QW_i^Q,\; KW_i^K,\; VW_i^V\right)",
        "headᵢ = Attention(QWᵢ^Q, KWᵢ^K, VWᵢ^V)",
    ),
    (
        r"\text{MHA}(X) = \text{Concat}(\text{head}_1, \ldots, \text{head}_h)\,W_O",
        "MHA(X) = Concat(head₁, …, headₕ) W_O",
    ),
    (r"\text{score}(q, k) = v^\top \tanh(W_q q + W_k k)", "score(q, k) = vᵀ tanh(W_q q + Wₖ k)"),
    (r"O(S^2 d) \text{ 时间}, \qquad O(S^2) \text{ 空间}", "O(S² d) 时间,    O(S²) 空间"),
    (r"M \in \mathbb R^{S \times S}", "M ∈ ℝ^(S×S)"),
    (r"\mathcal L", "ℒ"),
    (r"\mathbb{E}[x]", "𝔼[x]"),
    (r"\hat x \approx [-1.34,\ 0.45]", "x̂ ≈ [−1.34, 0.45]"),
    (r"\tilde{y} \ne \bar{y}", "ỹ ≠ ȳ"),
    (r"\text{SiLU}(xW_1)\odot(xW_3)", "SiLU(xW₁) ⊙ (xW₃)"),
    (r"a \otimes b \oplus c \times d", "a ⊗ b ⊕ c × d"),
    (r"\{ x \mid \|x\| \le 1 \}", "{x | ‖x‖ ≤ 1}"),
    (r"\lVert x \rVert_2 \geq 0", "‖x‖₂ ≥ 0"),
    (r"x \to \infty, \quad n \cdots m \dots", "x → ∞,  n ⋯ m …"),
    (r"\max(0,x)", "max(0, x)"),
    (r"\operatorname{softmax}(x)_i", "softmax(x)ᵢ"),
    (r"\operatorname{GELU} x", "GELU x"),
    (r"\left[ \frac{a}{b} \right]", "[a/b]"),
    (r"\times W_Q", "×W_Q"),
    (r"\begin{pmatrix}1&0\\0&1\end{pmatrix}", "⎛1  0⎞\n⎝0  1⎠"),
    (r"\begin{pmatrix}1&2&3\end{pmatrix}", "(1  2  3)"),
    (r"\sum_{i=1}^{n} x_i", "Σᵢ₌₁ⁿ xᵢ"),
    (r"\prod_i p_i", "∏ᵢ pᵢ"),
    (r"\sin a \cos b", "sin a cos b"),
    (r"\softmaxx(z)", "softmaxx(z)"),  # unknown macro: its name, no backslash
    # source spacing: kept after scripts and numbers, dropped after a plain letter; none around /
    (r"\frac{Q K^\top}{\sqrt{d_k}}", "QKᵀ/√dₖ"),
    (r"S = X W W^\top X^\top", "S = XWWᵀXᵀ"),
    (r"\sum_{j=1}^{S} A_{ij} V_j", "Σⱼ₌₁^S Aᵢⱼ Vⱼ"),
    (r"0.05 V_I + 0.90 V_{love}", "0.05 V_I + 0.90 V_(love)"),
    (r"\mathrm{softmax}(QK^\top / \sqrt{d_k} + M) V", "softmax(QKᵀ/√dₖ + M) V"),
    (r"M_j = 0 \text{ if } m_j = 1 \text{ else } -\infty", "Mⱼ = 0 if mⱼ = 1 else −∞"),
    (r"\max |o^{a} - o^{b}|", "max |oᵃ − oᵇ|"),
    (r"x_{t+1} \sim P_\theta(\cdot \mid x_1, \ldots, x_t)", "xₜ₊₁ ∼ P_θ(· | x₁, …, xₜ)"),
    (r"a \bmod b = c \pmod{n}", "a mod b = c (mod n)"),
]


@pytest.mark.parametrize(("src", "expected"), EXACT, ids=[s for s, _ in EXACT])
def test_exact_rendering(src, expected):
    assert render_latex(src) == expected


def test_matrix_product_is_a_row_of_aligned_blocks():
    src = (
        r"Q = XW_Q = \begin{pmatrix}1&0\\0&1\\1&1\end{pmatrix}\begin{pmatrix}1&0\\1&1\end{pmatrix}"
        r" = \begin{pmatrix}1&0\\1&1\\2&1\end{pmatrix}"
    )
    assert render_latex(src) == block(
        "           ⎛1  0⎞          ⎛1  0⎞",
        "Q = XW_Q = ⎜0  1⎟ ⎛1  0⎞ = ⎜1  1⎟",
        "           ⎝1  1⎠ ⎝1  1⎠   ⎝2  1⎠",
    )


def test_numeric_matrix_columns_are_right_aligned():
    src = r"S' = \begin{pmatrix}0&-\infty&-\infty\\0.707&0.707&-\infty\\0.707&1.414&2.121\end{pmatrix}"
    assert render_latex(src) == block(
        "     ⎛    0     −∞     −∞⎞",
        "S′ = ⎜0.707  0.707     −∞⎟",
        "     ⎝0.707  1.414  2.121⎠",
    )


def test_columns_align_by_terminal_width_with_cjk_text():
    assert render_latex(r"\begin{pmatrix}\text{中文}&1\\a&22\end{pmatrix}") == "⎛中文   1⎞\n⎝ a    22⎠"
    assert render_latex(r"\begin{array}{lr}\text{长文本}&1\\a&22\end{array}") == "长文本   1\na       22"


def test_bracket_and_bar_matrices():
    assert render_latex(r"\begin{bmatrix}a&b\\c&d\end{bmatrix}") == "⎡a  b⎤\n⎣c  d⎦"
    assert render_latex(r"\det\begin{vmatrix}a&b\\c&d\end{vmatrix}") == "det |a  b|\n    |c  d|"
    assert render_latex(r"\det\begin{vmatrix}a&b\end{vmatrix}") == "det|a  b|"
    assert render_latex(r"\begin{matrix}1&22\\333&4\end{matrix}") == "  1  22\n333   4"


def test_column_vectors_in_a_sum():
    src = r"\text{output}_1 = 0.198 \cdot \begin{pmatrix}1\\0\end{pmatrix} + 0.401 \cdot \begin{pmatrix}0\\1\end{pmatrix}"
    assert render_latex(src) == block(
        "output₁ = 0.198 · ⎛1⎞ + 0.401 · ⎛0⎞",
        "                  ⎝0⎠           ⎝1⎠",
    )


def test_transposed_matrix_puts_the_script_top_right():
    assert render_latex(r"\begin{pmatrix}1&0\\0&1\end{pmatrix}^\top") == "⎛1  0⎞ᵀ\n⎝0  1⎠"


def test_xrightarrow_chain_from_7_12():
    src = (
        r"X \xrightarrow{\times W_Q, W_K, W_V} Q,K,V \xrightarrow{QK^\top} S \xrightarrow{\div\sqrt{d_k}} "
        r"\text{scaled} \xrightarrow{\text{softmax}} A \xrightarrow{\times V} O"
    )
    assert render_latex(src) == block(
        "   ×W_Q, W_K, W_V           QKᵀ     ÷√dₖ          softmax     ×V",
        "X ───────────────→ Q, K, V ────→ S ─────→ scaled ────────→ A ───→ O",
    )
    assert (
        render_latex(src, oneline=True)
        == "X ─×W_Q, W_K, W_V→ Q, K, V ─QKᵀ→ S ─÷√dₖ→ scaled ─softmax→ A ─×V→ O"
    )


def test_cases_get_a_tall_brace_and_text_beside_its_middle():
    src = (
        r"M_{ij} = \begin{cases} 0, & j \le i \\ -\infty, & j > i \end{cases}, \qquad "
        r"\text{Attention} = \text{Softmax}\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V"
    )
    assert render_latex(src) == block(
        "      ⎧ 0,   j ≤ i",
        "Mᵢⱼ = ⎨           ,    Attention = Softmax(QKᵀ/√dₖ + M)V",
        "      ⎩ −∞,  j > i",
    )
    assert render_latex(r"\begin{cases} 0, & j \le i \\ -\infty, & j > i \end{cases}", oneline=True) == (
        "{0, j ≤ i; −∞, j > i}"
    )


def test_aligned_rows_line_up_on_the_ampersand():
    src = block(
        r"\begin{aligned}",
        r"A_{13} &= \frac{e}{2e+1} \approx 0.422 \\",
        r"A_{31} &= \frac{e}{2e+e^{2}} = \frac{1}{2+e} \approx 0.212",
        r"\end{aligned}",
    )
    assert render_latex(src) == block(
        "A₁₃ = e/(2e + 1) ≈ 0.422",
        "A₃₁ = e/(2e + e²) = 1/(2 + e) ≈ 0.212",
    )
    assert render_latex(r"x &= 1 \\ yy &= 22 \\ z &\le 333") == " x = 1\nyy = 22\n z ≤ 333"
    assert (
        render_latex(src, oneline=True) == "A₁₃ = e/(2e + 1) ≈ 0.422; A₃₁ = e/(2e + e²) = 1/(2 + e) ≈ 0.212"
    )


def test_underbrace_draws_its_label():
    assert render_latex(r"\underbrace{a+b+c}_{3\ \text{terms}}") == block(
        "a + b + c", "└───┬───┘", " 3 terms"
    )
    assert render_latex(r"\underbrace{a+b}_{n}", oneline=True) == "a + b (n)"


def test_tall_left_right_delimiters_wrap_a_matrix():
    src = r"\left[ \begin{matrix}1\\2\\3\end{matrix} \right]"
    assert render_latex(src) == "⎡1⎤\n⎢2⎥\n⎣3⎦"


def test_oneline_matrices():
    src = r"W_Q = \begin{pmatrix}1&0\\1&1\end{pmatrix}"
    assert render_latex(src, oneline=True) == "W_Q = (1, 0; 1, 1)"


def test_control_characters_never_reach_the_terminal():
    out = render_latex("x\x1b[2J + \\text{a\x1b]0;t\x07b}\x9b")
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in out)
    assert out.startswith("x")


def test_unknown_macros_are_named_and_reported():
    assert render_latex(r"\foo x + \bar{y}") == "foo x + ȳ"
    assert unknown_macros(r"\foo x + \bar{y} + \begin{weird}z\end{weird}") == {"foo", "begin{weird}"}
    assert unknown_macros(r"\frac{a}{b} \cdot \mathbb R") == set()
    # arguments pylatexenc parsed for a macro we do not know are kept, like a function's
    assert render_latex(r"\ref{eq1} + x") == "ref(eq1) + x"
    assert unknown_macros(r"\ref{eq1}") == {"ref"}


# -------------------------------------------------------------------------------------- every formula


def _formulas_in(markdown: str) -> list[str]:
    """$$…$$ and $…$ formulas of a Markdown text, code blocks and code spans skipped (independent regexes)."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    found = [m.strip() for m in re.findall(r"\$\$(.*?)\$\$", text, flags=re.S)]
    text = re.sub(r"\$\$(.*?)\$\$", "", text, flags=re.S)
    found += [m.strip() for m in re.findall(r"(?<![\\$])\$(?=\S)(.+?)(?<=\S)(?<!\\)\$(?!\d)", text)]
    return [f for f in dict.fromkeys(found) if f]


def _chapter_formulas() -> list[str]:
    return _formulas_in(CHAPTER.read_text(encoding="utf-8"))


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value)


def _content_formulas() -> list[str]:
    found: list[str] = []
    for path in sorted(DATA.glob("*.yaml")) if DATA.is_dir() else []:
        for text in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            found += _formulas_in(text)
    return list(dict.fromkeys(found))


def _check_rendering(src: str) -> None:
    out = render_latex(src)
    assert out.strip(), f"empty rendering of {src!r}"
    assert not COMMAND.search(out), f"backslash command survives in {out!r}"
    literal_braces = len(re.findall(r"\\[{}]|\\[lr]brace", src))
    assert out.count("{") + out.count("}") <= literal_braces, f"braces leak into {out!r}"
    assert not unknown_macros(src), f"unknown macros in {src!r}"
    one = render_latex(src, oneline=True)
    assert "\n" not in one and one.strip() and not COMMAND.search(one)


CHAPTER_FORMULAS = _chapter_formulas()


def test_the_chapter_has_the_formulas_we_expect():
    assert len(CHAPTER_FORMULAS) > 200  # 63 display + 313 inline occurrences, ~270 distinct
    assert any("pmatrix" in f for f in CHAPTER_FORMULAS) and any("xrightarrow" in f for f in CHAPTER_FORMULAS)


@pytest.mark.parametrize("src", CHAPTER_FORMULAS, ids=[f"ch7-{i}" for i in range(len(CHAPTER_FORMULAS))])
def test_every_chapter_formula_renders_cleanly(src):
    _check_rendering(src)


def test_every_content_formula_renders_cleanly():
    formulas = _content_formulas()
    if not formulas:
        pytest.skip("no formulas in data/*.yaml")
    for src in formulas:
        _check_rendering(src)


def test_every_engine_step_formula_renders_cleanly():
    examples = pytest.importorskip("drill.engine.examples")
    formulas = {s.formula for name in examples.EXAMPLES for s in examples.build_example(name) if s.formula}
    assert formulas
    for src in sorted(formulas):
        _check_rendering(src)


def test_the_whole_chapter_through_render_text_has_no_latex_left():
    text = CHAPTER.read_text(encoding="utf-8")
    out = render_text(text)
    # outside code, no command survives
    prose = re.sub(r"```.*?```", "", out, flags=re.S)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    assert not COMMAND.search(prose)
    # code blocks are byte-for-byte intact
    assert re.findall(r"```.*?```", out, flags=re.S) == re.findall(r"```.*?```", text, flags=re.S)


# -------------------------------------------------------------------------------------- render_text


def test_text_without_formulas_is_untouched():
    text = "普通文字 with \\backslash and `code` and a price of 5 $\n"
    assert render_text(text) == text


def test_inline_and_display_formulas_are_replaced():
    text = block("由 $QK^\\top$ 得到分数：", "", "$$", "\\frac{QK^\\top}{\\sqrt{d_k}}", "$$", "", "完。")
    assert render_text(text) == block("由 QKᵀ 得到分数：", "", "  QKᵀ/√dₖ", "", "完。")


def test_code_blocks_and_spans_are_left_alone():
    text = block(
        "Inline `$\\frac{a}{b}$` stays, $\\frac{a}{b}$ renders, \\$5 and \\$6 stay.",
        "```python",
        "scores = q @ k.T / math.sqrt(d_k)  # $\\sqrt{d_k}$ and \\alpha here stay",
        "```",
        "~~~",
        "$$x^2$$",
        "~~~",
        "``double `$x$` tick``",
    )
    assert render_text(text) == block(
        "Inline `$\\frac{a}{b}$` stays, a/b renders, \\$5 and \\$6 stay.",
        "```python",
        "scores = q @ k.T / math.sqrt(d_k)  # $\\sqrt{d_k}$ and \\alpha here stay",
        "```",
        "~~~",
        "$$x^2$$",
        "~~~",
        "``double `$x$` tick``",
    )


def test_dollar_amounts_are_not_formulas():
    assert render_text("costs $5 and $6 today") == "costs $5 and $6 today"
    assert render_text("between $ a $ b") == "between $ a $ b"


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("It costs $5 and $6 today.", [("text", "It costs $5 and $6 today.")]),
        # the $ of "$6" must not close on the $ inside the code span: nothing in a code span is maths
        (
            "It costs $5 and $6 today; code `$x$` stays",
            [("text", "It costs $5 and $6 today; code `$x$` stays")],
        ),
        (
            "a $x$ and `$y$` and $z$",
            [("text", "a "), ("inline", "x"), ("text", " and `$y$` and "), ("inline", "z")],
        ),
        ("$$ a `$$` b", [("text", "$$ a `$$` b")]),
        ("$$x$$ then `code` $$y$$", [("display", "x"), ("text", " then `code` "), ("display", "y")]),
        ("an unclosed ` tick $x$", [("text", "an unclosed ` tick "), ("inline", "x")]),
    ],
)
def test_one_splitter_for_currency_and_code_spans(text, segments):
    assert split_math(text) == segments
    if all(kind != "display" for kind, _ in segments):  # (display formulas go on lines of their own)
        rendered = "".join(value if kind == "text" else render_latex(value) for kind, value in segments)
        assert render_text(text) == rendered


def test_a_line_with_inline_matrices_becomes_a_row_of_blocks():
    text = "- $W_Q = \\begin{pmatrix}1&0\\\\1&1\\end{pmatrix}$，$W_K = \\begin{pmatrix}0&1\\\\1&0\\end{pmatrix}$\nnext"
    assert render_text(text) == block(
        "- W_Q = ⎛1  0⎞，W_K = ⎛0  1⎞",
        "        ⎝1  1⎠        ⎝1  0⎠",
        "next",
    )


def test_table_rows_and_headings_get_one_line_formulas():
    text = "| $X$ | $\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}$ |\n# $\\begin{pmatrix}1\\\\2\\end{pmatrix}$"
    assert render_text(text) == "| X | (1, 0; 0, 1) |\n# (1; 2)"


def test_display_formula_keeps_the_list_indent_and_multiline_blocks():
    text = block("1. 计算：", "   $$", "   S = \\begin{pmatrix}0&1\\\\1&2\\end{pmatrix}", "   $$", "   然后")
    assert render_text(text) == block(
        "1. 计算：",
        "     S = ⎛0  1⎞",
        "         ⎝1  2⎠",
        "   然后",
    )


def test_display_formula_in_a_block_quote_keeps_the_quote_marks():
    text = block("> quote", "> $$", "> x^2 = \\begin{pmatrix}1\\\\2\\end{pmatrix}", "> $$", "> end")
    assert render_text(text) == block("> quote", ">   x² = ⎛1⎞", ">        ⎝2⎠", "> end")


def test_display_formula_after_a_list_marker_stays_in_the_item():
    text = block("- $$\\begin{pmatrix}1\\\\2\\end{pmatrix}$$", "- next")
    assert render_text(text) == block("-   ⎛1⎞", "    ⎝2⎠", "- next")


def test_display_formula_inside_a_paragraph_gets_its_own_lines():
    assert render_text("so $$a^2$$ then") == block("so", "  a²", "then")


def test_markdown_mode_fences_display_formulas_and_escapes_inline_ones():
    text = block(
        "由 $W_Q = \\begin{pmatrix}1&0\\\\1&1\\end{pmatrix}$ 得：",
        "$$",
        "S = \\begin{pmatrix}0&1\\\\1&2\\end{pmatrix}",
        "$$",
        "完",
    )
    assert render_text(text, markdown=True) == block(
        "由 W\\_Q = (1, 0; 1, 1) 得：",
        "```text",
        "S = ⎛0  1⎞",
        "    ⎝1  2⎠",
        "```",
        "完",
    )


def test_markdown_mode_survives_a_markdown_parser():
    markdown_it = pytest.importorskip("markdown_it")
    inline = r"d_{model} = [x_1, x_2] \times W_i^Q"
    display = r"M = \begin{cases} 0, & j \le i \\ -\infty, & j > i \end{cases}"
    text = block(f"- 设 ${inline}$，则", "  $$", f"  {display}", "  $$", "- 下一条")
    tokens = markdown_it.MarkdownIt("commonmark").parse(render_text(text, markdown=True))
    fences = [t.content.rstrip("\n") for t in tokens if t.type == "fence"]
    assert fences == [render_latex(display)]
    inline_text = "".join(
        child.content
        for t in tokens
        if t.type == "inline"
        for child in t.children or []
        if child.type == "text"
    )
    assert render_latex(inline, oneline=True) in inline_text


def test_trailing_newlines_are_kept():
    assert render_text("$x$\n") == "x\n"
    assert render_text("$$x$$\n\nnext\n") == "  x\n\nnext\n"


# -------------------------------------------------------------------------------------- robustness

TOKENS = [
    "\\frac",
    "\\sqrt",
    "\\text{",
    "\\left(",
    "\\right)",
    "\\left",
    "\\right",
    "\\begin{pmatrix}",
    "\\end{pmatrix}",
    "\\begin{cases}",
    "\\end{cases}",
    "\\begin{aligned}",
    "\\end{aligned}",
    "&",
    "\\\\",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "^",
    "_",
    "'",
    "x",
    "y",
    "Q",
    "1",
    "0.5",
    " ",
    "+",
    "-",
    "=",
    ",",
    "\\alpha",
    "\\top",
    "\\sum",
    "\\xrightarrow",
    "\\underbrace",
    "\\overset",
    "\\not",
    "\\mathbb",
    "\\mathcal",
    "\\hat",
    "\\operatorname",
    "\\foo",
    "\\",
    "$",
    "$$",
    "%",
    "~",
    "#",
    "\\{",
    "\\|",
    "\\,",
    "\\quad",
    "中",
    "\n",
    "\\begin{weird}",
    "\\end{weird}",
    "\\verb",
    "\\cdot",
    "\\sqrt[",
    "\\mathrm",
    "\\begin{array}{cc}",
    "\\end{array}",
    "\\overbrace",
    "\\stackrel",
    "\\binom",
    "\\pmod",
    "\\substack{",
    "\\tag{",
    "\\phantom{",
    "\\big(",
    "\\middle|",
    "\\left.",
    "\\right.",
    "\\xleftarrow[",
    "\\bar",
    "\\verb|",
    "|",
    "\\text{$",
    "\\begin{bmatrix}",
    "\\end{bmatrix}",
    "\\\\[2pt]",
    "''",
    "--",
    "``",
    "\\label{",
    "\\color{red}",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_render_latex_never_raises(tokens):
    src = "".join(tokens)
    # the renderer itself, not render_latex's last-resort fallback, must cope
    out = Renderer().render(src).render()
    assert not COMMAND.search(out)
    one = Renderer(oneline=True).render(src).render()
    assert "\n" not in one and not COMMAND.search(one)
    assert render_latex(src) == out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS + ["$", "$", "`", "```", "\n", "text "]), max_size=30))
def test_render_text_never_raises(tokens):
    assert isinstance(render_text("".join(tokens)), str)


def test_every_macro_in_the_table_is_known_and_renders_without_backslashes():
    from drill.content.latex._macros import MACROS

    assert len(MACROS) > 300
    for name in MACROS:
        src = rf"\{name}{{x}}" if name.isalpha() else rf"\{name} x"
        assert not unknown_macros(src), name
        assert "\\" not in render_latex(src), name
