"""Misses become practice: a follow-up aims at what the last answer missed, the scorecard shows the misconceptions
stated with their corrections, the report lists the misconceptions stated most often (recounted here)."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from rich.console import Console

from drill.content.misconceptions import load_misconceptions
from drill.report.figures import compute
from drill.report.markdown import to_markdown
from drill.report.terminal import render
from drill.store import open_store
from drill.store.interviews import InterviewAnswerRecord
from drill.tui.models.interview import InterviewSession, bank_cards
from drill.tui.screens.interview_scorecard import scorecard

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_a_follow_up_prefers_the_card_covering_what_was_missed(library):
    cards = bank_cards(list(library.cards.values()))
    first = library.cards["q08"]
    order = [first] + [c for c in cards if c.id != first.id]
    session = InterviewSession(order, 3, follow_up=1.0, seed=0)
    assert session.next_question().card.id == "q08"
    # missed: the mask must be added before softmax -> the mask card, not 7.10's next card
    asked = session.next_question(["Mask 必须加在 softmax 之前", "e^(−∞)=0，权重严格为 0"])
    assert asked.follow_up and asked.card.id == "q16"
    # nothing missed: the same section's first card left, as before
    plain = InterviewSession(order, 2, follow_up=1.0, seed=0)
    plain.next_question()
    follow = plain.next_question()
    same = [c for c in order[1:] if c.section == first.section]
    if same:
        assert follow.follow_up and follow.card == same[0]
    else:  # 7.10 has no other bank card: no follow-up
        assert not follow.follow_up and follow.card == order[1]


def _record(position, card, traps, missed=()):
    return InterviewAnswerRecord(
        position=position,
        card_id=card.id,
        section=card.section,
        follow_up=False,
        mode="typed",
        answer="…",
        duration_ms=30_000,
        budget_ms=180_000,
        timed_out=False,
        points_total=len(card.points),
        points_covered=(),
        points_missed=tuple(missed),
        traps_hit=tuple(traps),
        coverage=0.0,
        proposed=1,
        rating=1,
        answered_at=NOW - timedelta(hours=1) + timedelta(minutes=position),
    )


def test_the_scorecard_shows_each_misconception_with_its_correction(library):
    book = load_misconceptions(library)
    q07 = library.cards["q07"]
    answers = [_record(1, q07, ["divide-by-dk", "scaling-for-speed"]), _record(2, q07, ["divide-by-dk"])]
    wrong = {m.id: (m.wrong("en"), "\n".join(c.text for c in m.corrections)) for m in book.items}
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(scorecard(answers, {"q07": q07.front}, wrong))
    text = out.getvalue()
    assert "Misconceptions stated:" in text
    assert "2× ✗ The scores should be divided by d_k" in text
    assert "1× ✗ Scaling is there to make the computation faster" in text
    assert text.index("2× ✗") < text.index("1× ✗")
    assert "Correction:" in text and "要除的是标准差" in text


def test_the_report_lists_the_misconceptions_stated_most_often(tmp_path, library):
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    try:
        store.sync_content([(c.pack, c.id, c.section) for c in library.cards.values()])
        q07, q16 = library.cards["q07"], library.cards["q16"]
        stated = [
            [("divide-by-dk",), ("mask-fill-zero", "mask-after-softmax")],
            [("divide-by-dk", "scaling-for-speed"), ("mask-fill-zero",)],
            [("divide-by-dk",), ()],
        ]
        for day, pair in enumerate(stated):
            session = store.start_interview(NOW - timedelta(days=3 - day), {"questions": 2})
            for n, (card, traps) in enumerate(zip((q07, q16), pair, strict=True), 1):
                rec = _record(n, card, traps)
                store.record_interview_answer(
                    session, replace(rec, answered_at=NOW - timedelta(days=3 - day) + timedelta(minutes=n))
                )
        counts: dict[str, int] = {}
        for pair in stated:
            for traps in pair:
                for t in traps:
                    counts[t] = counts.get(t, 0) + 1
        data = compute(store, now=NOW, tz=UTC)
        got = [(m.misconception, m.count) for m in data.interview_scores.most_stated]
        assert got == sorted(counts.items(), key=lambda kv: -kv[1])
        out = io.StringIO()
        render(data, Console(file=out, width=140, color_system=None))
        text = out.getvalue()
        assert "misconceptions stated most often" in text
        assert "The scores should be divided by d_k" in text and "Filling masked scores with 0" in text
        md = to_markdown(data)
        assert (
            "### misconceptions stated most often" in md
            and "| The scores should be divided by d\\_k | 3 |" in md
        )
    finally:
        store.close()
