"""The one registry of named mistakes: ``MISTAKES`` (id -> `Mistake`), filled by the ``@mistake`` decorator of
each topic module of drill.engine.mistakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Mistake:
    id: str
    task: str
    section: str
    step: str
    wording: str
    verbatim: bool
    wrong: Callable

    def evaluate(self, *args, **kwargs):
        """The wrong computation on the given inputs (floating-point warnings silenced: overflow is the point)."""
        with np.errstate(all="ignore"):
            return self.wrong(*args, **kwargs)


MISTAKES: dict[str, Mistake] = {}


def mistake(task: str, name: str, section: str, step: str, wording: str, *, verbatim: bool = True):
    """Register the decorated function as the wrong computation of mistake ``task/name``."""

    def register(fn: Callable) -> Callable:
        mid = f"{task}/{name}"
        if mid in MISTAKES:
            raise ValueError(f"duplicate mistake id {mid}")
        MISTAKES[mid] = Mistake(mid, task, section, step, wording.strip(), verbatim, fn)
        return fn

    return register


def mistakes_for(task: str) -> list[Mistake]:
    return [m for m in MISTAKES.values() if m.task == task]
