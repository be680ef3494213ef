"""The section rule, declared once (drill.content.sections): its order and what "--section S" covers, against
orders and answers written out by hand."""

from __future__ import annotations

from drill.content.sections import covers, section_key


def test_sections_sort_as_the_chapter_runs():
    shuffled = ["7.10", "appendix", "7.2", "7.1.2", "7.24", "7.1", "7.9", "8"]
    assert sorted(shuffled, key=section_key) == [
        "7.1",
        "7.1.2",
        "7.2",
        "7.9",
        "7.10",
        "7.24",
        "8",
        "appendix",
    ]


def test_a_pack_of_named_sections_still_sorts_by_name():
    assert sorted(["intro", "basics", "7.3"], key=section_key) == ["7.3", "basics", "intro"]


def test_a_section_covers_itself_and_its_sub_sections_only():
    assert covers("7.1", "7.1") and covers("7.1", "7.1.2")
    assert not covers("7.1", "7.10") and not covers("7.1", "7.2") and not covers("7.1.2", "7.1")
    assert covers(None, "7.10")  # no --section: every card
