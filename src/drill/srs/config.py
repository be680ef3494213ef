"""Scheduling settings: a flat TOML file at ``drill.paths.config_file()``.

A missing file (or a missing key) means the default. Every value is validated on load; a bad one is a
``ConfigError`` naming the file, the key and what is allowed — never a traceback. Unknown keys are errors too
(a typo would otherwise be silently ignored).

Durations (learning and relearning steps) are written as ``"30s"``, ``"1m"``, ``"10m"``, ``"1h"``, ``"1d"``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from drill.errors import InputError
from drill.i18n import LANGUAGES, _

# FSRS-6 has 21 weights; their bounds are fsrs.scheduler.LOWER/UPPER_BOUNDS_PARAMETERS (checked on load).
FSRS_PARAMETER_COUNT = 21


class ConfigError(InputError):
    """A config value (in the file or on the command line) is invalid."""


@dataclass(frozen=True, slots=True)
class SrsConfig:
    desired_retention: float = 0.9
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)
    maximum_interval: int = 36500
    enable_fuzzing: bool = True
    parameters: tuple[float, ...] | None = None  # None: py-fsrs's defaults; set by `drill optimize`
    new_per_day: int = 20
    reviews_per_day: int = 200
    day_starts_at: int = 4
    leech_threshold: int = 8
    leech_action: str = "suspend"  # a leech is always tagged; "suspend" also suspends it
    ui_language: str | None = None  # `ui.language`: zh or en; None: the locale decides (drill.i18n)
    # Where each value came from: key -> "default" | "file". Not part of equality (two configs with the
    # same values schedule identically).
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")


DEFAULT_CONFIG = SrsConfig()

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


# ---------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Setting:
    key: str
    allowed: str  # shown in error messages and `drill config`
    from_toml: Callable[[Any], Any]  # TOML value -> python value; ValueError if out of range
    to_toml: Callable[[Any], Any]
    from_text: Callable[[str], Any]  # command-line text -> python value
    help: str


def _number(low: float, high: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"expected a number, got {value!r}")
        value = float(value)
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError(f"{value:g} is out of range")
        return value

    return check


def _integer(low: int, high: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{value} is out of range")
        return value

    return check


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _bool_text(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"true", "yes", "on", "1"}:
        return True
    if lowered in {"false", "no", "off", "0"}:
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _steps(value: Any) -> tuple[timedelta, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f'expected a list of durations like ["1m", "10m"], got {value!r}')
    steps = tuple(parse_duration(item) for item in value)
    return steps


def _steps_text(text: str) -> tuple[timedelta, ...]:
    parts = [part for part in re.split(r"[\s,]+", text.strip().strip("[]")) if part]
    return _steps([part.strip("\"'") for part in parts])


def _parameters(value: Any) -> tuple[float, ...] | None:
    if value is None or value == []:
        return None
    if not isinstance(value, list) or not all(
        isinstance(item, int | float) and not isinstance(item, bool) for item in value
    ):
        raise ValueError(f"expected a list of {FSRS_PARAMETER_COUNT} numbers")
    if len(value) != FSRS_PARAMETER_COUNT:
        raise ValueError(f"expected {FSRS_PARAMETER_COUNT} numbers (FSRS-6 weights), got {len(value)}")
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    for index, (weight, low, high) in enumerate(
        zip(value, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    ):
        if not low <= weight <= high:
            raise ValueError(f"weight {index} = {weight:g} is outside FSRS's bounds {low:g}..{high:g}")
    return tuple(float(weight) for weight in value)


def _parameters_text(text: str) -> tuple[float, ...] | None:
    stripped = text.strip()
    if stripped.lower() in {"", "default", "none", "[]"}:
        return None
    parts = [part for part in re.split(r"[\s,]+", stripped.strip("[]")) if part]
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"expected {FSRS_PARAMETER_COUNT} numbers separated by commas") from None
    return _parameters(numbers)


def _choice(*options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options:
            raise ValueError(f"{value!r} is not one of {', '.join(options)}")
        return value

    return check


def _int_text(check: Callable[[Any], int]) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            number = int(text.strip())
        except ValueError:
            raise ValueError(f"expected a whole number, got {text!r}") from None
        return check(number)

    return parse


def _float_text(check: Callable[[Any], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            number = float(text.strip())
        except ValueError:
            raise ValueError(f"expected a number, got {text!r}") from None
        return check(number)

    return parse


def _same(value: Any) -> Any:
    return value


def _steps_toml(steps: tuple[timedelta, ...]) -> list[str]:
    return [format_duration(step) for step in steps]


_retention = _number(0.7, 0.99)
_max_interval = _integer(1, 36500)
_new_per_day = _integer(0, 9999)
_reviews_per_day = _integer(0, 99999)
_day_start = _integer(0, 23)
_leech_threshold = _integer(1, 99)
_leech_action = _choice("suspend", "tag")
_language = _choice(*LANGUAGES)

SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("desired_retention", "a number from 0.7 to 0.99", _retention, _same,
                _float_text(_retention), "probability of recall FSRS aims for at each review"),
        Setting("learning_steps", "a list of durations like [\"1m\", \"10m\"] (may be empty)", _steps,
                _steps_toml, _steps_text, "steps a new card goes through before its first interval in days"),
        Setting("relearning_steps", "a list of durations like [\"10m\"] (may be empty)", _steps,
                _steps_toml, _steps_text, "steps a forgotten card goes through before returning to review"),
        Setting("maximum_interval", "a whole number of days from 1 to 36500", _max_interval, _same,
                _int_text(_max_interval), "longest interval between reviews, in days"),
        Setting("enable_fuzzing", "true or false", _boolean, _same, lambda t: _boolean(_bool_text(t)),
                "spread review intervals a little so cards learnt together don't stay together"),
        Setting("parameters", f"{FSRS_PARAMETER_COUNT} FSRS-6 weights within FSRS's bounds, or empty",
                _parameters, lambda p: list(p) if p else [], _parameters_text,
                "FSRS-6 weights fitted by `drill optimize` (empty: FSRS's defaults)"),
        Setting("new_per_day", "a whole number from 0 to 9999", _new_per_day, _same,
                _int_text(_new_per_day), "new cards introduced per study day"),
        Setting("reviews_per_day", "a whole number from 0 to 99999", _reviews_per_day, _same,
                _int_text(_reviews_per_day), "reviews shown per study day"),
        Setting("day_starts_at", "an hour from 0 to 23", _day_start, _same, _int_text(_day_start),
                "local hour at which a new study day begins (Anki uses 4)"),
        Setting("leech_threshold", "a whole number of lapses from 1 to 99", _leech_threshold, _same,
                _int_text(_leech_threshold), "lapses after which a card is a leech"),
        Setting("leech_action", "suspend or tag", _leech_action, _same, lambda t: _leech_action(t.strip()),
                "what happens to a leech: always tagged; 'suspend' also suspends it"),
        Setting("ui.language", " or ".join(LANGUAGES), _language, _same, lambda t: _language(t.strip()),
                "language of drill's own words (unset: the locale, LC_ALL / LC_MESSAGES / LANG)"),
    )
}  # fmt: skip


def _attr(key: str) -> str:
    """The SrsConfig field of a setting: `ui.language` (a [ui] table in the file) is `ui_language`."""
    return key.replace(".", "_")


assert {_attr(key) for key in SETTINGS} == {f.name for f in fields(SrsConfig)} - {"sources"}


# ---------------------------------------------------------------------------------------------- load/save


def config_path(path: str | Path | None = None) -> Path:
    """``path``, or the user's drill.toml."""
    if path is not None:
        return Path(path)
    from drill.paths import config_file

    return config_file()


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the config file: {err.strerror or err}") from None
    try:
        return _flatten(tomllib.loads(raw.decode("utf-8")))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the config file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None


