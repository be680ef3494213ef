"""Macros: a table from macro name to the handler that turns it into a piece.

Symbols come from the tables in `_symbols` (the first table that knows a name decides: Greek, spaces, binary
operators, relations, ordinary symbols, …); constructions (fractions, roots, accents, labelled arrows,
stacked labels, text) have a handler each. A name nobody knows is shown by name and remembered
(`Renderer.unknown`, `unknown_macros`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from . import _symbols as sym
from ._box import EMPTY, Box, hconcat, pad_box, vstack
from ._layout import finish
from ._parse import arg_tokens, last_arg, node_args, split_tokens
from ._pieces import NEGATED, Piece, Row, graphemes, map_letters, parens, script_text, text_chars

if TYPE_CHECKING:
    from ._render import Renderer

Handler = Callable[["Renderer", object, bool], "Piece | None"]


# ---------------------------------------------------------------------------------------------- constructions


def text_piece(r: Renderer, arg) -> Piece:
    """\\text{…}: text mode, spaces kept; maths inside ($…$) rendered."""
    from pylatexenc import latexwalker as lw

    nodes = arg.nodelist if isinstance(arg, lw.LatexGroupNode) else [arg] if arg is not None else []
    parts: list[Box] = []
    for node in nodes:
        if isinstance(node, lw.LatexCharsNode):
            parts.append(Box.text(text_chars(node.chars)))
        elif isinstance(node, lw.LatexSpecialsNode):
            parts.append(
                Box.text(
                    {"~": " ", "--": "–", "---": "—", "``": "“", "''": "”"}.get(
                        node.specials_chars, node.specials_chars
                    )
                )
            )
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in sym.TEXT_MACROS | sym.PASS_THROUGH:
            parts.append(text_piece(r, last_arg(node)).box)
        elif isinstance(node, lw.LatexGroupNode):
            parts.append(text_piece(r, node).box)
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in ("\\", "newline"):
            parts.append(Box.text(" "))
        elif isinstance(node, lw.LatexCommentNode):
            continue
        else:
            piece = r.node_piece(node, False)
            if piece is not None:
                parts.append(
                    Box.text(" " * piece.gap) if piece.kind == "space" else finish(piece, None, r.oneline)
                )
    box = hconcat(parts) if parts else EMPTY
    text = box.lines[0] if box.is_line else None
    if text is None:
        return Piece("text", box)
    piece = Piece("text", Box.text(re.sub(r"\s+", " ", text).strip()))
    piece.pad_before = text[:1].isspace()
    piece.pad_after = text[-1:].isspace()
    return piece


def fraction(r: Renderer, node, script: bool) -> Piece:
    num, den = r.arg_row(node, 0, script), r.arg_row(node, 1, script)
    parts = [_grouped(r, num), Box.text("/"), _grouped(r, den)]
    return Piece("frac", hconcat(parts))


def _grouped(r: Renderer, row: Row) -> Box:
    if row.atomic:
        return row.box
    return parens(row.box, r.oneline)


def root(r: Renderer, node, script: bool) -> Piece:
    args = node_args(node)
    index = r.block(arg_tokens(args[0]), True).str if len(args) > 1 and args[0] is not None else ""
    body = r.row(arg_tokens(args[-1]), script) if args else Row(EMPTY)
    sign = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index)
    if sign is None:
        sup = script_text(index, sym.SUPERSCRIPTS)
        sign = (sup if sup else f"^({index})") + "√"
    if not body.box.str.strip():
        return Piece("ord", Box.text(sign))
    text = body.box.str if body.box.is_line else ""
    if body.atomic and "_" not in text and "^" not in text:
        inner = body.box  # √2, √d, √dₖ
    else:  # √(d_model): the radical covers the subscript too, which "√d_(model)" does not say
        if body.box.is_line:
            body = Row(Box.text(re.sub(r"_\((\w+)\)", r"_\1", text)))
        inner = parens(body.box, r.oneline)
    return Piece("ord", hconcat([Box.text(sign), inner]), group_scripts=True)


def accent(name: str, box: Box) -> Box:
    text = box.str if box.is_line else None
    if text is None:
        return box
    if name == "cancel":
        return Box.text("".join(ch + "\u0336" for ch in text))
    mark = sym.ACCENTS[name]
    if graphemes(text) == 1:  # precomposed where Unicode has it (ỹ, x̄ stays combining)
        return Box.text(unicodedata.normalize("NFC", text + mark))
    if name in ("overline", "bar"):  # a bar over several characters is a mean here: mean(PE²), not P̅E̅²̅
        return Box.text(f"mean({text})")
    if name in ("underline", "underbar") and text.isalnum():
        return Box.text(unicodedata.normalize("NFC", "".join(ch + mark for ch in text)))
    return Box.text(f"{name}({text})")


def labelled_arrow(r: Renderer, node, script: bool) -> Piece:
    args = node_args(node)
    below = r.block(arg_tokens(args[0]), script) if args and args[0] is not None else EMPTY
    above = r.block(arg_tokens(args[-1]), script) if args else EMPTY
    name = node.macroname
    head = {
        "xrightarrow": "→",
        "xlongrightarrow": "→",
        "xleftarrow": "←",
        "xRightarrow": "⇒",
        "xLeftarrow": "⇐",
        "xmapsto": "→",
        "xleftrightarrow": "↔",
        "xLeftrightarrow": "⇔",
    }[name]
    shaft = "═" if head in "⇒⇐⇔" else "─"
    left_head = head in "←⇐"
    if r.oneline or script or not (above.is_line and below.is_line):
        label = above.str + (f"/{below.str}" if below.str else "")
        text = (head + label + shaft) if left_head else (shaft + label + head)
        if head in "↔⇔":
            text = ("←" if head == "↔" else "⇐") + label + ("→" if head == "↔" else "⇒")
        if name == "xmapsto":
            text = "↦" + label + "→"
        return Piece("rel", Box.text(text if label else head))
    width = max(above.width, below.width) + 2
    if head in "↔⇔":
        arrow = ("←" if head == "↔" else "⇐") + shaft * (width - 2) + ("→" if head == "↔" else "⇒")
    elif left_head:
        arrow = head + shaft * (width - 1)
    else:
        arrow = ("├" if name == "xmapsto" else shaft) + shaft * (width - 2) + head
    rows = [pad_box(above, width, "c"), Box.text(arrow)]
    if below.str:
        rows.append(pad_box(below, width, "c"))
    if not above.str:
        rows = rows[1:]
    return Piece("rel", vstack(rows, "c", baseline=1 if above.str else 0))


def stacked(r: Renderer, node, script: bool) -> Piece:
    name = node.macroname
    label_row, base_row = r.arg_row(node, 0, True), r.arg_row(node, 1, script)
    real = [p for p in base_row.pieces if p.kind != "space"]
    kind = real[0].kind if len(real) == 1 and real[0].kind in ("rel", "op", "bigop") else "ord"
    if r.oneline or script or not base_row.box.is_line:
        piece = Piece(kind, base_row.box)
        if name == "underset":
            piece.sub = label_row.box
        else:
            piece.sup = label_row.box
        return piece
    width = max(label_row.box.width, base_row.box.width)
    label, base = pad_box(label_row.box, width, "c"), pad_box(base_row.box, width, "c")
    if name == "underset":
        return Piece(kind, vstack([base, label], "c", baseline=0))
    return Piece(kind, vstack([label, base], "c", baseline=label.height))


# ---------------------------------------------------------------------------------------------- handlers


def _symbol(kind: str, table: dict[str, str]) -> Handler:
    def handler(r: Renderer, node, script: bool) -> Piece:
        return Piece(kind, Box.text(table[node.macroname]))

    return handler


def _space(r: Renderer, node, script: bool) -> Piece:
    return Piece("space", EMPTY, gap=sym.SPACES[node.macroname])


def _ordinary(r: Renderer, node, script: bool) -> Piece:
    text = sym.ORDINARY[node.macroname]
    if text in "…⋯⋮⋱":  # "inner" atoms: a space from their neighbours (a ⋯ b, but x₁, …, xₜ)
        return Piece("ord", Box.text(text), pad_before=True, pad_after=True)
    return Piece("ord", Box.text(text))


def _fixed(kind: str, text: str) -> Handler:
    return lambda r, node, script: Piece(kind, Box.text(text))


def _argument(kind: str) -> Handler:
    """The macro's (last) argument as it is, as a piece of ``kind`` (\\mathbin{…}, \\textcolor{c}{…})."""
    return lambda r, node, script: Piece(kind, r.arg(node, -1, script))


