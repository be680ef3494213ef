"""Study days start at a local hour; bounds stay right across DST changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.srs import day_bounds, next_day_start, study_day
from drill.srs.days import day_start, local_timezone

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
ZONES = [
    ZoneInfo(name)
    for name in (
        "UTC",
        "Europe/Berlin",
        "America/New_York",
        "Asia/Shanghai",
        "Australia/Lord_Howe",
        "America/Santiago",
        "Asia/Kolkata",
        "Pacific/Chatham",
        "America/St_Johns",
    )
]


def local(zone, *args):
    return datetime(*args, tzinfo=zone)


def test_0359_and_0401_are_different_study_days():
    before = local(BERLIN, 2026, 6, 10, 3, 59)
    after = local(BERLIN, 2026, 6, 10, 4, 1)
    assert study_day(before, 4, BERLIN) == date(2026, 6, 9)
    assert study_day(after, 4, BERLIN) == date(2026, 6, 10)
    # The same instants given in UTC (as the store hands them out) land on the same days.
    assert study_day(before.astimezone(UTC), 4, BERLIN) == date(2026, 6, 9)
    assert study_day(after.astimezone(UTC).replace(tzinfo=None), 4, BERLIN) == date(2026, 6, 10)


def test_midnight_day_start_is_the_calendar_date():
    assert study_day(local(NEW_YORK, 2026, 1, 1, 0, 0), 0, NEW_YORK) == date(2026, 1, 1)
    assert study_day(local(NEW_YORK, 2025, 12, 31, 23, 59), 0, NEW_YORK) == date(2025, 12, 31)


def test_day_bounds_are_local_start_hours_in_utc():
    start, end = day_bounds(local(BERLIN, 2026, 6, 10, 12, 0), 4, BERLIN)
    assert start == local(BERLIN, 2026, 6, 10, 4, 0) and start.tzinfo is UTC
    assert end == local(BERLIN, 2026, 6, 11, 4, 0)


def test_spring_forward_day_is_23_hours():
    # Europe/Berlin: 2026-03-29 02:00 -> 03:00, inside the study day that began on the 28th at 4 am.
    start, end = day_bounds(local(BERLIN, 2026, 3, 28, 12, 0), 4, BERLIN)
    assert end - start == timedelta(hours=23)
    assert study_day(local(BERLIN, 2026, 3, 29, 3, 59), 4, BERLIN) == date(2026, 3, 28)


def test_fall_back_day_is_25_hours():
    # New York: 2026-11-01 02:00 -> 01:00, inside the study day that began on Oct 31 at 4 am.
    start, end = day_bounds(local(NEW_YORK, 2026, 10, 31, 12, 0), 4, NEW_YORK)
    assert end - start == timedelta(hours=25)


def test_start_hour_inside_the_gap():
    # New York springs forward at 02:00 on 2026-03-08: a 02:00 day start doesn't exist that day.
    start = day_start(date(2026, 3, 8), 2, NEW_YORK)
    assert start == local(NEW_YORK, 2026, 3, 8, 3, 0)  # the transition instant (03:00 EDT)
    just_before = start - timedelta(seconds=1)
    assert study_day(just_before, 2, NEW_YORK) == date(2026, 3, 7)
    assert study_day(start, 2, NEW_YORK) == date(2026, 3, 8)


@settings(max_examples=400, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime(2000, 1, 1), max_value=datetime(2060, 1, 1), timezones=st.just(UTC)
    ),
    hour=st.integers(min_value=0, max_value=23),
    zone=st.sampled_from(ZONES),
)
def test_bounds_contain_now_and_agree_with_study_day(moment, hour, zone):
    start, end = day_bounds(moment, hour, zone)
    assert start <= moment < end
    assert timedelta(hours=22) <= end - start <= timedelta(hours=26)
    day = study_day(moment, hour, zone)
    assert study_day(start, hour, zone) == day
    assert study_day(end - timedelta(microseconds=1), hour, zone) == day
    assert study_day(end, hour, zone) == day + timedelta(days=1)
    assert next_day_start(moment, hour, zone) == end


def test_bury_until_tomorrow_is_the_next_day_start():
    # Late at night (before 4 am) "tomorrow" begins at 4 am the same calendar date.
    now = local(BERLIN, 2026, 6, 10, 1, 30)
    assert next_day_start(now, 4, BERLIN) == local(BERLIN, 2026, 6, 10, 4, 0)
    now = local(BERLIN, 2026, 6, 10, 4, 0)
    assert next_day_start(now, 4, BERLIN) == local(BERLIN, 2026, 6, 11, 4, 0)


def test_bad_hour():
    with pytest.raises(ValueError):
        study_day(datetime(2026, 1, 1, tzinfo=UTC), 24, BERLIN)


def test_local_timezone_follows_tz(monkeypatch):
    local_timezone.cache_clear()
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    try:
        assert local_timezone() == ZoneInfo("Asia/Tokyo")
        assert study_day(datetime(2026, 6, 9, 19, 30, tzinfo=UTC)) == date(2026, 6, 10)  # 04:30 in Tokyo
    finally:
        local_timezone.cache_clear()


@pytest.mark.parametrize(
    "moment,hour,zone",
    [
        # Chatham springs forward 2:45 -> 3:45 (+12:45 -> +13:45): 3:00 on that date does not exist, and the
        # study day starts at the transition, not at 3:00 read with the old offset (which is local 4:00).
        (datetime(2052, 9, 28, tzinfo=UTC), 3, "Pacific/Chatham"),
        (datetime(2026, 9, 26, 14, tzinfo=UTC), 3, "Pacific/Chatham"),
        # A gap that starts on the hour (Berlin 2:00 -> 3:00) and a repeated hour (Berlin 2:00-3:00 twice).
        (datetime(2026, 3, 29, 0, 30, tzinfo=UTC), 2, "Europe/Berlin"),
        (datetime(2026, 10, 25, 0, 30, tzinfo=UTC), 2, "Europe/Berlin"),
    ],
)
def test_day_bounds_across_dst_changes(moment, hour, zone):
    tz = ZoneInfo(zone)
    start, end = day_bounds(moment, hour, tz)
    assert start <= moment < end
    day = study_day(moment, hour, tz)
    for edge, expected in (
        (start, day),
        (end - timedelta(microseconds=1), day),
        (end, day + timedelta(days=1)),
    ):
        assert study_day(edge, hour, tz) == expected, edge.astimezone(tz)
    # the start is the first instant of the day: a microsecond earlier is the day before
    assert study_day(start - timedelta(microseconds=1), hour, tz) == day - timedelta(days=1)
