"""The rules of the scheduling settings' values (drill.fields.Rule): numbers, whole numbers, true/false, a
choice, learning steps (durations written "30s", "10m", "1h", "1d"), FSRS weights and the UI language — each with
its check (a TOML value), parse (`drill config set` text), dump and show. `SrsConfig` (drill.srs.config)
declares each setting with one of them.
"""

from __future__ import annotations

import math
import re
from datetime import timedelta
from typing import Any

from drill.fields import Invalid, Rule
from drill.i18n import _

# FSRS-6 has 21 weights; their bounds are fsrs.scheduler.LOWER/UPPER_BOUNDS_PARAMETERS (checked on load).
FSRS_PARAMETER_COUNT = 21


# ---------------------------------------------------------------------------------------------- durations

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_MAX_STEP = timedelta(days=365)


def parse_duration(text: str) -> timedelta:
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a duration like 30s, 10m, 1h or 1d")
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds <= 0:
        raise ValueError(f"{text!r} must be longer than zero")
    if seconds > _MAX_STEP.total_seconds():  # (and beyond timedelta's range: OverflowError)
        raise ValueError(f"{text!r}: a step longer than a year is not a learning step")
    return timedelta(seconds=seconds)


def format_duration(delta: timedelta) -> str:
    seconds = delta.total_seconds()
    for unit in ("d", "h", "m", "s"):
        size = _UNIT_SECONDS[unit]
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


# ---------------------------------------------------------------------------------------------- rules


class Number(Rule):
    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high
        self.allowed = f"a number from {low:g} to {high:g}"

    def check(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise Invalid(f"expected a number, got {value!r}")
        value = float(value)
        if not (math.isfinite(value) and self.low <= value <= self.high):
            raise Invalid(f"{value:g} is out of range")
        return value

    def parse(self, text: str) -> float:
        try:
            number = float(text.strip())
        except ValueError:
            raise Invalid(f"expected a number, got {text!r}") from None
        return self.check(number)

    def show(self, value: float) -> str:
        return f"{value:g}"


class Integer(Rule):
    def __init__(self, low: int, high: int, allowed: str) -> None:
        self.low, self.high, self.allowed = low, high, allowed

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"expected a whole number, got {value!r}")
        if not self.low <= value <= self.high:
            raise Invalid(f"{value} is out of range")
        return value

    def parse(self, text: str) -> int:
        try:
            number = int(text.strip())
        except ValueError:
            raise Invalid(f"expected a whole number, got {text!r}") from None
        return self.check(number)


class Boolean(Rule):
    allowed = "true or false"

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise Invalid(f"expected true or false, got {value!r}")
        return value

    def parse(self, text: str) -> bool:
        lowered = text.strip().lower()
        if lowered in {"true", "yes", "on", "1"}:
            return True
        if lowered in {"false", "no", "off", "0"}:
            return False
        raise Invalid(f"expected true or false, got {text!r}")

    def show(self, value: bool) -> str:
        return "true" if value else "false"


class Choice(Rule):
    def __init__(self, *options: str) -> None:
        self.options = options
        self.allowed = " or ".join(options)

    def check(self, value: Any) -> str:
        if value not in self.options:
            raise Invalid(f"{value!r} is not one of {', '.join(self.options)}")
        return value

    def parse(self, text: str) -> str:
        return self.check(text.strip())


