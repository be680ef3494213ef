"""Mock interviews written through the store, for the report tests: each interview is
``(days before now, finished, [(card, section, seconds, timed out, points covered, points total, traps, missed
points)])``; every answer is typed, graded Again, and ``follow_up`` marks the answers after the first."""

from __future__ import annotations

from datetime import datetime, timedelta

from drill.store.interviews import InterviewAnswerRecord


def record_interviews(store, interviews, now: datetime, *, follow_ups: bool = True) -> None:
    for ago, finished, answers in interviews:
        started = now - timedelta(days=ago)
        session = store.start_interview(started, {"questions": len(answers)})
        for n, (card, section, seconds, timed_out, covered, total, traps, missed) in enumerate(answers, 1):
            store.record_interview_answer(
                session,
                InterviewAnswerRecord(
                    position=n,
                    card_id=card,
                    section=section,
                    follow_up=follow_ups and n > 1,
                    mode="typed",
                    answer="…",
                    duration_ms=seconds * 1000,
                    budget_ms=180_000,
                    timed_out=timed_out,
                    points_total=total,
                    points_covered=tuple(range(covered)),
                    points_missed=tuple(missed),
                    traps_hit=tuple(f"trap {i}" for i in range(traps)),
                    coverage=covered / total,
                    proposed=1,
                    rating=1,
                    answered_at=started + timedelta(minutes=n),
                ),
            )
        if finished:
            store.finish_interview(session, started + timedelta(minutes=10))
