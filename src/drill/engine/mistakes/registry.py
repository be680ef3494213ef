"""The one registry of named mistakes: ``MISTAKES`` (id -> `Mistake`), filled by the ``@mistake`` decorator of
each topic module of drill.engine.mistakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from drill.i18n import _


@dataclass(frozen=True)
class Mistake:
    id: str
    task: str
    section: str
    step: str
    declared: (
        str  # as written in the catalogue: the chapter's words (verbatim), or drill's English marked N_()
    )
    verbatim: bool
    wrong: Callable
    pitfall: bool = False  # verbatim from the section's 常见误区 box (a diagnosis cites "7.9 常见误区")

    @property
    def wording(self) -> str:
        """What the learner reads: the chapter's words as the chapter writes them (content, the same in every
        language) when ``verbatim``, else drill's own wording in the UI language (from the catalogs)."""
        return self.declared if self.verbatim else _(self.declared)

    def evaluate(self, *args, **kwargs):
        """The wrong computation on the given inputs (floating-point warnings silenced: overflow is the point)."""
        with np.errstate(all="ignore"):
            return self.wrong(*args, **kwargs)


MISTAKES: dict[str, Mistake] = {}


def mistake(
    task: str,
    name: str,
    section: str,
    step: str,
    wording: str,
    *,
    verbatim: bool = True,
    pitfall: bool | None = None,
):
    """Register the decorated function as the wrong computation of mistake ``task/name``. ``wording`` is the
    chapter's, word for word, when ``verbatim`` (from the section's 常见误区 box unless ``pitfall=False``: from
    its text); otherwise it is drill's, in English, marked with ``N_()``."""
    pitfall = verbatim if pitfall is None else pitfall

    def register(fn: Callable) -> Callable:
        mid = f"{task}/{name}"
        if mid in MISTAKES:
            raise ValueError(f"duplicate mistake id {mid}")
        if wording != wording.strip():
            raise ValueError(f"mistake {mid}: its wording starts or ends with white space")
        if pitfall and not verbatim:
            raise ValueError(f"mistake {mid}: only the chapter's words come from its 常见误区 box")
        MISTAKES[mid] = Mistake(mid, task, section, step, wording, verbatim, fn, pitfall)
        return fn

    return register


def mistakes_for(task: str) -> list[Mistake]:
    return [m for m in MISTAKES.values() if m.task == task]
