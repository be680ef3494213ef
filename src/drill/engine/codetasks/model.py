"""The data a code task is made of (no numpy at import time)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from drill.i18n import _

SOLUTIONS = Path(__file__).parent / "solutions"


@dataclass(frozen=True)
class Output:
    """One returned value: its name in the prompt, the engine step it corresponds to, and its kind."""

    name: str
    step: str
    kind: str = "float"  # "float" (compared to 1e-6) or "bool" (compared exactly)


@dataclass(frozen=True)
class Case:
    """One hidden test: positional ``args`` and ``kwargs`` for the learner's function.

    ``name`` is stable (``random-3`` or an edge case's name); ``pitfall`` is the id of the mistake the case is
    there to catch (None for random cases); ``expect_error`` means the function must refuse these inputs
    (raise), e.g. d_model not divisible by h.
    """

    name: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    pitfall: str | None = None
    expect_error: bool = False

    def describe_inputs(self) -> str:
        parts = [_describe(a) for a in self.args] + [f"{k}={_describe(v)}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


def _describe(value) -> str:
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"{getattr(value.dtype, 'name', value.dtype)}{list(shape)}"
    return repr(value)


@dataclass(frozen=True)
class Task:
    name: str  # the function the learner writes; also the CLI name
    number: int
    section: str
    # drill's own words, English msgids (N_-marked where the task is made) shown in the UI language through the
    # catalogs: `title` and `prompt` below
    title_msgid: str
    prompt_msgid: str  # Markdown with $LaTeX$
    formula: str  # LaTeX, no $
    signature: str  # e.g. "softmax(x)"
    outputs: tuple[Output, ...]  # what the function returns, in return order
    order: tuple[int, ...]  # the outputs' indices in the order the computation produces them
    budget_s: int
    make_cases: Callable  # (numpy Generator) -> list[Case]
    oracle: Callable  # the engine's computation, same signature as the task

    @property
    def title(self) -> str:
        """The task's title in the UI language (drill.i18n)."""
        return _(self.title_msgid)

    @property
    def prompt(self) -> str:
        """What to compute, in the UI language (drill.i18n): Markdown with $LaTeX$."""
        return _(self.prompt_msgid)

    def starter(self) -> str:
        returns = ", ".join(o.name for o in self.outputs)
        return (
            "import numpy as np\n\n\n"
            f"def {self.signature}:\n"
            f'    """{self.title}（{self.section}）"""\n'
            f"    # TODO: return {returns}\n"
            "    raise NotImplementedError\n"
        )

    def solution(self) -> str:
        return (SOLUTIONS / f"{self.name}.py").read_text(encoding="utf-8")

    def cases(self, seed: int) -> list[Case]:
        import numpy as np

        return self.make_cases(np.random.default_rng(seed))

    def expected(self, case: Case) -> tuple:
        """The engine's outputs for ``case``, always a tuple (one entry per `Output`)."""
        result = self.oracle(*case.args, **case.kwargs)
        return result if isinstance(result, tuple) else (result,)


def normal(rng, *shape, scale=1.0):
    """Random float64 inputs of ``shape`` for the hidden tests (``rng``: a numpy Generator)."""
    return rng.normal(0, scale, shape)
