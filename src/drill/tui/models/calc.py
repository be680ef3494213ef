"""What the calc screen computes, apart from how it looks: the inputs, the switches and the trace.

An attention example (one whose trace carries X, W_Q, W_K, W_V) can be changed: the causal mask, the padding
mask and the number of heads are switches, the matrices can be typed, and `randomize` draws new inputs of
the same shapes. Every change recomputes through drill.engine.attention.attention_trace; a change the engine
refuses raises InputError (naming the shapes) and leaves the model as it was. Other examples (LayerNorm,
FFN, ...) are shown as they are. No textual here; imports numpy, so the screen loads it in a worker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from drill.engine.attention import attention_trace
from drill.engine.heads import identity_wo
from drill.engine.parse import parse_mask, parse_matrix, shape_str
from drill.engine.trace import Trace
from drill.errors import InputError
from drill.i18n import N_, _, deferred

ATTENTION_INPUTS = ("X", "W_Q", "W_K", "W_V")


def matrix_text(values: np.ndarray) -> str:
    """The text a matrix editor starts with: "1,0;0,1;1,1" (integers without ".0")."""
    arr = np.atleast_2d(np.asarray(values, dtype=np.float64))
    return ";".join(",".join(_short(v) for v in row) for row in arr)


def _short(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class CalcState:
    """The inputs and switches one trace is computed from."""

    x: np.ndarray
    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray
    wo: np.ndarray | None
    heads: int = 1
    kv_heads: int = 1
    causal: bool = False
    pad: np.ndarray | None = None  # bool [S], True = a real token

    def matrices(self) -> dict[str, np.ndarray | None]:
        return {"X": self.x, "W_Q": self.wq, "W_K": self.wk, "W_V": self.wv, "W_O": self.wo}

    def compute(self, title: str | None = None) -> Trace:
        return attention_trace(
            self.x,
            self.wq,
            self.wk,
            self.wv,
            self.wo,
            heads=self.heads,
            kv_heads=self.kv_heads,
            causal=self.causal,
            pad=self.pad,
            title=title,
        )


def state_of(trace: Trace) -> CalcState | None:
    """The editable inputs behind an attention trace, or None (not a single-sequence self-attention)."""
    inputs = trace.inputs
    if not all(name in inputs for name in ATTENTION_INPUTS) or np.ndim(inputs["X"]) != 2:
        return None
    heads = kv_heads = 1
    if "split_heads" in trace:
        heads = int(np.shape(trace["split_heads"].output)[0])
        kv_heads = int(np.shape(trace["split_k"].output)[0])
    causal = "mask" in trace and r"j \le i" in trace["mask"].formula
    pad = inputs.get("pad")
    return CalcState(
        x=np.asarray(inputs["X"], dtype=np.float64),
        wq=np.asarray(inputs["W_Q"], dtype=np.float64),
        wk=np.asarray(inputs["W_K"], dtype=np.float64),
        wv=np.asarray(inputs["W_V"], dtype=np.float64),
        wo=None if inputs.get("W_O") is None else np.asarray(inputs["W_O"], dtype=np.float64),
        heads=heads,
        kv_heads=kv_heads,
        causal=causal,
        pad=None if pad is None else np.asarray(pad).astype(bool),
    )


def head_choices(state: CalcState) -> list[tuple[int, int]]:
    """(heads h, KV heads G) pairs these weights allow: h divides W_Q's width, W_K and W_V fit G heads of
    d_k (G dividing h), and W_O (if any) takes h·d_v rows. The current G/h ratio is kept when possible."""
    width = state.wq.shape[1]
    choices = []
    for h in range(1, width + 1):
        if width % h:
            continue
        d_k = width // h
        if state.wk.shape[1] % d_k:
            continue
        g = state.wk.shape[1] // d_k
        if g < 1 or h % g or state.wv.shape[1] % g:
            continue
        d_v = state.wv.shape[1] // g
        if state.wo is not None and state.wo.shape[0] != h * d_v:
            continue
        choices.append((h, g))
    return choices


class CalcModel:
    """The trace on screen and, for attention examples, the state it is computed from."""

    def __init__(self, trace: Trace, *, seed: int = 1) -> None:
        self.trace = trace
        self.original_title = trace.title
        self.state = state_of(trace)
        self.seed = seed
        self.changed = False
        # The pad mask the `p` switch brings back (the example's own, or the last one typed).
        self._pad_memory = None if self.state is None else self.state.pad
        self._wo_default = False  # W_O is the identity standing in for one not given (multi-head)
        if self.state is not None and self.state.heads > 1 and self.state.wo is None:
            self._apply(self.state)  # a multi-head trace without W_O: give it its output projection
            self.changed = False

    @property
    def editable(self) -> bool:
        return self.state is not None

    def _need_state(self) -> CalcState:
        if self.state is None:
            name = self.trace.example or _("this trace")
            message = _(
                "{name} is not an attention computation on X, W_Q, W_K, W_V: masks, heads and editing work on "
                "worked, causal, mha, gqa, … (press r for random attention inputs)"
            )
            raise InputError(message.format(name=name))
        return self.state

    def _with_wo(self, state: CalcState) -> CalcState:
        """Multi-head attention ends with W_O: with none typed, the identity stands in (so the output projection
        is a step of its own, and `e` shows the matrix to change); back to one head, the stand-in goes."""
        if state.heads > 1 and (state.wo is None or self._wo_default):
            self._wo_default = True
            wo = identity_wo(state.wv.shape[1], state.heads, state.kv_heads, state.x.shape[1])
            return replace(state, wo=wo)
        if state.heads == 1 and self._wo_default:
            self._wo_default = False
            return replace(state, wo=None)
        return state

    def _choices(self, state: CalcState) -> list[tuple[int, int]]:
        """The head counts the weights allow; a stand-in W_O does not limit them (it follows the heads)."""
        return head_choices(replace(state, wo=None) if self._wo_default else state)

    def _apply(self, state: CalcState) -> Trace:
        default = self._wo_default
        try:
            state = self._with_wo(state)
            return self._compute(state)
        except InputError:
            self._wo_default = default  # refused: the model stays as it was
            raise

    def _compute(self, state: CalcState) -> Trace:
        title = N_("{title} — changed", title=deferred(self.original_title)) if self.trace.example else None
        trace = state.compute(title=title)
        if self.trace.example:
            trace = replace(trace, example=self.trace.example, section=self.trace.section)
        self.state, self.trace, self.changed = state, trace, True
        return trace

    # --- switches ----------------------------------------------------------------------------------

    def toggle_causal(self) -> Trace:
        state = self._need_state()
        return self._apply(replace(state, causal=not state.causal))

    def toggle_pad(self) -> Trace:
        state = self._need_state()
        if state.pad is not None:
            self._pad_memory = state.pad
            return self._apply(replace(state, pad=None))
        s = state.x.shape[0]
        pad = self._pad_memory
        if pad is None or pad.shape != (s,):
            pad = np.ones(s, dtype=bool)
            if s > 1:
                pad[-1] = False  # the last token is padding
        return self._apply(replace(state, pad=pad))

    def cycle_heads(self) -> Trace:
        state = self._need_state()
        choices = self._choices(state)
        if len(choices) < 2:
            message = _("W_Q is {wq}, W_K {wk}, W_V {wv}: no other number of heads divides these widths")
            raise InputError(
                message.format(wq=shape_str(state.wq), wk=shape_str(state.wk), wv=shape_str(state.wv))
            )
        current = (state.heads, state.kv_heads)
        index = choices.index(current) if current in choices else -1
        h, g = choices[(index + 1) % len(choices)]
        return self._apply(replace(state, heads=h, kv_heads=g))

    # --- typed inputs --------------------------------------------------------------------------------

    def set_matrix(self, name: str, text: str) -> Trace:
        """Replace one input from typed text; InputError naming the matrix and its shape when refused."""
        state = self._need_state()
        current = state.matrices().get(name)
        kept = (
            _("{name} stays {shape}").format(name=name, shape=shape_str(current))
            if current is not None
            else _("{name} stays unset").format(name=name)
        )
        if name == "pad":
            if not text.strip():
                return self._apply(replace(state, pad=None))
            try:
                pad = parse_mask(text, state.x.shape[0], _("pad mask"))
            except InputError as err:
                raise InputError(
                    _("{error} (X is {shape})").format(error=err, shape=shape_str(state.x))
                ) from None
            if pad.ndim != 1:
                message = _("pad mask: give one row of {count} values (X is one sequence)")
                raise InputError(message.format(count=state.x.shape[0]))
            self._pad_memory = pad
            return self._apply(replace(state, pad=pad))
        if name == "W_O" and not text.strip():
            self._wo_default = False
            return self._apply(replace(state, wo=None))
        try:
            value = parse_matrix(text, name)
        except InputError as err:
            raise InputError(_("{error}; {kept}").format(error=err, kept=kept)) from None
        field = {"X": "x", "W_Q": "wq", "W_K": "wk", "W_V": "wv", "W_O": "wo"}[name]
        new = replace(state, **{field: value})
        if name == "X" and new.pad is not None and new.pad.shape[0] != value.shape[0]:
            new = replace(new, pad=None)  # the old mask no longer fits the sequence
        default = self._wo_default
        if name == "W_O":
            self._wo_default = False  # a typed W_O is the user's, kept whatever the heads
        choices = self._choices(new)
        if (new.heads, new.kv_heads) not in choices and choices:
            new = replace(new, heads=choices[0][0], kv_heads=choices[0][1])
        try:
            return self._apply(new)
        except InputError:
            self._wo_default = default
            raise

    def randomize(self) -> Trace:
        """New random inputs: the same shapes, heads and switches for an attention trace; otherwise a
        4-token, d_model = 4 self-attention."""
        self.seed += 1
        state = self.state
        if state is None:
            zero = np.zeros((4, 4))
            state = CalcState(zero, zero.copy(), zero.copy(), zero.copy(), None)
            self.original_title = N_("Random inputs")
            self.trace = replace(self.trace, example=None)
        rng = np.random.default_rng(self.seed)
        self._wo_default = False  # a W_O drawn at random is one of the inputs, like the others

        def draw(matrix):
            if matrix is None:
                return None
            scale = 1.0 if matrix is state.x else 1 / np.sqrt(matrix.shape[0])
            return np.round(rng.standard_normal(matrix.shape) * scale, 2)

        return self._apply(
            replace(
                state,
                x=draw(state.x),
                wq=draw(state.wq),
                wk=draw(state.wk),
                wv=draw(state.wv),
                wo=draw(state.wo),
            )
        )


def build_initial(extra: dict[str, Any]) -> Trace:
    """The trace `drill calc` asked for: given, a named example, or inputs as the calc command takes them."""
    trace = extra.get("trace")
    if trace is not None:
        return trace
    from drill.engine.build import build_trace

    keys = (
        "example",
        "x",
        "wq",
        "wk",
        "wv",
        "wo",
        "causal",
        "pad",
        "heads",
        "kv_heads",
        "seed",
        "tokens",
        "d_model",
    )
    options = {k: extra.get(k) for k in keys}
    options["causal"] = bool(options["causal"])
    return build_trace(**options)