def _binom(r: Renderer, node, script: bool) -> Piece:
    top, bottom = r.arg(node, 0, script), r.arg(node, 1, script)
    return Piece("ord", hconcat([Box.text("C("), top, Box.text(", "), bottom, Box.text(")")]))


def _text(r: Renderer, node, script: bool) -> Piece:
    return text_piece(r, last_arg(node))


def _operatorname(r: Renderer, node, script: bool) -> Piece:
    return Piece("func", Box.text(r.arg(node, -1, True).str))


def _letters(table: dict[str, str]) -> Handler:
    return lambda r, node, script: Piece("ord", Box.text(map_letters(r.arg(node, -1, script).str, table)))


def _accent(r: Renderer, node, script: bool) -> Piece:
    return Piece("ord", accent(node.macroname, r.arg(node, -1, script)))


def _phantom(r: Renderer, node, script: bool) -> Piece:
    return Piece("ord", Box.text(" " * r.arg(node, -1, script).width))


def _not(r: Renderer, node, script: bool) -> Piece:
    inner = r.arg(node, -1, script).str
    return Piece("rel", Box.text(NEGATED.get(inner, inner + "\u0338" if inner else "/")))


def _brace(r: Renderer, node, script: bool) -> Piece:
    return Piece("ord", r.arg(node, -1, script), brace=node.macroname[:-5])


