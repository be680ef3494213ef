"""Joining: pieces side by side with the spacing each kind asks for, and a piece finished with its primes,
scripts and brace label."""

from __future__ import annotations

from . import _symbols as sym
from ._box import EMPTY, Box, hconcat, pad_box, vstack
from ._pieces import Piece, as_box, baseline_alnum, parens, script_form, script_str, top_row


def join(pieces: list[Piece], script: bool, keep_edges: bool = False, *, oneline: bool = False) -> Box:
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
    _group_slash_denominator(pieces, real, oneline)
    real = [i for i, p in enumerate(pieces) if p.kind != "space"]
    # gaps between consecutive real pieces
    gaps: dict[int, int] = {}
    for a_i, b_i in zip(real, real[1:], strict=False):
        a, b = pieces[a_i], pieces[b_i]
        explicit = sum(pieces[k].gap for k in range(a_i + 1, b_i))
        auto = 0 if script else _gap(a, b)
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
        if p.kind == "frac" and _frac_needs_parens(pieces[real[pos - 1]] if pos else None, p, nxt):
            p.box = parens(p.box, oneline)
        before = pieces[real[pos - 1]] if pos else None
        if (
            before is not None
            and not gaps[i]
            and p.first_char in "√∛∜"
            and before.kind in ("ord", "close")
            and before.box.lines[before.box.baseline][-1:] not in "/·×∗"
        ):
            boxes.append(Box.text("·"))  # E·√(d_model): a product, not E√d read as one symbol
        boxes.append(finish(p, follower, oneline))
    trail = sum(pieces[k].gap for k in range(real[-1] + 1, len(pieces))) if keep_edges else 0
    if keep_edges and not script and pieces[real[-1]].kind in ("rel", "op"):
        trail = max(trail, 1)
    if trail:
        boxes.append(Box.text(" " * trail))
    return hconcat(boxes)


def _group_slash_denominator(pieces: list[Piece], real: list[int], oneline: bool) -> None:
    """a / Σ_j b_j: the denominator running on from a slash to the next relation is parenthesised."""
    for pos, i in enumerate(real[:-1]):
        p = pieces[i]
        if p.kind in ("op", "ord") and p.box.lines == ("/",) and pieces[real[pos + 1]].kind == "bigop":
            end = next((k for k in real[pos + 1 :] if pieces[k].kind in ("rel", "punct")), len(pieces))
            group = pieces[i + 1 : end]
            if not group:
                return
            box = parens(join(group, False, oneline=oneline), oneline)
            pieces[i + 1 : end] = [Piece("ord", box)]
            return


def _gap(a: Piece, b: Piece) -> int:
    if a.box.lines == ("/",) or b.box.lines == ("/",):  # a/b binds: no space around a slash
        return 0
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


def finish(p: Piece, follower: str | None, oneline: bool = False) -> Box:
    """A piece's box with its primes and scripts attached."""
    base = p.box
    if p.brace:
        base = _brace(base, p.label, p.brace, oneline)
    if p.primes:
        base = (
            hconcat([base, Box.text(p.primes)]) if base.is_line else hconcat([base, top_row(p.primes, base)])
        )
    if p.sub is None and p.sup is None:
        return base
    if p.group_scripts:
        base = parens(base, oneline)
    sub = script_form(p.sub, sym.SUBSCRIPTS, "_")
    sup = script_form(p.sup, sym.SUPERSCRIPTS, "^")
    # a bare fallback (W_Q) must not run into what follows it: W_(Q)^(i), W_(Q)K
    if sub and sub[0] == "bare" and (sup and sup[0] != "uni"):
        sub = ("paren", sub[1])
    last = sup or sub
    if last and last[0] == "bare" and follower and baseline_alnum(follower):
        if last is sup:
            sup = ("paren", sup[1])
        else:
            sub = ("paren", sub[1])
    parts = [s for s in (sub, sup) if s]
    if base.is_line and all(isinstance(s[1], str) for s in parts):
        return Box.text(base.lines[0] + "".join(script_str(s, "_" if s is sub else "^") for s in parts))
    if not base.is_line:
        column = []
        if sup:
            column.append(as_box(sup, "^"))
        filler = base.height - sum(as_box(s, "").height for s in parts)
        column.extend([Box.text("")] * max(filler, 0))
        if sub:
            column.append(as_box(sub, "_"))
        return hconcat([base, vstack(column, "l", baseline=base.baseline)])
    boxes = [base]
    for s in parts:
        boxes.append(as_box(s, "_" if s is sub else "^"))
    return hconcat(boxes)


def _brace(base: Box, label: Box | None, which: str, oneline: bool) -> Box:
    if label is None:
        return base
    if oneline or not (base.is_line and label.is_line):
        return hconcat([base, Box.text(" ("), label, Box.text(")")])
    w = max(base.width, 3)
    mid = (w - 1) // 2
    if which == "under":
        brace = "└" + "─" * (mid - 1) + "┬" + "─" * (w - mid - 2) + "┘"
        return vstack([pad_box(base, w, "c"), Box.text(brace), pad_box(label, w, "c")], "c", baseline=0)
    brace = "┌" + "─" * (mid - 1) + "┴" + "─" * (w - mid - 2) + "┐"
    return vstack([pad_box(label, w, "c"), Box.text(brace), pad_box(base, w, "c")], "c", baseline=2)
