"""The grade buttons' intervals are drill's own words: 10m / 3h / 4d / 2.1mo / 1.3y in English, 分钟 / 小时 / 天 /
个月 / 年 in Chinese (the units a Chinese Anki shows), for every range `format_interval` has."""

from __future__ import annotations

from datetime import timedelta

import pytest

import drill.i18n
from drill.srs.scheduler import format_interval

CASES = [
    (timedelta(seconds=20), "1m", "1分钟"),
    (timedelta(minutes=10), "10m", "10分钟"),
    (timedelta(hours=3), "3h", "3小时"),
    (timedelta(days=4), "4d", "4天"),
    (timedelta(days=63), "2.1mo", "2.1个月"),
    (timedelta(days=475), "1.3y", "1.3年"),
]


@pytest.mark.parametrize("delta,english,chinese", CASES, ids=[c[1] for c in CASES])
def test_interval_labels_in_both_languages(delta, english, chinese):
    drill.i18n.set_language("en")
    assert format_interval(delta) == english
    drill.i18n.set_language("zh")
    assert format_interval(delta) == chinese


def test_interval_labels_go_through_the_catalog(pseudo):
    assert format_interval(timedelta(days=63)) == "2.1⟦mo⟧"