class Steps(Rule):
    """Learning or relearning steps: durations written "30s", "10m", "1h", "1d"."""

    def __init__(self, example: str) -> None:
        self.allowed = f"a list of durations like {example} (may be empty)"

    def check(self, value: Any) -> tuple[timedelta, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise Invalid(f'expected a list of durations like ["1m", "10m"], got {value!r}')
        try:
            return tuple(parse_duration(item) for item in value)
        except ValueError as err:
            raise Invalid(str(err)) from None

    def dump(self, value: tuple[timedelta, ...]) -> list[str]:
        return [format_duration(step) for step in value]

    def parse(self, text: str) -> tuple[timedelta, ...]:
        parts = [part for part in re.split(r"[\s,]+", text.strip().strip("[]")) if part]
        return self.check([part.strip("\"'") for part in parts])

    def show(self, value: tuple[timedelta, ...]) -> str:
        return "[" + ", ".join(format_duration(step) for step in value) + "]"


class Parameters(Rule):
    """FSRS-6 weights within FSRS's own bounds; empty (None) for FSRS's defaults."""

    allowed = f"{FSRS_PARAMETER_COUNT} FSRS-6 weights within FSRS's bounds, or empty"

    def check(self, value: Any) -> tuple[float, ...] | None:
        if value is None or value == []:
            return None
        if not isinstance(value, list) or not all(
            isinstance(item, int | float) and not isinstance(item, bool) for item in value
        ):
            raise Invalid(f"expected a list of {FSRS_PARAMETER_COUNT} numbers")
        if len(value) != FSRS_PARAMETER_COUNT:
            raise Invalid(f"expected {FSRS_PARAMETER_COUNT} numbers (FSRS-6 weights), got {len(value)}")
        from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

        for index, (weight, low, high) in enumerate(
            zip(value, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
        ):
            if not low <= weight <= high:
                raise Invalid(f"weight {index} = {weight:g} is outside FSRS's bounds {low:g}..{high:g}")
        return tuple(float(weight) for weight in value)

    def dump(self, value: tuple[float, ...] | None) -> list[float]:
        return list(value) if value else []

    def parse(self, text: str) -> tuple[float, ...] | None:
        stripped = text.strip()
        if stripped.lower() in {"", "default", "none", "[]"}:
            return None
        parts = [part for part in re.split(r"[\s,]+", stripped.strip("[]")) if part]
        try:
            numbers = [float(part) for part in parts]
        except ValueError:
            raise Invalid(f"expected {FSRS_PARAMETER_COUNT} numbers separated by commas") from None
        return self.check(numbers)

    def show(self, value: tuple[float, ...] | None) -> str:
        return _("(FSRS defaults)") if value is None else "[" + ", ".join(f"{w:.4f}" for w in value) + "]"


class Language(Choice):
    """drill's UI language (drill.i18n); unset (None, the default): the locale decides."""

    def check(self, value: Any) -> str | None:
        return None if value is None else super().check(value)

    def show(self, value: str | None) -> str:
        return _("(from the locale)") if value is None else value


class Shares(Rule):
    """How the daily new cards are shared among the skills (drill.content.skills.SKILLS): written
    ``"recall=6, explain=2, calculate=1, code=1"`` (relative weights; a skill left out gets 0; not all 0)."""

    def __init__(self, skills: tuple[str, ...]) -> None:
        self.skills = skills
        self.allowed = "weights like " + ", ".join(f"{s}=1" for s in skills) + " (not all 0)"

    def check(self, value: Any) -> tuple[float, ...]:
        if not isinstance(value, str):
            raise Invalid(
                f"expected a text like {self.dump(tuple(1.0 for _ in self.skills))!r}, got {value!r}"
            )
        weights = dict.fromkeys(self.skills, 0.0)
        for part in (p.strip() for p in re.split(r"[,;]", value)):
            if not part:
                continue
            name, eq, number = (t.strip() for t in part.partition("="))
            if not eq:
                raise Invalid(f"{part!r} is not skill=weight")
            if name not in weights:
                raise Invalid(f"{name!r} is not a skill (skills: {', '.join(self.skills)})")
            try:
                weight = float(number)
            except ValueError:
                raise Invalid(f"{name}: {number!r} is not a number") from None
            if not (math.isfinite(weight) and 0 <= weight <= 1000):
                raise Invalid(f"{name}: {number} is not a weight from 0 to 1000")
            weights[name] = weight
        if not any(weights.values()):
            raise Invalid("every skill's weight is 0: give at least one a weight")
        return tuple(weights[s] for s in self.skills)

    def parse(self, text: str) -> tuple[float, ...]:
        return self.check(text)

    def dump(self, value: tuple[float, ...]) -> str:
        return ", ".join(f"{s}={w:g}" for s, w in zip(self.skills, value, strict=True))

    def show(self, value: tuple[float, ...]) -> str:
        return self.dump(value)
