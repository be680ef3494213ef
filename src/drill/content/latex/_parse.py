"""LaTeX source -> pylatexenc nodes -> a flat token stream, and small accessors for a node's arguments.

The node tree is flattened into tokens (single characters and nodes) because `^`, `_`, `'`, `&` and `\\\\`
are plain characters or argument-less macros to pylatexenc.
"""

from __future__ import annotations

import re

_WALKER_CONTEXT = None


def _context():
    """pylatexenc's default macro database plus the maths macros it lacks (argument specs only)."""
    global _WALKER_CONTEXT
    if _WALKER_CONTEXT is None:
        from pylatexenc.latexwalker import get_default_latex_context_db
        from pylatexenc.macrospec import MacroSpec

        db = get_default_latex_context_db()
        specs = {
            "operatorname": "*{",
            "dfrac": "{{",
            "tfrac": "{{",
            "cfrac": "{{",
            "binom": "{{",
            "dbinom": "{{",
            "tbinom": "{{",
            "overset": "{{",
            "underset": "{{",
            "stackrel": "{{",
            "boldsymbol": "{",
            "bm": "{",
            "pmb": "{",
            "boxed": "{",
            "phantom": "{",
            "vphantom": "{",
            "tag": "*{",
            "mathring": "{",
            "xRightarrow": "[{",
            "xLeftarrow": "[{",
            "xmapsto": "[{",
            "xleftrightarrow": "[{",
            "xLeftrightarrow": "[{",
            "xlongrightarrow": "[{",
            "mathop": "{",
            "mathord": "{",
            "mathbin": "{",
            "mathrel": "{",
            "substack": "{",
            "overrightarrow": "{",
            "underbar": "{",
            "cancel": "{",
            "widetilde": "{",
            "widehat": "{",
            "mathnormal": "{",
            "ensuremath": "{",
            "textup": "{",
            "textmd": "{",
            "textsc": "{",
            "textnormal": "{",
            "fbox": "{",
            "hbox": "{",
            "vspace": "*{",
            "pmod": "{",
            "mod": "{",
            "textsuperscript": "{",
            "textsubscript": "{",
            "mathbb": "{",
            "mathcal": "{",
            "mathscr": "{",
            "mathfrak": "{",
            "sqrt": "[{",
        }
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


def split_tokens(tokens, kind):
    parts: list[list] = [[]]
    for tok in tokens:
        if tok[0] == kind:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def is_space(tok) -> bool:
    return tok[0] == "c" and tok[1].isspace()


def macro_name(node) -> str | None:
    return getattr(node, "macroname", None)


def node_args(node) -> list:
    argd = getattr(node, "nodeargd", None)
    return list(getattr(argd, "argnlist", None) or [])


def last_arg(node):
    args = node_args(node)
    return args[-1] if args else None


def arg_tokens(arg) -> list:
    from pylatexenc.latexwalker import LatexGroupNode

    if arg is None:
        return []
    if isinstance(arg, LatexGroupNode):
        return tokenize(arg.nodelist)
    return tokenize([arg])
