"""LaTeX -> readable Unicode text for a terminal.

`render_latex(src)` renders one formula (no `$`), `render_text(markdown)` replaces the `$…$` and `$$…$$`
formulas of Markdown text and leaves everything else — code blocks, code spans, `\\$` — as it is.
`unknown_macros(src)` lists the macros the renderer does not know (they are shown by name, never with a
backslash). Built on pylatexenc's parser (imported on first use: ~35 ms on an idle machine); the layout is
our own. Renderings are cached (a formula costs ~1 ms the first time). Control characters in a formula
are dropped, so a rendering never drives the terminal.

Rules, chosen to read well in a monospaced terminal:

* Scripts. A script becomes Unicode super/subscript characters when *every* character has one and it is
  not a word of three or more letters: x², dₖ, Sᵢⱼ, Σₜ₌₁, e⁻¹, Kᵀ (`\\top` -> ᵀ). Otherwise it stays at full
  size behind `_`/`^`: a single character bare (W_Q, W_i^Q -> Wᵢ^Q, P_θ), anything longer in parentheses
  (d_(model), e^(Sᵢⱼ), 10000^(2i/d)). A bare one that would run into a following letter or digit, or
  that sits before a full-size superscript, gets parentheses too (W_(Q)K, W_(Q)^(S×S)). Capital letters are
  never superscripted except T, so W_i^Q, W_i^K, W_i^V all look alike.
* Fractions are linear, a/b, with parentheses around a numerator or denominator that is not a single unit
  ((x − μ)/√(σ² + ε), but 1/2 and QKᵀ/√dₖ), and around the whole fraction when it sits next to another
  factor ((1/S) Σ…). Roots: √x for a unit, √(…) otherwise, ∛ ∜ for indices 3 and 4.
* Spacing: one space around relations and binary operators, after commas and named functions
  (sin a, log P); none around a slash (QKᵀ/√dₖ); `\\,` `\\;` `\\ ` are one space, `\\quad` two, `\\qquad`
  four. A space written between two atoms in the source is kept after an atom with a script or a number
  (W_Q W_K, qᵢ kᵢ, 0.05 V) and dropped after a plain letter, where it is only formatting (Q K^\\top -> QKᵀ).
* `\\text` keeps its words as written; `\\mathrm`, `\\mathbf`, `\\boldsymbol`… show their content plainly
  (terminal fonts have no reliable bold/italic maths letters); `\\mathbb` and `\\mathcal` map to the
  Unicode double-struck and script letters (ℝ, 𝔼, ℒ); `\\operatorname{softmax}` is a named function.
* Accents on one character are combining marks (x̂, x̃, x̄); on longer text they become name(text).
* Sums, products and integrals take their limits as scripts (Σᵢ, Σⱼ₌₁^S, ∏…).
* Several-line layouts: matrices (pmatrix ⎛⎞, bmatrix ⎡⎤, vmatrix |, matrix) are aligned tables (numeric
  columns right-aligned); `cases` gets a tall brace; aligned/align rows line up on `&`; `\\xrightarrow{x}`
  puts its label over a long arrow; `\\underbrace{…}_{x}` draws └─┬─┘ with the label under it. Side by side
  these align on their baselines, so Q = XW_Q = (matrix)(matrix) prints as a row of blocks.
  `oneline=True` gives one-line forms for places that cannot take several rows: (1, 0; 0, 1),
  {0, j ≤ i; −∞, j > i}, ─÷√dₖ→, rows joined by "; ".
* Unknown macros render as their name (`\\foo` -> foo); `unknown_macros` reports them.
* A formula nested deeper than `MAX_NESTING` levels (`too_deep`) is shown as its source without markup; the
  content loader refuses one naming file, line and field. Below that bound the work is linear in the length.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from drill.content import control

from ._box import Box, cell_width
from ._limits import MAX_NESTING, too_deep

__all__ = [
    "MAX_NESTING",
    "cell_width",
    "render_latex",
    "render_latex_box",
    "render_text",
    "split_math",
    "sub_bare_scripts",
    "too_deep",
    "unknown_macros",
]


@lru_cache(maxsize=4096)
def render_latex_box(src: str, oneline: bool = False) -> Box:
    """One formula laid out as a box (lines + baseline row)."""
    from ._render import Renderer

    src = control.replace(src)
    if too_deep(src):  # the loader refuses such content; from anywhere else it is shown without its markup
        return Box.text(_strip_markup(src))
    try:
        return Renderer(oneline=oneline).render(src)
    except RecursionError:  # pragma: no cover - MAX_NESTING keeps the recursion far below the limit
        return Box.text(_strip_markup(src))
    except Exception:  # a renderer bug must not take a study session down (the tests call Renderer directly)
        return Box.text(_strip_markup(src))


def render_latex(src: str, *, oneline: bool = False) -> str:
    """One formula (without `$` delimiters) as Unicode text; several lines for matrices, cases, arrows."""
    return render_latex_box(src, oneline).render()


def render_text(text: str, *, markdown: bool = False, indent: str = "  ") -> str:
    """Markdown with `$…$` and `$$…$$` formulas -> the same text with each formula rendered.

    markdown=False (default): for printing to a terminal as it is (matrices laid out in place).
    markdown=True: the result will go through a Markdown renderer (e.g. Textual's Markdown widget), which
    would reflow a 2-D layout — inline formulas become one escaped line, display formulas ```text blocks.
    """
    text = _bare_scripts_as_math(text)
    if "$" not in text:
        return text
    from ._markdown import render_markdown

    return render_markdown(text, render_latex_box, indent=indent, markdown=markdown)


# A sub- or superscript written outside $…$ (the chapter's ``x_{t+1}`` in plain text, q15; drill's ``e^{−100}/Σ``):
# rendered as the formula it is, never shown as raw braces. The base is a Latin or Greek word (x, softmax, Σ, α),
# also right after Chinese text (权重e^{−100}); a group may hold one level of braces (e^{S_{ij}}). Code spans are
# matched first and kept as they are. The one rule: the screens (render_text) and the Anki export (report.anki)
# both call `sub_bare_scripts`.
_LETTER = "A-Za-z\u0370-\u03ff"
_GROUP = r"\{(?:[^{}$`\n]|\{[^{}$`\n]*\})*\}"
BARE_SCRIPT = re.compile(
    rf"(`+)(?:(?!\1).)+?\1|(?<![\\0-9_{_LETTER}])([{_LETTER}][0-9{_LETTER}]*(?:[\^_]{_GROUP})+)", re.S
)


