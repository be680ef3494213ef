"""Scheduling settings: a flat TOML file at ``drill.paths.config_file()``.

A missing file (or a missing key) means the default. Every value is validated on load; a bad one is a
``ConfigError`` naming the file, the key and what is allowed — never a traceback. Unknown keys are errors too
(a typo would otherwise be silently ignored).

Durations (learning and relearning steps) are written as ``"30s"``, ``"1m"``, ``"10m"``, ``"1h"``, ``"1d"``.

Each setting is declared once, in `SrsConfig` (rule, default, help: drill.fields); `SETTINGS`, the TOML reader
and writer, `drill config` and its messages all follow from the declarations. The rules the declarations use
(numbers, durations, FSRS weights, ...) are in drill.srs.setting_rules.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from drill.content.skills import SKILLS
from drill.errors import InputError
from drill.fields import Errors, Spec, declare, specs
from drill.fields import read as read_fields
from drill.i18n import LANGUAGES
from drill.srs.setting_rules import (
    Boolean,
    Choice,
    Integer,
    Language,
    Number,
    Parameters,
    Shares,
    Steps,
    format_duration,
    parse_duration,
)


class ConfigError(InputError):
    """A config value (in the file or on the command line) is invalid."""


# ---------------------------------------------------------------------------------------------- settings

# A generated quiz question's time limit (the same range as `drill quiz --seconds`).
_QUIZ_SECONDS = Integer(1, 3600, "a whole number of seconds from 1 to 3600")


@dataclass(frozen=True, slots=True)
class SrsConfig:
    """The scheduling settings: each is declared once here (rule, default, help) and is a key of drill.toml."""

    desired_retention: float = declare(
        Number(0.7, 0.99), default=0.9, help="probability of recall FSRS aims for at each review"
    )
    learning_steps: tuple[timedelta, ...] = declare(
        Steps('["1m", "10m"]'),
        default=(timedelta(minutes=1), timedelta(minutes=10)),
        help="steps a new card goes through before its first interval in days",
    )
    relearning_steps: tuple[timedelta, ...] = declare(
        Steps('["10m"]'),
        default=(timedelta(minutes=10),),
        help="steps a forgotten card goes through before returning to review",
    )
    maximum_interval: int = declare(
        Integer(1, 36500, "a whole number of days from 1 to 36500"),
        default=36500,
        help="longest interval between reviews, in days",
    )
    enable_fuzzing: bool = declare(
        Boolean(),
        default=True,
        help="spread review intervals a little so cards learnt together don't stay together",
    )
    parameters: tuple[float, ...] | None = declare(
        Parameters(), default=None, help="FSRS-6 weights fitted by `drill optimize` (empty: FSRS's defaults)"
    )
    new_per_day: int = declare(
        Integer(0, 9999, "a whole number from 0 to 9999"),
        default=20,
        help="new cards introduced per study day",
    )
    new_order: str = declare(
        Choice("mixed", "section", "kind"),
        default="mixed",
        help="order of new cards: 'mixed' interleaves the skills by new_mix and the sections, 'section' "
        "follows the chapter, 'kind' the content file (kind by kind)",
    )
    new_mix: tuple[float, ...] = declare(
        Shares(SKILLS),
        default=(6.0, 2.0, 1.0, 1.0),
        help="shares of the new cards by skill when new_order is 'mixed' (relative weights)",
    )
    learn_ahead_minutes: int = declare(
        Integer(0, 1440, "a whole number of minutes from 0 to 1440"),
        default=20,
        help="learning cards due within this many minutes are shown now when nothing else is left (Anki: 20)",
    )
    reviews_per_day: int = declare(
        Integer(0, 99999, "a whole number from 0 to 99999"), default=200, help="reviews shown per study day"
    )
    day_starts_at: int = declare(
        Integer(0, 23, "an hour from 0 to 23"),
        default=4,
        help="local hour at which a new study day begins (Anki uses 4)",
    )
    leech_threshold: int = declare(
        Integer(1, 99, "a whole number of lapses from 1 to 99"),
        default=8,
        help="lapses after which a card is a leech",
    )
    leech_action: str = declare(
        Choice("suspend", "tag"),
        default="suspend",
        help="what happens to a leech: always tagged; 'suspend' also suspends it",
    )
    ui_language: str | None = declare(
        Language(*LANGUAGES),
        default=None,
        key="ui.language",  # a [ui] table in drill.toml
        help="language of drill's own words (unset: the locale, LC_ALL / LC_MESSAGES / LANG)",
    )
    # `drill interview` (a [ui] table too): the time budget, the follow-up chance, the rubric's thresholds
    # (share of a question's key points covered that proposes Easy / Good / Hard; below hard: Again).
    interview_minutes: float = declare(
        Number(0.25, 60),
        default=3.0,
        key="ui.interview_minutes",
        help="drill interview: minutes per question",
    )
    interview_follow_up: float = declare(
        Number(0, 1),
        default=0.5,
        key="ui.interview_follow_up",
        help="drill interview: chance that the next question follows up from the same section",
    )
    rubric_easy: float = declare(
        Number(0, 1), default=1.0, key="ui.rubric_easy", help="drill interview: coverage that proposes Easy"
    )
    rubric_good: float = declare(
        Number(0, 1), default=0.75, key="ui.rubric_good", help="drill interview: coverage that proposes Good"
    )
    rubric_hard: float = declare(
        Number(0, 1), default=0.4, key="ui.rubric_hard", help="drill interview: coverage that proposes Hard"
    )
    # `drill quiz`: the time limit of a generated question, by the work its template asks (drill.content.quizgen
    # WORKS; the defaults' reasons are in docs/quiz.md). The chapter's own quizzes keep `--seconds` (30).
    quiz_seconds_concept: int = declare(
        _QUIZ_SECONDS,
        default=45,
        key="ui.quiz_seconds_concept",
        help="drill quiz: seconds for a generated concept question (a rule and one small step)",
    )
    quiz_seconds_shape: int = declare(
        _QUIZ_SECONDS,
        default=60,
        key="ui.quiz_seconds_shape",
        help="drill quiz: seconds for a generated shape question (dimensions through a product)",
    )
    quiz_seconds_formula: int = declare(
        _QUIZ_SECONDS,
        default=120,
        key="ui.quiz_seconds_formula",
        help="drill quiz: seconds for a generated formula question (a formula worked on given numbers)",
    )
    quiz_seconds_hand: int = declare(
        _QUIZ_SECONDS,
        default=300,
        key="ui.quiz_seconds_hand",
        help="drill quiz: seconds for a generated hand calculation (attention worked from X and the weights)",
    )
    # Where each value came from: key -> "default" | "file". Not part of equality (two configs with the
    # same values schedule identically).
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")


DEFAULT_CONFIG = SrsConfig()
SETTINGS: dict[str, Spec] = {spec.key: spec for spec in specs(SrsConfig)}


class _ConfigErrors(Errors):
    """drill.fields.Errors for the TOML file: the file, the key and what is allowed."""

    def __init__(self, origin: str | Path) -> None:
        self.origin = origin

    def unknown(self, key: Any, known: list[str]) -> ConfigError:
        return unknown_setting(self.origin, str(key))

    def invalid(self, path: tuple, problem: str, spec: Spec | None, values: dict[str, Any]) -> ConfigError:
        allowed = f"; allowed: {spec.rule.allowed}" if spec is not None else ""
        return ConfigError(f"{self.origin}: {path[0]}: {problem}{allowed}")


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
    config = read_fields(SrsConfig, data, _ConfigErrors(origin))
    return replace(config, sources=dict.fromkeys(data, "file"))


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
        return setting.rule.parse(text)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}; allowed: {setting.rule.allowed}") from None


def _sync(table: Any, wanted: dict[str, Any]) -> None:
    """Make a tomlkit table hold ``wanted``: a key whose value is unchanged is left as written (its comments,
    its layout), a changed one is replaced, a gone one removed."""
    for key in [k for k in table if k not in wanted]:
        del table[key]
    for key, value in wanted.items():
        if isinstance(value, dict) and isinstance(table.get(key), dict):
            _sync(table[key], value)
        elif key not in table or table[key] != value:
            table[key] = value


def _write_toml(path: Path, data: dict[str, Any]) -> None:
    """The settings into ``path``, the user's comments and layout kept (tomlkit edits the file's own
    document; a new file starts empty)."""
    import tempfile

    import tomlkit

    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        document = tomlkit.document()
    _sync(document, _nest(data))
    text = tomlkit.dumps(document)
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
        data[key] = setting.rule.dump(value)
        try:
            setting.rule.check(data[key])
        except ValueError as err:
            raise ConfigError(f"{key}: {err}; allowed: {setting.rule.allowed}") from None
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
    return SETTINGS[key].rule.show(getattr(config, SETTINGS[key].name))


__all__ = [
    "DEFAULT_CONFIG",
    "SETTINGS",
    "ConfigError",
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
