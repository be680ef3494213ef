"""Walk pylatexenc's node tree and lay a formula out as text boxes.

The node tree is flattened into a token stream (single characters and nodes) because `^`, `_`, `'`, `&`
and `\\\\` are plain characters or argument-less macros to pylatexenc; a small parser over the stream turns
tokens into *pieces* (an atom with its scripts, an operator, a relation, …) and a joiner puts the pieces
side by side with the spacing each kind asks for.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from . import _symbols as sym
from ._box import EMPTY, Box, hconcat, pad_box, vstack, wrap

# ---------------------------------------------------------------------------------------------- parsing

_WALKER_CONTEXT = None


def _context():
    """pylatexenc's default macro database plus the maths macros it lacks (argument specs only)."""
    global _WALKER_CONTEXT
    if _WALKER_CONTEXT is None:
        from pylatexenc.latexwalker import get_default_latex_context_db
        from pylatexenc.macrospec import MacroSpec

        db = get_default_latex_context_db()
        specs = {
            "operatorname": "*{", "dfrac": "{{", "tfrac": "{{", "cfrac": "{{", "binom": "{{", "dbinom": "{{",
            "tbinom": "{{", "overset": "{{", "underset": "{{", "stackrel": "{{", "boldsymbol": "{", "bm": "{",
            "pmb": "{", "boxed": "{", "phantom": "{", "vphantom": "{", "tag": "*{", "mathring": "{",
            "xRightarrow": "[{", "xLeftarrow": "[{", "xmapsto": "[{", "xleftrightarrow": "[{",
            "xLeftrightarrow": "[{", "xlongrightarrow": "[{", "mathop": "{", "mathord": "{", "mathbin": "{",
            "mathrel": "{", "substack": "{", "overrightarrow": "{", "underbar": "{", "cancel": "{",
            "widetilde": "{", "widehat": "{", "mathnormal": "{", "ensuremath": "{", "textup": "{",
            "textmd": "{", "textsc": "{", "textnormal": "{", "fbox": "{", "hbox": "{", "vspace": "*{",
            "pmod": "{", "mod": "{", "textsuperscript": "{", "textsubscript": "{", "mathbb": "{", "mathcal": "{", "mathscr": "{", "mathfrak": "{", "sqrt": "[{",
        }  # fmt: skip
        db.add_context_category(
            "drill-math", prepend=True, macros=[MacroSpec(name, argspec) for name, argspec in specs.items()]
        )
        _WALKER_CONTEXT = db
    return _WALKER_CONTEXT


def parse(src: str) -> list:
    """pylatexenc nodes for `src`; never raises (unparsable stretches come back as plain characters)."""
    from pylatexenc.latexwalker import LatexCharsNode, LatexWalker

    walker = LatexWalker(src, latex_context=_context(), tolerant_parsing=True)
    nodes: list = []
    pos = 0
    while pos < len(src):
        try:
            found, npos, nlen = walker.get_latex_nodes(pos=pos)
        except Exception:  # pylatexenc can still trip on pathological input: degrade to characters
            found, npos, nlen = [], pos, 0
        nodes.extend(found)
        end = npos + nlen
        if end <= pos:  # stuck on a stray '}' or a broken macro: take it as plain characters
            stuck = re.match(r"\\([A-Za-z]*)|.", src[pos:], re.S)
            chars = stuck.group(1) if stuck.group(1) is not None else stuck.group(0)
            nodes.append(
                LatexCharsNode(parsing_state=walker.make_parsing_state(), chars=chars, pos=pos, len=1)
            )
            end = pos + max(stuck.end(), 1)
        pos = end
    return nodes


# ---------------------------------------------------------------------------------------------- tokens

# A token is ("c", char) | ("n", node) | ("amp", None) | ("nl", None)


def tokenize(nodes) -> list[tuple[str, object]]:
    from pylatexenc import latexwalker as lw

    tokens: list[tuple[str, object]] = []
    for node in nodes or ():
        if node is None or isinstance(node, lw.LatexCommentNode):
            continue
        if isinstance(node, lw.LatexCharsNode):
            tokens.extend(("c", ch) for ch in node.chars)
        elif isinstance(node, lw.LatexSpecialsNode):
            if node.specials_chars == "&":
                tokens.append(("amp", None))
            else:
                tokens.extend(("c", ch) for ch in node.specials_chars)
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in ("\\", "cr", "newline"):
            tokens.append(("nl", None))
        else:
            tokens.append(("n", node))
    return tokens