def sub_bare_scripts(segment: str, formula: Callable[[str], str]) -> str:
    """``segment`` (text outside math) with each bare sub/superscript ``x_{…}`` replaced by ``formula(x_{…})``;
    code spans are left as they are."""
    if "_{" not in segment and "^{" not in segment:
        return segment
    return BARE_SCRIPT.sub(lambda m: m.group(0) if m.group(1) else formula(m.group(2)), segment)


def _bare_scripts_as_math(text: str) -> str:
    if "_{" not in text and "^{" not in text:
        return text
    parts = []
    for kind, segment in split_math(text):
        if kind == "text":
            parts.append(sub_bare_scripts(segment, lambda formula: f"${formula}$"))
        else:
            parts.append(f"${segment}$" if kind == "inline" else f"$${segment}$$")
    return "".join(parts)


def split_math(text: str) -> list[tuple[str, str]]:
    """Markdown -> ("text" | "inline" | "display", string) segments: the one `$…$` / `$$…$$` splitter.

    Code blocks, code spans and `\\$` stay text; so do currency amounts ("$5 and $6": pandoc's rules).
    Used by `render_text` and by the Anki export.
    """
    from ._markdown import split_math as split

    return split(text)


def unknown_macros(src: str) -> set[str]:
    """Names of the macros in `src` the renderer does not know (shown by name in its output)."""
    from ._render import Renderer

    src = control.replace(src)
    if too_deep(src):  # not rendered as LaTeX at all (render_latex_box): no macro is shown by name
        return set()
    renderer = Renderer()
    renderer.render(src)
    return set(renderer.unknown)


def _strip_markup(src: str) -> str:
    return " ".join(re.sub(r"\\+([A-Za-z]*)", r"\1", src).replace("{", "").replace("}", "").split())