def _flatten(data: dict[str, Any]) -> dict[str, Any]:
    """A [ui] table's keys as `ui.language` (the name `drill config` uses); other tables are left whole (and
    reported as unknown settings)."""
    flat = {key: value for key, value in data.items() if key != "ui" or not isinstance(value, dict)}
    if isinstance(data.get("ui"), dict):
        flat.update({f"ui.{key}": value for key, value in data["ui"].items()})
    return flat


def _nest(data: dict[str, Any]) -> dict[str, Any]:
    """`ui.language` back into a [ui] table for the file."""
    nested: dict[str, Any] = {}
    for key, value in data.items():
        table, dot, name = key.partition(".")
        if dot:
            nested.setdefault(table, {})[name] = value
        else:
            nested[key] = value
    return nested


def unknown_setting(path: Path | str, key: str) -> ConfigError:
    import difflib

    close = difflib.get_close_matches(key, SETTINGS, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return ConfigError(f"{path}: unknown setting {key!r}{hint}; known settings: {', '.join(SETTINGS)}")


def config_from_mapping(data: dict[str, Any], origin: str | Path = "<config>") -> SrsConfig:
    """Validate a mapping of settings (as read from TOML) into an SrsConfig."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, raw in data.items():
        setting = SETTINGS.get(key)
        if setting is None:
            raise unknown_setting(origin, key)
        try:
            values[_attr(key)] = setting.from_toml(raw)
        except ValueError as err:
            raise ConfigError(f"{origin}: {key}: {err}; allowed: {setting.allowed}") from None
        sources[key] = "file"
    return replace(DEFAULT_CONFIG, **values, sources=sources)


def load_config(path: str | Path | None = None) -> SrsConfig:
    """The settings in ``path`` (default: the user's drill.toml); defaults where absent."""
    path = config_path(path)
    return config_from_mapping(_read_toml(path), path)


def parse_setting(key: str, text: str) -> Any:
    """A command-line value for ``key`` -> its python value (ConfigError naming the key if bad)."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise unknown_setting("drill config", key)
    try:
        return setting.from_text(text)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}; allowed: {setting.allowed}") from None


def _write_toml(path: Path, data: dict[str, Any]) -> None:
    import tempfile

    import tomli_w

    text = tomli_w.dumps(_nest(data))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write-then-rename so a crash never leaves half a config file.
    fd, tmp = tempfile.mkstemp(prefix=".drill-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def set_values(values: dict[str, Any], path: str | Path | None = None) -> SrsConfig:
    """Store python values for some settings (validated) and return the new config.

    The file must already be valid: a broken file is reported, not overwritten.
    """
    path = config_path(path)
    data = _read_toml(path)
    config_from_mapping(data, path)  # refuse to build on a broken file
    for key, value in values.items():
        setting = SETTINGS.get(key)
        if setting is None:
            raise unknown_setting(path, key)
        data[key] = setting.to_toml(value)
        try:
            setting.from_toml(data[key])
        except ValueError as err:
            raise ConfigError(f"{key}: {err}; allowed: {setting.allowed}") from None
    _write_toml(path, data)
    return load_config(path)


def set_value(key: str, text: str, path: str | Path | None = None) -> SrsConfig:
    """`drill config set KEY VALUE`: parse, validate and write one setting."""
    return set_values({key: parse_setting(key, text)}, path)


def reset_value(key: str, path: str | Path | None = None) -> SrsConfig:
    """Remove a setting from the file so its default applies again."""
    path = config_path(path)
    if key not in SETTINGS:
        raise unknown_setting(path, key)
    data = _read_toml(path)
    config_from_mapping(data, path)
    if key in data:
        del data[key]
        _write_toml(path, data)
    return load_config(path)


def display_value(key: str, config: SrsConfig) -> str:
    """A setting's value as the user would type it."""
    value = getattr(config, _attr(key))
    if key in ("learning_steps", "relearning_steps"):
        return "[" + ", ".join(format_duration(step) for step in value) + "]"
    if key == "parameters":
        return _("(FSRS defaults)") if value is None else "[" + ", ".join(f"{w:.4f}" for w in value) + "]"
    if value is None:
        return _("(from the locale)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


__all__ = [
    "DEFAULT_CONFIG",
    "SETTINGS",
    "ConfigError",
    "Setting",
    "SrsConfig",
    "config_from_mapping",
    "config_path",
    "display_value",
    "format_duration",
    "load_config",
    "parse_duration",
    "parse_setting",
    "reset_value",
    "set_value",
    "set_values",
    "unknown_setting",
]
