"""The FSRS-6 forgetting curve: how likely a card is recalled a number of days after its last review.

``R(t) = (1 + factor * t / S) ** decay`` with ``factor = 0.9 ** (1 / decay) - 1``, so that R is 0.9 after
``S`` (the stability) days, ``decay`` being minus the last FSRS parameter (``w[20]``), as py-fsrs computes it.
py-fsrs counts ``t`` in whole days (``(now - last_review).days``); ``elapsed_days`` does the same.

Plain arithmetic: ``retrievability`` takes floats or numpy arrays alike (no numpy import here).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TypeVar

Number = TypeVar("Number")


def decay_of(parameters: Iterable[float] | None = None) -> float:
    """The curve's exponent for these FSRS parameters (py-fsrs's defaults when None): ``-w[20]``."""
    if parameters is None:
        from fsrs.scheduler import DEFAULT_PARAMETERS

        parameters = DEFAULT_PARAMETERS
    return -float(tuple(parameters)[20])


def retrievability(stability: Number, elapsed_days: Number, decay: float) -> Number:
    """The probability of recall ``elapsed_days`` after the last review of a card of this ``stability``
    (days, > 0). Floats give a float; numpy arrays give an array, element by element."""
    factor = 0.9 ** (1 / decay) - 1
    return (1 + factor * elapsed_days / stability) ** decay


def days_until(stability: float, retention: float, decay: float) -> float:
    """The inverse: how many days after the last review recall falls to ``retention`` (fractional days)."""
    factor = 0.9 ** (1 / decay) - 1
    return stability / factor * (retention ** (1 / decay) - 1)


def elapsed_days(last_review: datetime, now: datetime) -> int:
    """Whole days since ``last_review`` as py-fsrs counts them (never negative). Both aware, or both naive."""
    return max(0, (now - last_review).days)


__all__ = ["days_until", "decay_of", "elapsed_days", "retrievability"]
