"""A trace is the ordered list of named steps of one computation, each with its formula, shape and value.

Steps are what `drill calc` prints and what the study screen's side pane shows; content cards name them as
"<example>/<step>". Values are float64 arrays; masked scores hold -inf, which JSON cannot carry, so
`to_json` writes non-finite numbers as the strings "inf", "-inf" and "nan".
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False, kw_only=True)  # arrays inside: identity equality, hashable
class Step:
    """One intermediate result: ``output`` is what this step computes from ``inputs``. Built with keywords."""

    name: str  # stable identifier, e.g. "softmax"
    title: str  # short human title, e.g. "Row-wise softmax"
    formula: str  # LaTeX, no $ delimiters
    explanation: str  # one line
    inputs: tuple[str, ...]  # names of earlier steps or of the trace's inputs
    output: np.ndarray
    shape: str  # symbolic, e.g. "[S, S]"
    note: str | None = None  # what is special about this instance (a fully masked row, a chapter erratum...)

    def __post_init__(self) -> None:
        # read-only, so a screen or script holding a trace cannot change the numbers behind another view of it
        output = np.asarray(self.output).view()  # a view: the caller's own array keeps its flags
        output.setflags(write=False)
        object.__setattr__(self, "output", output)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "formula": self.formula,
            "explanation": self.explanation,
            "inputs": list(self.inputs),
            "shape": self.shape,
            "dims": list(np.shape(self.output)),
            "values": to_jsonable(self.output),
            "note": self.note,
        }


@dataclass(frozen=True, eq=False)  # arrays inside: identity equality, hashable
class Trace:
    """Ordered steps of one computation. ``trace["softmax"]`` looks a step up by name."""

    title: str
    steps: tuple[Step, ...]
    inputs: Mapping[str, np.ndarray] = field(default_factory=dict)  # named given matrices (X, W_Q, ...)
    example: str | None = None  # the named example this trace reproduces, if any
    section: str | None = None  # chapter section, e.g. "7.12"

    def __post_init__(self) -> None:
        names = [s.name for s in self.steps]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ValueError(f"duplicate step names in trace {self.title!r}: {sorted(dupes)}")

    def __getitem__(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(f"no step {name!r} in trace {self.title!r}; steps: {', '.join(self.names())}")

    def __contains__(self, name: object) -> bool:
        return any(step.name == name for step in self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    def to_dict(self) -> dict:
        return {
            "title": self.title,
            "example": self.example,
            "section": self.section,
            "inputs": {name: to_jsonable(value) for name, value in self.inputs.items()},
            "steps": [step.to_dict() for step in self.steps],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)


def _number(value: float) -> float | int | str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(value)


def to_jsonable(array) -> object:
    """Nested lists of floats; non-finite values become "inf" / "-inf" / "nan" (JSON has no infinity)."""
    arr = np.asarray(array)
    if arr.dtype == bool:
        return arr.tolist()
    if arr.ndim == 0:
        return _number(float(arr))
    if np.isfinite(arr).all():
        return arr.astype(np.float64).tolist()
    return [to_jsonable(sub) for sub in arr]


def from_jsonable(values) -> np.ndarray:
    """Inverse of `to_jsonable` (for scripts and tests reading `drill calc --json`)."""

    def conv(v):
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, str):
            return float(v)  # "inf", "-inf", "nan" parse as floats
        return v

    return np.asarray(conv(values), dtype=np.float64)
