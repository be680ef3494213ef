"""Symbol tables: LaTeX macro -> Unicode, grouped by how the symbol spaces itself."""

from __future__ import annotations

GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ",
    "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip

# Ordinary symbols (no spacing of their own).
ORDINARY = {
    "infty": "∞", "partial": "∂", "nabla": "∇", "ldots": "…", "dots": "…", "dotsc": "…", "dotsb": "⋯",
    "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "prime": "′", "top": "⊤", "bot": "⊥", "intercal": "ᵀ",
    "dagger": "†", "ddagger": "‡", "star": "⋆", "forall": "∀", "exists": "∃", "nexists": "∄",
    "emptyset": "∅", "varnothing": "∅", "ell": "ℓ", "hbar": "ℏ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
    "angle": "∠", "neg": "¬", "lnot": "¬", "triangle": "△", "checkmark": "✓", "degree": "°",
    "%": "%", "$": "$", "&": "&", "#": "#", "_": "_", "backslash": "∖", "S": "§", "P": "¶",
    "textbackslash": "∖", "surd": "√", "imath": "ı", "jmath": "ȷ", "wp": "℘", "clubsuit": "♣",
    "diamondsuit": "♢", "heartsuit": "♡", "spadesuit": "♠", "flat": "♭", "sharp": "♯", "natural": "♮",
    "square": "□", "blacksquare": "■", "Box": "□", "bullet": "•", "lbrace": "{", "rbrace": "}",
}  # fmt: skip

BINARY = {
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "odot": "⊙", "otimes": "⊗", "oplus": "⊕",
    "ominus": "⊖", "oslash": "⊘", "circ": "∘", "ast": "∗", "setminus": "∖", "cap": "∩", "cup": "∪",
    "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "bullet": "∙", "diamond": "⋄", "star": "⋆",
    "sqcap": "⊓", "sqcup": "⊔", "uplus": "⊎", "amalg": "⨿", "wr": "≀", "bigtriangleup": "△",
    "bigtriangledown": "▽", "cdotp": "·", "bmod": "mod",
}  # fmt: skip

RELATION = {
    "approx": "≈", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "in": "∈",
    "notin": "∉", "ni": "∋", "sim": "∼", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⟺", "implies": "⟹", "impliedby": "⟸",
    "mapsto": "↦", "longrightarrow": "⟶", "longleftarrow": "⟵", "Longrightarrow": "⟹",
    "longmapsto": "⟼", "uparrow": "↑", "downarrow": "↓", "Uparrow": "⇑", "Downarrow": "⇓",
    "hookrightarrow": "↪", "rightleftharpoons": "⇌", "mid": "|", "nmid": "∤", "parallel": "∥",
    "perp": "⟂", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇", "subsetneq": "⊊",
    "ll": "≪", "gg": "≫", "lesssim": "≲", "gtrsim": "≳", "prec": "≺", "succ": "≻", "preceq": "⪯",
    "succeq": "⪰", "doteq": "≐", "models": "⊨", "vdash": "⊢", "dashv": "⊣", "asymp": "≍",
    "triangleq": "≜", "coloneqq": "≔", "coloneq": "≔", "eqqcolon": "≕", "neg": "¬", "lt": "<", "gt": ">",
    "leqslant": "⩽", "geqslant": "⩾", "approxeq": "≊", "nsim": "≁", "ncong": "≇", "nleq": "≰",
    "ngeq": "≱", "sqsubseteq": "⊑", "sqsupseteq": "⊒", "nearrow": "↗", "searrow": "↘",
}  # fmt: skip

# Big operators take their limits as scripts: \sum_{i=1}^{n} -> Σᵢ₌₁ⁿ
BIG_OPERATORS = {
    "sum": "Σ", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮",
    "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂", "bigodot": "⨀", "bigvee": "⋁",
    "bigwedge": "⋀", "bigsqcup": "⨆", "biguplus": "⨄",
}  # fmt: skip

# Named functions: upright, followed by a space before an atom (sin x, log P).
FUNCTIONS = {
    name: name
    for name in (
        "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp max min sup inf "
        "lim liminf limsup arg det dim gcd hom ker deg Pr"
    ).split()
}
FUNCTIONS.update({"argmax": "argmax", "argmin": "argmin", "softmax": "softmax", "sgn": "sgn", "tr": "tr"})

OPEN = {"langle": "⟨", "lfloor": "⌊", "lceil": "⌈", "lvert": "|", "lVert": "‖", "{": "{", "lbrack": "["}
CLOSE = {"rangle": "⟩", "rfloor": "⌋", "rceil": "⌉", "rvert": "|", "rVert": "‖", "}": "}", "rbrack": "]"}
# Delimiters usable after \left, \right, \big…: macro names and characters
DELIMITERS = {
    **OPEN, **CLOSE, "|": "‖", "vert": "|", "Vert": "‖", "backslash": "∖", "uparrow": "↑",
    "downarrow": "↓", "lgroup": "(", "rgroup": ")", "lmoustache": "⎰", "rmoustache": "⎱",
}  # fmt: skip

