"""Walk pylatexenc's node tree and lay a formula out as text boxes.

The source is parsed and flattened into tokens (`_parse`); the renderer here turns tokens into *pieces*
(`_pieces`: an atom with its scripts, an operator, a relation, …) — characters itself, macros through the
table in `_macros`, environments through `_environments` — and `_layout` joins the pieces side by side with
the spacing each kind asks for.
"""

from __future__ import annotations

from . import _symbols as sym
from ._box import EMPTY, Box, hconcat, wrap
from ._environments import align, environment
from ._layout import join
from ._macros import MACROS, unknown
from ._parse import arg_tokens, is_space, macro_name, node_args, parse, tokenize
from ._pieces import BINARY_CHARS, RELATION_CHARS, Piece, Row, no_commands


class Renderer:
    """Renders one formula; remembers the macros it did not know (`unknown`)."""

    def __init__(self, *, oneline: bool = False):
        self.oneline = oneline
        self.unknown: set[str] = set()

    # -- entry points -------------------------------------------------------------------------------

    def render(self, src: str) -> Box:
        return self.block(tokenize(parse(src)))

    def block(self, tokens, script: bool = False) -> Box:
        """A token list that may hold `&` and `\\\\` (top level of a formula or a group)."""
        if any(t[0] in ("nl", "amp") for t in tokens):
            return align(self, tokens, script)
        return self.row(tokens, script).box

    # -- rows ---------------------------------------------------------------------------------------

    def row(self, tokens, script: bool = False, keep_edges: bool = False) -> Row:
        pieces = self.pieces(tokens, script)
        return Row(join(pieces, script, keep_edges, oneline=self.oneline), pieces)

    def pieces(self, tokens, script: bool) -> list[Piece]:
        out: list[Piece] = []
        i, n = 0, len(tokens)
        pending_space = False
        while i < n:
            kind, val = tokens[i]
            if kind in ("amp", "nl"):  # stray alignment marks inside a group: a little space
                out.append(Piece("space", EMPTY, gap=1))
                i += 1
                continue
            if kind == "c":
                ch = val
                if ch.isspace():
                    pending_space = True
                    i += 1
                    continue
                if ch in "^_":
                    i, arg = self._take_arg(tokens, i + 1)
                    self._attach(out, ch, self.block(arg, script=True) if arg else None)
                    continue
                if ch == "'":
                    j = i
                    while j < n and tokens[j] == ("c", "'"):
                        j += 1
                    self._base(out).primes += {1: "′", 2: "″", 3: "‴"}.get(j - i, "′" * (j - i))
                    i = j
                    continue
                piece, i = self._char_piece(tokens, i)
            else:
                node = val
                if macro_name(node) == "left":
                    piece, i = self._left_right(tokens, i, script)
                else:
                    piece = self.node_piece(node, script)
                    i += 1
            if piece is None:
                continue
            piece.space_before = pending_space
            pending_space = False
            out.append(piece)
        return out

    def _take_arg(self, tokens, i):
        """The argument of ^ or _: the next non-space token (a char, a group or a macro with its args)."""
        while i < len(tokens) and is_space(tokens[i]):
            i += 1
        if i >= len(tokens) or tokens[i][0] in ("amp", "nl"):
            return i, []
        tok = tokens[i]
        if tok[0] == "n":
            from pylatexenc.latexwalker import LatexGroupNode

            if isinstance(tok[1], LatexGroupNode):
                return i + 1, tokenize(tok[1].nodelist)
        return i + 1, [tok]

    @staticmethod
    def _base(out: list[Piece]) -> Piece:
        if not out or out[-1].kind == "space":
            out.append(Piece("ord", EMPTY))
        return out[-1]

    def _attach(self, out: list[Piece], which: str, box: Box | None) -> None:
        if box is None:
            return
        base = self._base(out)
        if base.brace and ((which == "_") == (base.brace == "under")):
            base.label = box
            return
        attr = "sub" if which == "_" else "sup"
        old = getattr(base, attr)
        setattr(base, attr, box if old is None else hconcat([old, box]))

    def _char_piece(self, tokens, i) -> tuple[Piece | None, int]:
        ch = tokens[i][1]
        n = len(tokens)
        if ch.isdigit() or (
            ch == "." and i + 1 < n and tokens[i + 1][0] == "c" and tokens[i + 1][1].isdigit()
        ):
            j = i
            while j < n and tokens[j][0] == "c" and (tokens[j][1].isdigit() or tokens[j][1] == "."):
                j += 1
            # a trailing '.' ends a sentence rather than a number
            text = "".join(t[1] for t in tokens[i:j])
            if text.endswith(".") and len(text) > 1:
                j -= 1
                text = text[:-1]
            return Piece("ord", Box.text(text)), j
        if ch == ":" and i + 1 < n and tokens[i + 1] == ("c", "="):
            return Piece("rel", Box.text("≔")), i + 2
        if ch in "{}":  # only unbalanced braces reach here (tolerant parsing): drop them
            return None, i + 1
        if ch == "~":
            return Piece("space", EMPTY, gap=1), i + 1
        return self.char(ch), i + 1

    @staticmethod
    def char(ch: str) -> Piece:
        if ch in BINARY_CHARS:
            return Piece("op", Box.text(BINARY_CHARS[ch]))
        if ch in RELATION_CHARS:
            return Piece("rel", Box.text(ch))
        if ch in "([⟨":
            return Piece("open", Box.text(ch))
        if ch in ")]⟩":
            return Piece("close", Box.text(ch))
        if ch in ",;":
            return Piece("punct", Box.text(ch))
        if not ch.isprintable() and not ch.isspace():  # unassigned, private use… (controls: control.py)
            return Piece("space", EMPTY, gap=0)
        return Piece("ord", Box.text(ch))

    # -- \left … \right -----------------------------------------------------------------------------

    def _left_right(self, tokens, i, script):
        i, left = self._delim_after(tokens, i + 1)
        depth, j = 1, i
        while j < len(tokens):
            m = macro_name(tokens[j][1]) if tokens[j][0] == "n" else None
            if m == "left":
                depth += 1
            elif m == "right":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inner = tokens[i:j]
        right = ""
        if j < len(tokens):
            j, right = self._delim_after(tokens, j + 1)
        box = self.block(inner, script)
        if self.oneline or box.is_line:
            return Piece("delim", hconcat([Box.text(left), box, Box.text(right)])), j
        return Piece("delim", wrap(box, left, right)), j

    def _delim_after(self, tokens, i):
        while i < len(tokens) and is_space(tokens[i]):
            i += 1
        if i >= len(tokens):
            return i, ""
        kind, val = tokens[i]
        if kind == "c":
            return i + 1, "" if val == "." else val
        if kind == "n" and macro_name(val):
            name = macro_name(val)
            return i + 1, sym.DELIMITERS.get(name, sym.ORDINARY.get(name, ""))
        return i, ""

    # -- nodes --------------------------------------------------------------------------------------

    def node_piece(self, node, script: bool) -> Piece | None:
        from pylatexenc import latexwalker as lw

        if isinstance(node, lw.LatexGroupNode):
            box = self.block(tokenize(node.nodelist), script)
            return Piece("ord", box)
        if isinstance(node, lw.LatexMathNode):
            return Piece("ord", self.block(tokenize(node.nodelist), script))
        if isinstance(node, lw.LatexEnvironmentNode):
            return environment(self, node, script)
        if isinstance(node, lw.LatexMacroNode):
            verbatim = getattr(node.nodeargd, "verbatim_text", None)
            if verbatim is not None:  # \verb|…| has no place in maths: show its text, minus backslashes
                return Piece("text", Box.text(no_commands(verbatim)))
            return self.macro(node, script)
        return None

    def arg(self, node, index: int = -1, script: bool = False) -> Box:
        args = node_args(node)
        if not args:
            return EMPTY
        return self.block(arg_tokens(args[index]), script)

    def arg_row(self, node, index: int, script: bool = False) -> Row:
        args = node_args(node)
        if not args:
            return Row(EMPTY)
        return self.row(arg_tokens(args[index]), script)

    def macro(self, node, script: bool) -> Piece | None:
        return MACROS.get(node.macroname, unknown)(self, node, script)


__all__ = ["Renderer"]