def _split(tokens, kind):
    parts: list[list] = [[]]
    for tok in tokens:
        if tok[0] == kind:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def _is_space(tok) -> bool:
    return tok[0] == "c" and tok[1].isspace()


# ---------------------------------------------------------------------------------------------- pieces


@dataclass
class Piece:
    """One laid-out unit of a row: an atom (with scripts), an operator, a relation, punctuation…"""

    kind: str  # ord open close punct op rel unary bigop func frac text delim space
    box: Box
    space_before: bool = False  # whitespace in the source before it (kept between two atoms)
    gap: int = 0  # for kind == "space"
    sub: Box | None = None
    sup: Box | None = None
    primes: str = ""
    brace: str = ""  # "under"/"over" for \underbrace/\overbrace: the script is a label
    label: Box | None = None
    pad_before: bool = False  # \text{ …} with edge spaces asks for a gap on that side
    pad_after: bool = False
    group_scripts: bool = False  # a script on it applies to all of it: √x with ² -> (√x)²

    @property
    def first_char(self) -> str:
        line = self.box.lines[self.box.baseline] if self.box.lines else ""
        return line[:1]


_ATOM_BREAKERS = set("+−-×·÷/=<>≤≥≈≠,;:→←∈±∓⊙⊗⊕∘∗") | set(sym.RELATION.values()) | set(sym.BINARY.values())
_ATOM_BREAKERS.discard("|")
_PAIRS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩"}
_BINARY_CHARS = {**{v: v for v in sym.BINARY.values()}, "+": "+", "-": "−", "−": "−", "*": "∗"}
_RELATION_CHARS = (set(sym.RELATION.values()) | set("=<>:")) - {"|"}  # a bare | is a delimiter (|x|)
_NOT = {"=": "≠", "∈": "∉", "<": "≮", ">": "≯", "≤": "≰", "≥": "≱", "∼": "≁", "≡": "≢", "⊂": "⊄",
        "⊃": "⊅", "⊆": "⊈", "⊇": "⊉", "|": "∤", "∃": "∄", "≈": "≉", "≅": "≇", "→": "↛"}  # fmt: skip
_NUMERIC = re.compile(r"^[−+]?[0-9.,]*[0-9][0-9.,]*%?$|^[−+]?∞$")


def is_atomic(text: str) -> bool:
    """True when `text` reads as one unit after / or √ (no top-level space or operator)."""
    text = text.strip()
    if not text:
        return True
    if text[0] in "−-+±∓":
        return False
    depth = 0
    for ch in text:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif depth <= 0 and (ch.isspace() or ch in _ATOM_BREAKERS):
            return False
    return True


def is_wrapped(text: str) -> bool:
    """True when `text` is one bracketed group: (…), […], {…}."""
    if len(text) < 2 or text[0] not in _PAIRS or _PAIRS[text[0]] != text[-1]:
        return False
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
    return depth == 0


def _graphemes(text: str) -> int:
    return sum(1 for ch in text if not unicodedata.combining(ch))


_WORD = re.compile(r"[^\W\d_]{3,}")


def script_text(text: str, table: dict[str, str]) -> str | None:
    """The Unicode super/subscript form of `text`, or None when a character has none (or it is a word)."""
    if not text or _WORD.search(text):
        return None
    out = []
    for ch in text:
        if ch not in table:
            return None
        out.append(table[ch])
    return "".join(out)


@dataclass
class Row:
    box: Box
    pieces: list[Piece] = field(default_factory=list)

    @property
    def atomic(self) -> bool:
        if self.box.is_line:
            return is_atomic(self.box.lines[0])
        real = [p for p in self.pieces if p.kind != "space"]
        return len(real) == 1 and real[0].kind in ("ord", "delim")


# ---------------------------------------------------------------------------------------------- renderer