def _substack(r: Renderer, node, script: bool) -> Piece:
    rows = [r.block(part, True) for part in split_tokens(arg_tokens(last_arg(node)), "nl")]
    return Piece("ord", Box.text(",".join(row.str for row in rows if row.str)))


def _mod(r: Renderer, node, script: bool) -> Piece:
    mod = hconcat([Box.text("mod "), r.arg(node, -1, script)])
    if node.macroname == "pmod":
        return Piece("ord", hconcat([Box.text("("), mod, Box.text(")")]), pad_before=True)
    return Piece("ord", mod, pad_before=True)


def _tag(r: Renderer, node, script: bool) -> Piece:
    return Piece("ord", hconcat([Box.text("    ("), r.arg(node, -1, script), Box.text(")")]))


def _cancel(r: Renderer, node, script: bool) -> Piece:
    return Piece("ord", accent("cancel", r.arg(node, -1, script)))


def _ignored(r: Renderer, node, script: bool) -> Piece | None:
    return Piece("space", EMPTY, gap=1) if node.macroname == "hspace" else None


def _text_script(r: Renderer, node, script: bool) -> Piece:
    piece = Piece("ord", EMPTY)
    setattr(piece, "sup" if node.macroname == "textsuperscript" else "sub", r.arg(node, -1, True))
    return piece


def unknown(r: Renderer, node, script: bool) -> Piece:
    """Show the name so nothing is lost, and remember it for the tests. pylatexenc may know its arguments
    (\\ref{…}): they follow in parentheses, like a function's."""
    name = node.macroname
    r.unknown.add(name)
    args = [r.block(arg_tokens(a), script) for a in node_args(node) if a is not None]
    if args:
        parts = [Box.text(name + "(")]
        for k, box in enumerate(args):
            parts += [Box.text(", ")] if k else []
            parts.append(box)
        return Piece("ord", hconcat([*parts, Box.text(")")]))
    if not name.isalpha():
        return Piece("ord", Box.text(name))
    return Piece("func", Box.text(name))


# ---------------------------------------------------------------------------------------------- the table

_ARROWS = (
    "xrightarrow",
    "xleftarrow",
    "xRightarrow",
    "xLeftarrow",
    "xmapsto",
    "xleftrightarrow",
    "xLeftrightarrow",
    "xlongrightarrow",
)

# In order of precedence: a name in several symbol tables (\\bullet, \\star) takes the first one's kind.
_ENTRIES: list[tuple[Iterable[str], Handler]] = [
    (sym.GREEK, _symbol("ord", sym.GREEK)),
    (sym.SPACES, _space),
    (sym.BINARY, _symbol("op", sym.BINARY)),
    (sym.RELATION, _symbol("rel", sym.RELATION)),
    (sym.ORDINARY, _ordinary),
    (sym.OPEN, _symbol("open", sym.OPEN)),
    (sym.CLOSE, _symbol("close", sym.CLOSE)),
    (("|", "Vert"), _fixed("ord", "‖")),
    (("vert",), _fixed("ord", "|")),
    (sym.BIG_OPERATORS, _symbol("bigop", sym.BIG_OPERATORS)),
    (sym.FUNCTIONS, _symbol("func", sym.FUNCTIONS)),
    (("frac", "dfrac", "tfrac", "cfrac"), fraction),
    (("binom", "dbinom", "tbinom"), _binom),
    (("sqrt",), root),
    (sym.TEXT_MACROS, _text),
    (("operatorname",), _operatorname),
    (("mathop",), _argument("func")),
    (("mathbb",), _letters(sym.MATHBB)),
    (("mathcal", "mathscr"), _letters(sym.MATHCAL)),
    (sym.ACCENTS, _accent),
    (sym.PASS_THROUGH, _argument("ord")),
    (("mathbin",), _argument("op")),
    (("mathrel",), _argument("rel")),
    (("textcolor", "colorbox"), _argument("ord")),
    (("phantom", "hphantom"), _phantom),
    (("not",), _not),
    (_ARROWS, labelled_arrow),
    (("overset", "underset", "stackrel"), stacked),
    (("underbrace", "overbrace"), _brace),
    (("substack",), _substack),
    (("pmod", "mod"), _mod),
    (("tag",), _tag),
    (("cancel",), _cancel),
    ((*sym.IGNORED, "hspace", "vspace", "label", "color"), _ignored),
    (("textsuperscript", "textsubscript"), _text_script),
]

MACROS: dict[str, Handler] = {}
for _names, _handler in _ENTRIES:
    for _name in _names:
        MACROS.setdefault(_name, _handler)
