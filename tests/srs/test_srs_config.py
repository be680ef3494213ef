"""The TOML settings file: defaults, validation with file/key/range in the message, round trips."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill import paths
from drill.errors import DrillError
from drill.srs import DEFAULT_CONFIG, schedule
from drill.srs.config import (
    SETTINGS,
    ConfigError,
    SrsConfig,
    format_duration,
    load_config,
    parse_duration,
    reset_value,
    set_value,
    set_values,
)
from drill.srs.scheduler import fsrs_scheduler


@pytest.fixture
def config_file():
    path = paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_missing_file_means_defaults():
    config = load_config()
    assert config == SrsConfig()
    assert (config.desired_retention, config.new_per_day, config.reviews_per_day) == (0.9, 20, 200)
    assert config.learning_steps == (timedelta(minutes=1), timedelta(minutes=10))
    assert config.relearning_steps == (timedelta(minutes=10),)
    assert (config.maximum_interval, config.enable_fuzzing, config.parameters) == (36500, True, None)
    assert (config.day_starts_at, config.leech_threshold, config.leech_action) == (4, 8, "suspend")
    assert all(config.source(key) == "default" for key in SETTINGS)


def test_defaults_are_fsrs_defaults():
    from fsrs import Scheduler

    ours, theirs = fsrs_scheduler(DEFAULT_CONFIG), Scheduler()
    assert ours.parameters == theirs.parameters
    assert ours.desired_retention == theirs.desired_retention
    assert ours.learning_steps == theirs.learning_steps and ours.relearning_steps == theirs.relearning_steps
    assert ours.maximum_interval == theirs.maximum_interval


def test_file_values_and_sources(config_file):
    config_file.write_text(
        'desired_retention = 0.85\nlearning_steps = ["30s", "5m", "1h"]\nday_starts_at = 0\n'
    )
    config = load_config()
    assert config.desired_retention == 0.85
    assert config.learning_steps == (timedelta(seconds=30), timedelta(minutes=5), timedelta(hours=1))
    assert config.day_starts_at == 0
    assert config.source("desired_retention") == "file" and config.source("new_per_day") == "default"


@pytest.mark.parametrize(
    ("text", "key", "allowed"),
    [
        ("desired_retention = 0.5", "desired_retention", "0.7 to 0.99"),
        ("desired_retention = 1.0", "desired_retention", "0.7 to 0.99"),
        ('desired_retention = "high"', "desired_retention", "0.7 to 0.99"),
        ("desired_retention = nan", "desired_retention", "0.7 to 0.99"),
        ('learning_steps = ["1 minute"]', "learning_steps", "durations"),
        ('learning_steps = ["0m"]', "learning_steps", "durations"),
        ("learning_steps = [1, 10]", "learning_steps", "durations"),
        ("maximum_interval = 0", "maximum_interval", "1 to 36500"),
        ("maximum_interval = 3.5", "maximum_interval", "1 to 36500"),
        ('enable_fuzzing = "yes"', "enable_fuzzing", "true or false"),
        ("new_per_day = -1", "new_per_day", "0 to 9999"),
        ("new_per_day = true", "new_per_day", "0 to 9999"),
        ("reviews_per_day = 1e9", "reviews_per_day", "0 to 99999"),
        ("day_starts_at = 24", "day_starts_at", "0 to 23"),
        ("leech_threshold = 0", "leech_threshold", "1 to 99"),
        ('leech_action = "delete"', "leech_action", "suspend or tag"),
        ("parameters = [1.0, 2.0]", "parameters", "21 FSRS-6 weights"),
        ("parameters = [" + ", ".join(["500.0"] * 21) + "]", "parameters", "21 FSRS-6 weights"),
    ],
)
def test_bad_value_names_file_key_and_range(config_file, text, key, allowed):
    config_file.write_text(text + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config()
    message = str(caught.value)
    assert str(config_file) in message and key in message and allowed in message
    assert isinstance(caught.value, DrillError) and caught.value.exit_code == 2


def test_bad_toml_names_the_file_and_line(config_file):
    config_file.write_text("desired_retention = 0.9\nleech_action = suspend\n")
    with pytest.raises(ConfigError, match=r"drill\.toml: not valid TOML: .*line 2"):
        load_config()


def test_not_utf8(config_file):
    config_file.write_bytes(b'leech_action = "\xff"\n')
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config()


def test_unknown_key_suggests_the_right_one(config_file):
    config_file.write_text("desired_retension = 0.9\n")
    with pytest.raises(
        ConfigError,
        match=r"drill\.toml: unknown setting 'desired_retension' \(did you mean desired_retention\?\)",
    ):
        load_config()


def test_durations():
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration(" 1.5h ") == timedelta(minutes=90)
    assert [format_duration(timedelta(seconds=s)) for s in (30, 60, 600, 3600, 86400, 90)] == [
        "30s",
        "1m",
        "10m",
        "1h",
        "1d",
        "90s",
    ]
    for bad in ("", "10", "m", "-1m", "1w", "0s"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_set_validates_and_writes(config_file):
    config = set_value("desired_retention", "0.85")
    assert config.desired_retention == 0.85 and config.source("desired_retention") == "file"
    assert tomllib.loads(config_file.read_text()) == {"desired_retention": 0.85}
    set_value("learning_steps", "1m, 10m 1h")
    set_value("relearning_steps", "")
    set_value("enable_fuzzing", "off")
    config = load_config()
    assert config.learning_steps == (timedelta(minutes=1), timedelta(minutes=10), timedelta(hours=1))
    assert config.relearning_steps == () and config.enable_fuzzing is False
    assert tomllib.loads(config_file.read_text())["learning_steps"] == ["1m", "10m", "1h"]


@pytest.mark.parametrize(
    ("key", "text", "needle"),
    [
        ("desired_retention", "0.995", "0.7 to 0.99"),
        ("desired_retention", "lots", "expected a number"),
        ("day_starts_at", "4.5", "whole number"),
        ("leech_action", "bury", "suspend or tag"),
        ("learning_steps", "1x", "duration"),
        ("parameters", "1,2,3", "21"),
        # too long for a timedelta: was an OverflowError traceback
        ("learning_steps", "99999999999d", "longer than a year"),
        ("relearning_steps", "1e9d", "duration"),
    ],
)
def test_set_refuses_bad_values_and_leaves_the_file(config_file, key, text, needle):
    set_value("new_per_day", "10")
    before = config_file.read_bytes()
    with pytest.raises(ConfigError, match=needle) as caught:
        set_value(key, text)
    assert key in str(caught.value)
    assert config_file.read_bytes() == before


def test_set_refuses_to_overwrite_a_broken_file(config_file):
    config_file.write_text("day_starts_at = 99\n")
    with pytest.raises(ConfigError, match="day_starts_at"):
        set_value("new_per_day", "10")
    assert config_file.read_text() == "day_starts_at = 99\n"


def test_reset(config_file):
    set_value("new_per_day", "5")
    set_value("leech_threshold", "4")
    config = reset_value("new_per_day")
    assert (
        config.new_per_day == 20 and config.source("new_per_day") == "default" and config.leech_threshold == 4
    )


durations = st.integers(min_value=1, max_value=7 * 24 * 60).map(lambda m: timedelta(minutes=m))
config_values = st.fixed_dictionaries(
    {},
    optional={
        "desired_retention": st.floats(min_value=0.7, max_value=0.99),
        "learning_steps": st.lists(durations, max_size=4).map(tuple),
        "relearning_steps": st.lists(durations, max_size=4).map(tuple),
        "maximum_interval": st.integers(min_value=1, max_value=36500),
        "enable_fuzzing": st.booleans(),
        "parameters": st.just(None)
        | st.just(tuple(float(w) for w in __import__("fsrs").scheduler.DEFAULT_PARAMETERS)),
        "new_per_day": st.integers(min_value=0, max_value=9999),
        "reviews_per_day": st.integers(min_value=0, max_value=99999),
        "day_starts_at": st.integers(min_value=0, max_value=23),
        "leech_threshold": st.integers(min_value=1, max_value=99),
        "leech_action": st.sampled_from(["suspend", "tag"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(values=config_values)
def test_round_trip(values):
    path = paths.config_file()
    path.unlink(missing_ok=True)
    written = set_values(values)
    assert written == replace(DEFAULT_CONFIG, **values)
    assert load_config() == written
    assert {key for key in SETTINGS if written.source(key) == "file"} == set(values)


def test_config_changes_scheduling(config_file):
    from drill.srs import Grade, new_card_state
    from tests.srs.srs_strategies import T0

    set_value("learning_steps", "2m 20m")
    config = load_config()
    assert schedule(new_card_state(T0), Grade.AGAIN, T0, config).interval == timedelta(minutes=2)


def test_each_setting_is_declared_once_in_the_dataclass():
    """SETTINGS is derived from SrsConfig's declarations: every field but `sources`, each with help and allowed."""
    import dataclasses

    assert [spec.name for spec in SETTINGS.values()] == [
        f.name for f in dataclasses.fields(SrsConfig) if f.name != "sources"
    ]
    for key, spec in SETTINGS.items():
        assert spec.help and spec.rule.allowed, key
        assert getattr(DEFAULT_CONFIG, spec.name) == spec.default
        assert spec.rule.check(spec.rule.dump(spec.default)) == spec.default  # TOML round trip