class Renderer:
    def __init__(self, *, oneline: bool = False):
        self.oneline = oneline
        self.unknown: set[str] = set()

    # -- entry points -------------------------------------------------------------------------------

    def render(self, src: str) -> Box:
        return self.block(tokenize(parse(src)))

    def block(self, tokens, script: bool = False) -> Box:
        """A token list that may hold `&` and `\\\\` (top level of a formula or a group)."""
        if any(t[0] in ("nl", "amp") for t in tokens):
            return self.align(tokens, script)
        return self.row(tokens, script).box

    # -- rows ---------------------------------------------------------------------------------------

    def row(self, tokens, script: bool = False, keep_edges: bool = False) -> Row:
        pieces = self.pieces(tokens, script)
        return Row(self.join(pieces, script, keep_edges), pieces)

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
                if _macro(node) == "left":
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
        while i < len(tokens) and _is_space(tokens[i]):
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
        if ch in _BINARY_CHARS:
            return Piece("op", Box.text(_BINARY_CHARS[ch]))
        if ch in _RELATION_CHARS:
            return Piece("rel", Box.text(ch))
        if ch in "([⟨":
            return Piece("open", Box.text(ch))
        if ch in ")]⟩":
            return Piece("close", Box.text(ch))
        if ch in ",;":
            return Piece("punct", Box.text(ch))
        if ch == "\x00" or (not ch.isprintable() and not ch.isspace()):
            return Piece("space", EMPTY, gap=0)
        return Piece("ord", Box.text(ch))

    # -- \left … \right -----------------------------------------------------------------------------

    def _left_right(self, tokens, i, script):
        i, left = self._delim_after(tokens, i + 1)
        depth, j = 1, i
        while j < len(tokens):
            m = _macro(tokens[j][1]) if tokens[j][0] == "n" else None
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
        while i < len(tokens) and _is_space(tokens[i]):
            i += 1
        if i >= len(tokens):
            return i, ""
        kind, val = tokens[i]
        if kind == "c":
            return i + 1, "" if val == "." else val
        if kind == "n" and _macro(val):
            name = _macro(val)
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
            return self.environment(node, script)
        if isinstance(node, lw.LatexMacroNode):
            verbatim = getattr(node.nodeargd, "verbatim_text", None)
            if verbatim is not None:  # \verb|…| has no place in maths: show its text, minus backslashes
                return Piece("text", Box.text(_no_commands(verbatim)))
            return self.macro(node, script)
        return None

    def arg(self, node, index: int = -1, script: bool = False) -> Box:
        args = _args(node)
        if not args:
            return EMPTY
        return self.block(_arg_tokens(args[index]), script)

    def arg_row(self, node, index: int, script: bool = False) -> Row:
        args = _args(node)
        if not args:
            return Row(EMPTY)
        return self.row(_arg_tokens(args[index]), script)

    def macro(self, node, script: bool) -> Piece | None:
        name = node.macroname
        if name in sym.GREEK:
            return Piece("ord", Box.text(sym.GREEK[name]))
        if name in sym.SPACES:
            return Piece("space", EMPTY, gap=sym.SPACES[name])
        if name in sym.BINARY:
            return Piece("op", Box.text(sym.BINARY[name]))
        if name in sym.RELATION:
            return Piece("rel", Box.text(sym.RELATION[name]))
        if name in sym.ORDINARY:
            text = sym.ORDINARY[name]
            if text in "…⋯⋮⋱":  # "inner" atoms: a space from their neighbours (a ⋯ b, but x₁, …, xₜ)
                return Piece("ord", Box.text(text), pad_before=True, pad_after=True)
            return Piece("ord", Box.text(text))
        if name in sym.OPEN:
            return Piece("open", Box.text(sym.OPEN[name]))
        if name in sym.CLOSE:
            return Piece("close", Box.text(sym.CLOSE[name]))
        if name in ("|", "Vert"):
            return Piece("ord", Box.text("‖"))
        if name in ("vert",):
            return Piece("ord", Box.text("|"))
        if name in sym.BIG_OPERATORS:
            return Piece("bigop", Box.text(sym.BIG_OPERATORS[name]))
        if name in sym.FUNCTIONS:
            return Piece("func", Box.text(sym.FUNCTIONS[name]))
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            return self.fraction(node, script)
        if name in ("binom", "dbinom", "tbinom"):
            top, bottom = self.arg(node, 0, script), self.arg(node, 1, script)
            return Piece("ord", hconcat([Box.text("C("), top, Box.text(", "), bottom, Box.text(")")]))
        if name == "sqrt":
            return self.root(node, script)
        if name in sym.TEXT_MACROS:
            return self.text_piece(_last_arg(node))
        if name == "operatorname":
            return Piece("func", Box.text(self.arg(node, -1, True).str))
        if name in ("mathop",):
            return Piece("func", self.arg(node, -1, script))
        if name == "mathbb":
            return Piece("ord", Box.text(_map_letters(self.arg(node, -1, script).str, sym.MATHBB)))
        if name in ("mathcal", "mathscr"):
            return Piece("ord", Box.text(_map_letters(self.arg(node, -1, script).str, sym.MATHCAL)))
        if name in sym.ACCENTS:
            return Piece("ord", self.accent(name, self.arg(node, -1, script)))
        if name in sym.PASS_THROUGH:
            return Piece("ord", self.arg(node, -1, script))
        if name == "mathbin":
            return Piece("op", self.arg(node, -1, script))
        if name == "mathrel":
            return Piece("rel", self.arg(node, -1, script))
        if name in ("textcolor", "colorbox"):
            return Piece("ord", self.arg(node, -1, script))
        if name in ("phantom", "hphantom"):
            return Piece("ord", Box.text(" " * self.arg(node, -1, script).width))
        if name == "not":
            inner = self.arg(node, -1, script).str
            return Piece("rel", Box.text(_NOT.get(inner, inner + "\u0338" if inner else "/")))
        if name in ("xrightarrow", "xleftarrow", "xRightarrow", "xLeftarrow", "xmapsto", "xleftrightarrow",
                    "xLeftrightarrow", "xlongrightarrow"):  # fmt: skip
            return self.labelled_arrow(node, script)
        if name in ("overset", "underset", "stackrel"):
            return self.stacked(node, script)
        if name in ("underbrace", "overbrace"):
            return Piece("ord", self.arg(node, -1, script), brace=name[:-5])
        if name == "substack":
            rows = [self.block(part, True) for part in _split(_arg_tokens(_last_arg(node)), "nl")]
            return Piece("ord", Box.text(",".join(r.str for r in rows if r.str)))
        if name in ("pmod", "mod"):
            mod = hconcat([Box.text("mod "), self.arg(node, -1, script)])
            if name == "pmod":
                return Piece("ord", hconcat([Box.text("("), mod, Box.text(")")]), pad_before=True)
            return Piece("ord", mod, pad_before=True)
        if name == "tag":
            return Piece("ord", hconcat([Box.text("    ("), self.arg(node, -1, script), Box.text(")")]))
        if name == "cancel":
            return Piece("ord", self.accent("cancel", self.arg(node, -1, script)))
        if name in sym.IGNORED or name in ("hspace", "vspace", "label", "color"):
            if name in ("hspace",):
                return Piece("space", EMPTY, gap=1)
            return None
        if name in ("textsuperscript", "textsubscript"):
            piece = Piece("ord", EMPTY)
            setattr(piece, "sup" if name == "textsuperscript" else "sub", self.arg(node, -1, True))
            return piece
        # Unknown: show the name so nothing is lost, and remember it for the tests. pylatexenc may know
        # its arguments (\ref{…}): they follow in parentheses, like a function's.
        self.unknown.add(name)
        args = [self.block(_arg_tokens(a), script) for a in _args(node) if a is not None]
        if args:
            parts = [Box.text(name + "(")]
            for k, box in enumerate(args):
                parts += [Box.text(", ")] if k else []
                parts.append(box)
            return Piece("ord", hconcat([*parts, Box.text(")")]))
        if not name.isalpha():
            return Piece("ord", Box.text(name))
        return Piece("func", Box.text(name))

    def text_piece(self, arg) -> Piece:
        """\\text{…}: text mode, spaces kept; maths inside ($…$) rendered."""
        from pylatexenc import latexwalker as lw

        nodes = arg.nodelist if isinstance(arg, lw.LatexGroupNode) else [arg] if arg is not None else []
        parts: list[Box] = []
        for node in nodes:
            if isinstance(node, lw.LatexCharsNode):
                parts.append(Box.text(_text_chars(node.chars)))
            elif isinstance(node, lw.LatexSpecialsNode):
                parts.append(Box.text({"~": " ", "--": "–", "---": "—", "``": "“", "''": "”"}.get(
                    node.specials_chars, node.specials_chars)))  # fmt: skip
            elif isinstance(node, lw.LatexMacroNode) and node.macroname in sym.TEXT_MACROS | sym.PASS_THROUGH:
                parts.append(self.text_piece(_last_arg(node)).box)
            elif isinstance(node, lw.LatexGroupNode):
                parts.append(self.text_piece(node).box)
            elif isinstance(node, lw.LatexMacroNode) and node.macroname in ("\\", "newline"):
                parts.append(Box.text(" "))
            elif isinstance(node, lw.LatexCommentNode):
                continue
            else:
                piece = self.node_piece(node, False)
                if piece is not None:
                    parts.append(
                        Box.text(" " * piece.gap) if piece.kind == "space" else self.finish(piece, None)
                    )
        box = hconcat(parts) if parts else EMPTY
        text = box.lines[0] if box.is_line else None
        if text is None:
            return Piece("text", box)
        piece = Piece("text", Box.text(re.sub(r"\s+", " ", text).strip()))
        piece.pad_before = text[:1].isspace()
        piece.pad_after = text[-1:].isspace()
        return piece

    # -- constructions ------------------------------------------------------------------------------

    def fraction(self, node, script: bool) -> Piece:
        num, den = self.arg_row(node, 0, script), self.arg_row(node, 1, script)
        parts = [self._grouped(num), Box.text("/"), self._grouped(den)]
        return Piece("frac", hconcat(parts))

    def _grouped(self, row: Row) -> Box:
        if row.atomic:
            return row.box
        return _parens(row.box, self.oneline)

    def root(self, node, script: bool) -> Piece:
        args = _args(node)
        index = self.block(_arg_tokens(args[0]), True).str if len(args) > 1 and args[0] is not None else ""
        body = self.row(_arg_tokens(args[-1]), script) if args else Row(EMPTY)
        sign = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index)
        if sign is None:
            sup = script_text(index, sym.SUPERSCRIPTS)
            sign = (sup if sup else f"^({index})") + "√"
        if not body.box.str.strip():
            return Piece("ord", Box.text(sign))
        inner = body.box if body.atomic else _parens(body.box, self.oneline)
        return Piece("ord", hconcat([Box.text(sign), inner]), group_scripts=True)

    def accent(self, name: str, box: Box) -> Box:
        text = box.str if box.is_line else None
        if text is None:
            return box
        if name == "cancel":
            return Box.text("".join(ch + "\u0336" for ch in text))
        mark = sym.ACCENTS[name]
        if _graphemes(text) == 1:  # precomposed where Unicode has it (ỹ, x̄ stays combining)
            return Box.text(unicodedata.normalize("NFC", text + mark))
        if name in ("overline", "underline", "bar", "underbar") and text.isalnum():
            return Box.text(unicodedata.normalize("NFC", "".join(ch + mark for ch in text)))
        return Box.text(f"{name}({text})")

    def labelled_arrow(self, node, script: bool) -> Piece:
        args = _args(node)
        below = self.block(_arg_tokens(args[0]), script) if args and args[0] is not None else EMPTY
        above = self.block(_arg_tokens(args[-1]), script) if args else EMPTY
        name = node.macroname
        head = {"xrightarrow": "→", "xlongrightarrow": "→", "xleftarrow": "←", "xRightarrow": "⇒",
                "xLeftarrow": "⇐", "xmapsto": "→", "xleftrightarrow": "↔", "xLeftrightarrow": "⇔"}[name]  # fmt: skip
        shaft = "═" if head in "⇒⇐⇔" else "─"
        left_head = head in "←⇐"
        if self.oneline or script or not (above.is_line and below.is_line):
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

    def stacked(self, node, script: bool) -> Piece:
        name = node.macroname
        label_row, base_row = self.arg_row(node, 0, True), self.arg_row(node, 1, script)
        real = [p for p in base_row.pieces if p.kind != "space"]
        kind = real[0].kind if len(real) == 1 and real[0].kind in ("rel", "op", "bigop") else "ord"
        if self.oneline or script or not base_row.box.is_line:
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

    # -- environments -------------------------------------------------------------------------------

    def environment(self, node, script: bool) -> Piece:
        name = node.environmentname
        verbatim = getattr(node.nodeargd, "verbatim_text", None)
        if verbatim is not None:
            return Piece("text", Box.text(_no_commands(verbatim)))
        tokens = tokenize(node.nodelist)
        if name in sym.MATRIX_DELIMITERS:
            left, right = sym.MATRIX_DELIMITERS[name]
            spec = ""
            if name in ("array", "subarray") and _args(node):
                spec = re.sub(r"[^lcr]", "", self.block(_arg_tokens(_last_arg(node)), True).str)
            return Piece("delim" if left else "ord", self.matrix(tokens, left, right, spec))
        if name in sym.CASES_ENVIRONMENTS:
            left, right = sym.CASES_ENVIRONMENTS[name]
            return Piece("delim", self.cases(tokens, left, right))
        if name in sym.ALIGN_ENVIRONMENTS or name in sym.GATHER_ENVIRONMENTS:
            return Piece("ord", self.align(tokens, script, gather=name in sym.GATHER_ENVIRONMENTS))
        self.unknown.add(f"begin{{{name}}}")
        return Piece("ord", self.align(tokens, script, gather=True))

    def _grid(self, tokens, keep_edges: bool = False) -> list[list[Box]]:
        rows = _split(tokens, "nl")
        while rows and not any(not _is_space(t) for t in rows[-1]):  # trailing \\ or blank line
            rows.pop()
        return [[self.row(cell, keep_edges=keep_edges).box for cell in _split(r, "amp")] for r in rows]

    def matrix(self, tokens, left: str, right: str, spec: str = "") -> Box:
        grid = self._grid(tokens)
        if not grid:
            return Box.text(left + right)
        if self.oneline:
            body = "; ".join(", ".join(cell.str for cell in row) for row in grid)
            return Box.text(left + body + right)
        ncols = max(len(r) for r in grid)
        for r in grid:
            r.extend([EMPTY] * (ncols - len(r)))
        aligns = []
        for c in range(ncols):
            if c < len(spec):
                aligns.append(spec[c])
            else:
                column = [r[c].str for r in grid if r[c].str]
                aligns.append("r" if column and all(_NUMERIC.match(t) for t in column) else "c")
        widths = [max(r[c].width for r in grid) for c in range(ncols)]
        lines = []
        for r in grid:
            cells = []
            for c in range(ncols):
                if c:
                    cells.append(Box.text("  "))
                cells.append(pad_box(r[c], widths[c], aligns[c]))
            lines.append(hconcat(cells))
        body = vstack(lines)
        if len(grid) == 1 and body.is_line:
            return Box.text(left + body.lines[0] + right)
        return wrap(body, left, right)

    def cases(self, tokens, left: str, right: str) -> Box:
        grid = self._grid(tokens)
        if not grid:
            return Box.text(left + right)
        if self.oneline:
            close = right or {"{": "}", "": ""}[left]
            return Box.text(left + "; ".join(" ".join(c.str for c in r if c.str) for r in grid) + close)
        ncols = max(len(r) for r in grid)
        widths = [max((r[c].width for r in grid if c < len(r)), default=0) for c in range(ncols)]
        lines = []
        for r in grid:
            cells = []
            for c, cell in enumerate(r):
                if c:
                    cells.append(Box.text("  "))
                cells.append(pad_box(cell, widths[c], "l"))
            lines.append(hconcat(cells))
        if len(lines) % 2 == 0:  # an odd height gives the brace a middle (⎨) for the text beside it
            lines.insert(len(lines) // 2, EMPTY)
        body = vstack(lines)
        pad = Box((" ",) * body.height, body.baseline)
        parts = [body] if not left else [pad, body]
        if right:
            parts.append(pad)
        inner = hconcat(parts)
        if body.height == 1:
            return Box.text((left or "") + inner.lines[0] + (right or ""))
        return wrap(inner, left, right)

    def align(self, tokens, script: bool, gather: bool = False) -> Box:
        """Rows separated by \\\\; columns by & (right/left pairs as in align)."""
        grid = self._grid(tokens, keep_edges=True)
        if not grid:
            return EMPTY
        if self.oneline or script:
            return Box.text(
                "; ".join("".join(c.str if not c.is_line else c.lines[0] for c in r).strip() for r in grid)
            )
        if gather or all(len(r) == 1 for r in grid):
            boxes = [hconcat(r) for r in grid]
            width = max(b.width for b in boxes)
            return vstack([pad_box(b, width, "c") for b in boxes], "l")
        ncols = max(len(r) for r in grid)
        widths = [max((r[c].width for r in grid if c < len(r)), default=0) for c in range(ncols)]
        lines = []
        for r in grid:
            cells = []
            for c in range(ncols):
                cell = r[c] if c < len(r) else EMPTY
                if c and c % 2 == 0:
                    cells.append(Box.text("    "))
                cells.append(pad_box(cell, widths[c], "r" if c % 2 == 0 else "l"))
            lines.append(hconcat(cells))
        return vstack(lines, "l")

    # -- joining ------------------------------------------------------------------------------------

    def join(self, pieces: list[Piece], script: bool, keep_edges: bool = False) -> Box:
        real = [i for i, p in enumerate(pieces) if p.kind != "space"]
        if not real:
            return EMPTY
        # unary signs: + or − with nothing to their left to operate on
        prev = None
        for i in real:
            p = pieces[i]
            # (any operator opening a row binds to what follows: an arrow label ×W_Q, ÷√dₖ)
            if p.kind == "op" and (
                prev is None
                or (
                    p.box.lines[0] in "+−±∓"
                    and prev.kind in ("op", "rel", "open", "punct", "unary", "bigop", "text")
                )
            ):
                p.kind = "unary"
            prev = p
        # gaps between consecutive real pieces
        gaps: dict[int, int] = {}
        for a_i, b_i in zip(real, real[1:], strict=False):
            a, b = pieces[a_i], pieces[b_i]
            explicit = sum(pieces[k].gap for k in range(a_i + 1, b_i))
            auto = 0 if script else self._gap(a, b)
            if (
                not script
                and (a.pad_after or b.pad_before)
                and b.kind not in ("punct", "close")
                and a.kind != "open"
            ):
                auto = max(auto, 1)
            gaps[b_i] = max(auto, explicit)
        boxes: list[Box] = []
        lead = sum(pieces[k].gap for k in range(0, real[0])) if keep_edges else 0
        if keep_edges and not script and pieces[real[0]].kind in ("rel", "op"):
            lead = max(lead, 1)
        if lead:
            boxes.append(Box.text(" " * lead))
        for pos, i in enumerate(real):
            p = pieces[i]
            if pos:
                if gaps[i]:
                    boxes.append(Box.text(" " * gaps[i]))
            nxt = pieces[real[pos + 1]] if pos + 1 < len(real) else None
            follower = nxt.first_char if nxt is not None and not gaps.get(real[pos + 1], 0) else ""
            if p.kind == "frac" and self._frac_needs_parens(pieces[real[pos - 1]] if pos else None, p, nxt):
                p.box = _parens(p.box, self.oneline)
            boxes.append(self.finish(p, follower))
        trail = sum(pieces[k].gap for k in range(real[-1] + 1, len(pieces))) if keep_edges else 0
        if keep_edges and not script and pieces[real[-1]].kind in ("rel", "op"):
            trail = max(trail, 1)
        if trail:
            boxes.append(Box.text(" " * trail))
        return hconcat(boxes)

    @staticmethod
    def _gap(a: Piece, b: Piece) -> int:
        if b.kind == "punct":
            return 0
        if a.kind == "punct":
            return 0 if b.kind == "close" else 1
        if a.kind == "unary":
            return 0
        if a.kind in ("rel", "op") or b.kind in ("rel", "op"):
            return 0 if a.kind == "open" or b.kind == "close" else 1
        if a.kind == "open" or b.kind == "close":
            return 0
        if a.box.height > 1 or b.box.height > 1:  # a matrix next to a factor or another matrix
            return 1
        if a.kind == "func":
            return 0 if b.kind in ("open", "delim") else 1
        if a.kind == "bigop":
            return 1
        if b.kind in ("func", "bigop"):
            return 1
        if b.kind == "unary":
            return 1
        if a.box.lines == ("/",) or b.box.lines == ("/",):  # a/b binds: no space around a slash
            return 0
        if not b.space_before:
            return 0
        # a space written between two atoms is kept (W_Q W_K, q_i k_i, 0.05 V) except after a plain
        # single letter, where it is only source formatting (Q K^\top -> QKᵀ, X W -> XW)
        plain = a.kind == "ord" and a.sub is None and a.sup is None and not a.primes and a.box.is_line
        return 0 if plain and len(a.box.lines[0]) == 1 and not a.box.lines[0].isdigit() else 1

    @staticmethod
    def _frac_needs_parens(prev: Piece | None, frac: Piece, nxt: Piece | None) -> bool:
        """A linear fraction next to another factor is ambiguous: (1/S) Σ, 2(a/b)."""
        if frac.sub is not None or frac.sup is not None or frac.primes:
            return True
        if prev is not None and prev.kind in ("ord", "close", "frac", "text", "delim"):
            return True
        return nxt is not None and nxt.kind in (
            "ord",
            "open",
            "frac",
            "bigop",
            "func",
            "text",
            "delim",
            "unary",
        )

    def finish(self, p: Piece, follower: str | None) -> Box:
        """A piece's box with its primes and scripts attached."""
        base = p.box
        if p.brace:
            base = self._brace(base, p.label, p.brace)
        if p.primes:
            base = (
                hconcat([base, Box.text(p.primes)]) if base.is_line else hconcat([base, _top(p.primes, base)])
            )
        if p.sub is None and p.sup is None:
            return base
        if p.group_scripts:
            base = _parens(base, self.oneline)
        sub = _script_form(p.sub, sym.SUBSCRIPTS, "_")
        sup = _script_form(p.sup, sym.SUPERSCRIPTS, "^")
        # a bare fallback (W_Q) must not run into what follows it: W_(Q)^(i), W_(Q)K
        if sub and sub[0] == "bare" and (sup and sup[0] != "uni"):
            sub = ("paren", sub[1])
        last = sup or sub
        if last and last[0] == "bare" and follower and _baseline_alnum(follower):
            if last is sup:
                sup = ("paren", sup[1])
            else:
                sub = ("paren", sub[1])
        parts = [s for s in (sub, sup) if s]
        if base.is_line and all(isinstance(s[1], str) for s in parts):
            return Box.text(base.lines[0] + "".join(_script_str(s, "_" if s is sub else "^") for s in parts))
        if not base.is_line:
            column = []
            if sup:
                column.append(_as_box(sup, "^"))
            filler = base.height - sum(_as_box(s, "").height for s in parts)
            column.extend([Box.text("")] * max(filler, 0))
            if sub:
                column.append(_as_box(sub, "_"))
            return hconcat([base, vstack(column, "l", baseline=base.baseline)])
        boxes = [base]
        for s in parts:
            boxes.append(_as_box(s, "_" if s is sub else "^"))
        return hconcat(boxes)

    def _brace(self, base: Box, label: Box | None, which: str) -> Box:
        if label is None:
            return base
        if self.oneline or not (base.is_line and label.is_line):
            return hconcat([base, Box.text(" ("), label, Box.text(")")])
        w = max(base.width, 3)
        mid = (w - 1) // 2
        if which == "under":
            brace = "└" + "─" * (mid - 1) + "┬" + "─" * (w - mid - 2) + "┘"
            return vstack([pad_box(base, w, "c"), Box.text(brace), pad_box(label, w, "c")], "c", baseline=0)
        brace = "┌" + "─" * (mid - 1) + "┴" + "─" * (w - mid - 2) + "┐"
        return vstack([pad_box(label, w, "c"), Box.text(brace), pad_box(base, w, "c")], "c", baseline=2)


# ---------------------------------------------------------------------------------------------- helpers


def _macro(node) -> str | None:
    return getattr(node, "macroname", None)


def _args(node) -> list:
    argd = getattr(node, "nodeargd", None)
    return list(getattr(argd, "argnlist", None) or [])


def _last_arg(node):
    args = _args(node)
    return args[-1] if args else None


def _arg_tokens(arg) -> list:
    from pylatexenc.latexwalker import LatexGroupNode

    if arg is None:
        return []
    if isinstance(arg, LatexGroupNode):
        return tokenize(arg.nodelist)
    return tokenize([arg])


def _no_commands(text: str) -> str:
    return re.sub(r"\\+([A-Za-z]*)", r"\1", re.sub(r"\s+", " ", text))


def _text_chars(chars: str) -> str:
    return re.sub(r"\s+", " ", chars)


def _map_letters(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(ch, ch) for ch in text)


def _parens(box: Box, oneline: bool) -> Box:
    if box.is_line or oneline:
        return Box.text("(" + box.str + ")")
    return wrap(box, "(", ")")


def _top(text: str, base: Box) -> Box:
    return Box((text,) + ("",) * (base.height - 1), base.baseline)


def _baseline_alnum(ch: str) -> bool:
    return ch.isalnum() and ch not in sym.SCRIPT_CHARS


def _script_form(box: Box | None, table: dict[str, str], mark: str):
    """("uni", text) | ("bare", text) | ("paren", text) | ("box", Box) for a script, or None."""
    if box is None or (box.is_line and not box.lines[0].strip()):
        return None
    if not box.is_line:
        return ("box", box)
    text = box.lines[0].strip()
    uni = script_text(text, table)
    if uni is not None:
        return ("uni", uni)
    if _graphemes(text) == 1:
        return ("bare", text)
    if is_wrapped(text):
        return ("wrapped", text)
    return ("paren", text)


def _script_str(form, mark: str) -> str:
    kind, text = form
    if kind == "uni":
        return text
    if kind in ("bare", "wrapped"):
        return mark + text
    return f"{mark}({text})"


def _as_box(form, mark: str) -> Box:
    if form[0] == "box":
        return hconcat([Box.text(mark), form[1]])
    return Box.text(_script_str(form, mark))


__all__ = ["Renderer", "is_atomic", "parse", "script_text", "tokenize"]
