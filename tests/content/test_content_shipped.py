"""The chapter shipped in data/ loads, and `drill check` reports what the chapter really has."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content

BANK = [n for n in range(1, 41) if n not in (22, 38)]


@pytest.fixture(scope="module")
def library():
    start = time.perf_counter()
    lib = load_content()
    print(f"load_content() on the shipped data: {(time.perf_counter() - start) * 1000:.1f} ms (not asserted)")
    return lib


def test_shipped_content_loads(library):
    assert [p.id for p in library.packs] == ["transformer-ch7"]
    assert len(library.quizzes) == 8
    assert all(q.answer in q.options for q in library.quizzes)


def test_bank_numbers_are_the_chapters_own(library):
    numbers = sorted(c.bank for c in library.cards.values() if c.bank is not None)
    assert numbers == BANK  # no Q22, no Q38, nothing invented past Q40


def test_section_only_cards_exist(library):
    only = [c for c in library.cards.values() if c.bank is None and c.kind == "qa"]
    assert only, "the chapter's section questions that are not in the bank need their own cards"
    assert all(not c.id.startswith("q") for c in only)


def test_drill_check_on_shipped_content(library):
    result = CliRunner().invoke(cli, ["check", "--plain"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    line = next(x for x in out.splitlines() if x.strip().startswith("bank numbers"))
    assert line.strip() == f"bank numbers ({len(BANK)}): " + ", ".join(f"Q{n}" for n in BANK)
    assert "Q22," not in line and "Q38," not in line
    assert "not in the bank: Q22, Q38" in out
    only = next(x for x in out.splitlines() if "section-only cards (" in x)
    for card in library.cards.values():
        if card.bank is None and card.kind == "qa":
            assert f"{card.id} ({card.section})" in only
        elif card.bank is None:  # a table, formula, calc or code card is counted by its kind, not listed
            assert f"{card.id} (" not in only


def test_every_printed_number_is_checked_against_the_engine(library):
    assert library.checks, "data/checks.yaml lists the chapter's printed numbers"
    result = CliRunner().invoke(cli, ["check", "--plain"])
    line = next(x for x in result.stdout.splitlines() if x.startswith("numeric checks:"))
    assert "0 unexpected mismatches" in line
    ok, errata, notes = (
        int(part.split()[0]) for part in line.removeprefix("numeric checks: ").split(", ")[:3]
    )
    assert ok + errata + notes == len(library.checks)
    assert notes == sum(1 for c in library.checks if c.erratum and c.kind == "note")