# Explicit spacing -> number of cells
SPACES = {
    ",": 1, ":": 1, ">": 1, ";": 1, " ": 1, "thinspace": 1, "medspace": 1, "thickspace": 1,
    "enspace": 1, "quad": 2, "qquad": 4, "!": 0, "negthinspace": 0, "hfill": 1, "space": 1,
    "nobreakspace": 1, "\n": 1, "\t": 1,
}  # fmt: skip

# Macros that produce nothing (or only change style) and take no argument.
IGNORED = {
    "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "limits", "nolimits", "nonumber",
    "notag", "mathstrut", "strut", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr",
    "big", "Big", "bigg", "Bigg", "bigm", "Bigm", "middle", "relax", "allowbreak", "centering",
    "left", "right", "protect", "noindent", "par", "newline", "label", "color", "tiny", "small",
    "normalsize", "large", "Large", "LARGE", "huge", "Huge", "bf", "it", "rm", "sf", "tt", "cal", "hline", "vline", "toprule", "midrule", "bottomrule",
}  # fmt: skip

# Macros whose (first) argument is rendered as it is: fonts and styles we cannot show in a terminal.
PASS_THROUGH = {
    "mathrm", "mathit", "mathsf", "mathtt", "mathnormal", "mathbf", "boldsymbol", "bm", "pmb",
    "textbf", "textit", "textsf", "texttt", "emph", "textup", "textsl", "textnormal", "boxed",
    "mathfrak", "mathscr", "displaystyle", "mathop", "mathord", "mathbin", "mathrel", "underline",
    "ensuremath", "textmd", "textsc", "mathring", "hbox", "fbox", "vphantom",
}  # fmt: skip

TEXT_MACROS = {"text", "textrm", "mbox", "textnormal", "textup", "textmd", "hbox", "fbox"}

# Accents -> combining characters (used on a single character; longer bases get name(…)).
ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304",
    "overline": "\u0305", "vec": "\u20d7", "overrightarrow": "\u20d7", "dot": "\u0307", "ddot": "\u0308",
    "check": "\u030c", "breve": "\u0306", "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a",
    "underline": "\u0332", "underbar": "\u0332",
}  # fmt: skip

MATHBB = {
    "C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ", "1": "𝟙",
    **{c: chr(0x1D538 + i) for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if c not in "CHNPQRZ"},
    **{c: chr(0x1D552 + i) for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")},
    **{c: chr(0x1D7D8 + i) for i, c in enumerate("0123456789") if c != "1"},
}  # fmt: skip

MATHCAL = {
    "B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
    **{c: chr(0x1D49C + i) for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if c not in "BEFHILMR"},
}  # fmt: skip

# Unicode superscripts. Capital letters other than T are left out on purpose: ᴬᴮᴰ… exist only for some
# letters, so W_i^Q, W_i^K, W_i^V would come out in two different styles; T stays for transposes (Kᵀ).
SUPERSCRIPTS = {
    **dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True)),
    "+": "⁺", "-": "⁻", "−": "⁻", "=": "⁼", "(": "⁽", ")": "⁾",
    **dict(zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ", strict=True)),
    "T": "ᵀ", "⊤": "ᵀ", "ᵀ": "ᵀ",
    "α": "ᵅ", "β": "ᵝ", "γ": "ᵞ", "δ": "ᵟ", "ε": "ᵋ", "ϵ": "ᵋ", "θ": "ᶿ", "ι": "ᶥ", "φ": "ᵠ", "ϕ": "ᵠ",
    "χ": "ᵡ", "′": "′", "″": "″", "*": "*", "∗": "*", "†": "†", "‡": "‡", "∘": "°",
}  # fmt: skip

SUBSCRIPTS = {
    **dict(zip("0123456789", "₀₁₂₃₄₅₆₇₈₉", strict=True)),
    "+": "₊", "-": "₋", "−": "₋", "=": "₌", "(": "₍", ")": "₎",
    **dict(zip("aehijklmnoprstuvx", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)),
    "β": "ᵦ", "γ": "ᵧ", "ρ": "ᵨ", "φ": "ᵩ", "ϕ": "ᵩ", "χ": "ᵪ",
}  # fmt: skip

SCRIPT_CHARS = frozenset(SUPERSCRIPTS.values()) | frozenset(SUBSCRIPTS.values())

# Environments
MATRIX_DELIMITERS = {
    "matrix": ("", ""), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"),
    "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖"), "smallmatrix": ("", ""), "array": ("", ""),
    "psmallmatrix": ("(", ")"), "bsmallmatrix": ("[", "]"), "subarray": ("", ""),
}  # fmt: skip
ALIGN_ENVIRONMENTS = {"aligned", "align", "align*", "alignat", "alignat*", "alignedat", "split", "eqnarray",
                      "eqnarray*", "flalign", "flalign*"}  # fmt: skip
GATHER_ENVIRONMENTS = {"gathered", "gather", "gather*", "multline", "multline*", "equation", "equation*",
                       "displaymath", "math", "center"}  # fmt: skip
CASES_ENVIRONMENTS = {"cases": ("{", ""), "dcases": ("{", ""), "rcases": ("", "}")}
