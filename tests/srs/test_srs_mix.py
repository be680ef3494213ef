"""Skills declared once, and the order new cards come in (drill.content.skills, drill.srs.mix), checked against
the shipped content and against properties recomputed in plain Python."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content.kinds import KINDS
from drill.content.quizgen import WORKS
from drill.content.skills import QUIZ_PREFIX, SKILL_OF_KIND, SKILLS, never_tried_text, skill_of
from drill.srs import DEFAULT_CONFIG
from drill.srs.config import ConfigError, config_from_mapping, parse_setting
from drill.srs.mix import interleave, new_card_places, ranked


def test_every_item_kind_has_one_skill():
    for kind in KINDS:
        assert skill_of(kind) in SKILLS
    for work in WORKS:
        assert skill_of(QUIZ_PREFIX + work) in SKILLS
    assert skill_of("interview") == "explain"
    assert set(SKILL_OF_KIND.values()) == set(SKILLS)  # every skill has items
    with pytest.raises(ValueError, match="no skill declared"):
        skill_of("flashcard")


def test_the_skills_of_the_card_kinds():
    # labels written before the code: what an interview asks of each kind
    assert {k: skill_of(k) for k in KINDS} == {
        "qa": "explain",
        "cloze": "recall",
        "formula": "recall",
        "calc": "calculate",
        "code": "code",
    }


def test_never_tried_names_the_items():
    assert never_tried_text("code", 12, 13) == "12 of 13 code tasks never tried"
    assert never_tried_text("calculate", 1, 1) == "1 of 1 hand calculation never tried"


@pytest.fixture(scope="module")
def library():
    from drill.content import load_content

    return load_content()


def _items(library):
    return [(c.id, c.kind, c.section) for c in library.cards.values()]


def test_mixed_every_twenty_new_cards_hold_each_skill_while_it_lasts(library):
    kind = {c.id: c.kind for c in library.cards.values()}
    order = ranked(_items(library), DEFAULT_CONFIG)
    assert sorted(order) == sorted(kind)  # a permutation
    left = Counter(skill_of(k) for k in kind.values())
    for start in range(0, len(order), DEFAULT_CONFIG.new_per_day):
        day = Counter(skill_of(kind[c]) for c in order[start : start + DEFAULT_CONFIG.new_per_day])
        for skill in SKILLS:
            if left[skill] and start + DEFAULT_CONFIG.new_per_day <= len(order):
                assert day[skill] >= 1, (start, skill)
        # table rows never crowd out the rest: at most their share (among the skills with cards left) + 1
        weights = dict(zip(SKILLS, DEFAULT_CONFIG.new_mix, strict=True))
        live = [s for s in SKILLS if left[s]]
        left -= day
        if any(left[s] for s in ("explain", "calculate", "code")):
            share = weights["recall"] / sum(weights[s] for s in live)
            assert day["recall"] <= share * DEFAULT_CONFIG.new_per_day + 1


def test_day_one_holds_a_code_task_a_hand_calculation_and_a_question(library):
    kind = {c.id: c.kind for c in library.cards.values()}
    first = [kind[c] for c in ranked(_items(library), DEFAULT_CONFIG)[:20]]
    assert first.count("code") >= 1 and first.count("calc") >= 1 and first.count("qa") >= 1


def test_kind_order_is_content_order_and_section_order_is_the_chapter(library):
    items = _items(library)
    assert ranked(items, replace(DEFAULT_CONFIG, new_order="kind")) == [i[0] for i in items]
    by_section = ranked(items, replace(DEFAULT_CONFIG, new_order="section"))
    sections = [library.cards[c].section for c in by_section]
    keys = [tuple(int(p) for p in s.split(".")) for s in sections]
    assert keys == sorted(keys)


def test_within_a_skill_the_sections_take_turns(library):
    order = ranked(_items(library), replace(DEFAULT_CONFIG, new_mix=(1.0, 0.0, 0.0, 0.0)))
    recall = [c for c in order if skill_of(library.cards[c].kind) == "recall"]
    sections = {library.cards[c].section for c in recall}
    first_round = [library.cards[c].section for c in recall[: len(sections)]]
    assert sorted(first_round) == sorted(sections)  # every section once before any twice


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.tuples(*(st.integers(0, 30) for _ in SKILLS)),
    shares=st.tuples(*(st.integers(0, 9) for _ in SKILLS)).filter(any),
)
def test_interleave_keeps_shares_in_every_window(sizes, shares):
    by_skill = {s: [(s, i) for i in range(n)] for s, n in zip(SKILLS, sizes, strict=True)}
    out = interleave(by_skill, [float(w) for w in shares])
    assert sorted(out) == sorted(x for v in by_skill.values() for x in v)
    for s in SKILLS:  # each skill's own order kept
        assert [x for x in out if x[0] == s] == by_skill[s]
    # while every skill with a share still has items, each prefix holds each skill within 1 of its share
    weights = dict(zip(SKILLS, shares, strict=True))
    live = [s for s in SKILLS if weights[s] and by_skill[s]]
    if not live:
        return
    total = sum(weights[s] for s in live)
    horizon = min(int(len(by_skill[s]) * total / weights[s]) for s in live)
    for n in range(1, min(horizon, len(out)) + 1):
        taken = Counter(x[0] for x in out[:n])
        for s in live:
            assert abs(taken[s] - n * weights[s] / total) <= 1, (n, s)


def test_new_card_places_per_pack_and_without_kinds():
    items = [("a", "x1", "7.2"), ("a", "x2", "7.1"), ("b", "y1", "7.1")]
    assert new_card_places(items, None, DEFAULT_CONFIG) == {("a", "x1"): 0, ("a", "x2"): 1, ("b", "y1"): 0}
    places = new_card_places(items, {"x1": "qa", "x2": "qa", "y1": "code"}, DEFAULT_CONFIG)
    assert places == {("a", "x2"): 0, ("a", "x1"): 1, ("b", "y1"): 0}  # 7.1 before 7.2


def test_the_mix_settings_and_their_one_line_errors():
    config = config_from_mapping({"new_order": "section", "new_mix": "recall=3, code=1"})
    assert config.new_order == "section" and config.new_mix == (3.0, 0.0, 0.0, 1.0)
    assert parse_setting("new_mix", "explain=1") == (0.0, 1.0, 0.0, 0.0)
    assert DEFAULT_CONFIG.new_order == "mixed"
    for key, value, problem in [
        ("new_order", "random", "'random' is not one of mixed, section, kind"),
        ("new_mix", "recall=0, code=0", "every skill's weight is 0"),
        ("new_mix", "typing=2", "'typing' is not a skill"),
        ("new_mix", "recall=lots", "'lots' is not a number"),
        ("new_mix", "recall", "'recall' is not skill=weight"),
        ("new_mix", 3, "expected a text"),
    ]:
        with pytest.raises(ConfigError) as err:
            config_from_mapping({key: value}, "drill.toml")
        message = str(err.value)
        assert "\n" not in message and message.startswith(f"drill.toml: {key}: ") and problem in message
