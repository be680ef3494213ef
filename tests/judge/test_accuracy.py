"""The judge against the labels written before it (tests/judge/labels): the issue's goals, per language, on the
tuning set and on the held-out set the judge was never tuned on."""

from __future__ import annotations

import pytest

from tests.judge.labelled import GOALS, SETS, figures, load


@pytest.fixture(scope="module", params=SETS)
def per_language(request):
    return request.param, figures(load(request.param))


def test_the_labelled_set_is_what_the_issue_asks_for():
    answers = [a for name in SETS for a in load(name)]
    assert len(answers) >= 150
    assert len({a.card for a in answers}) >= 30
    assert sum(a.lang == "en" for a in answers) / len(answers) >= 0.30
    assert sum(bool(a.misconceptions) for a in answers) >= 25
    tune, held = ({a.text for a in load(name)} for name in SETS)
    assert not tune & held  # no answer in both sets


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_point_labels_agree(per_language, lang):
    name, figs = per_language
    f = figs[lang]
    assert f.agreement >= GOALS["agreement"], (name, lang, f.agreement, f.misses)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_few_points_falsely_covered(per_language, lang):
    name, figs = per_language
    f = figs[lang]
    assert f.false_covered_rate <= GOALS["false_covered"], (name, lang, f.false_covered_rate, f.misses)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_misconceptions_caught_without_false_alarms(per_language, lang):
    name, figs = per_language
    f = figs[lang]
    assert f.stated > 0
    assert f.recall >= GOALS["recall"], (name, lang, f.recall, f.misses)
    assert f.false_alarm_rate <= GOALS["false_alarms"], (name, lang, f.false_alarm_rate, f.misses)
