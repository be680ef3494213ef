"""Child processes for the "nothing acknowledged is lost" kill tests (tests/trust/test_acknowledged.py).

Each mode is a zygote (tests/zygote.py): it imports everything once, then reads "fork ..." lines; for each it
forks a worker, prints "PID n", waits for it to die (the test kills it) and prints "DEAD n STATUS".

acknowledged_child.py interview URL    worker: grades interview answers as the interview screen confirms them
                                       (``Store.grade_interview_answer``), printing "ACK <log id> <card id>"
                                       after each returned; "fork SEED"
acknowledged_child.py quiz URL         worker: the real quiz screen (Textual's pilot) answers N questions,
                                       printing "ACK <item id>" once each answer's feedback is on screen, then
                                       "HOLD" and waits to be killed; "fork N SEED"
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.store

from tests.zygote import say, serve


def interview_worker(url: str, seed: int) -> None:
    from drill.srs.misses import miss_cap
    from drill.store.interviews import InterviewAnswerRecord
    from tests.store.store_support import open_test_store

    rng = random.Random(seed)
    store = open_test_store(url, "alice")
    session = store.start_interview(datetime.now(UTC), {"questions": 2000, "seed": seed})
    for position in range(1, 2001):
        card = f"c{rng.randrange(30):02d}"
        missed = rng.randrange(3)
        record = InterviewAnswerRecord(
            position=position,
            card_id=card,
            section="7.1",
            follow_up=False,
            mode="typed",
            answer="x" * rng.randrange(2000),
            duration_ms=rng.randint(1000, 90_000),
            budget_ms=180_000,
            timed_out=False,
            points_total=3,
            points_covered=tuple(range(3 - missed)),
            points_missed=tuple(f"p{i}" for i in range(missed)),
            traps_hit=(),
            coverage=(3 - missed) / 3,
            proposed=rng.randint(1, 4),
            rating=rng.randint(1, 4),
            answered_at=datetime.now(UTC),
        )
        saved = store.grade_interview_answer(session, record, due_cap=miss_cap(missed, 0))
        say(f"ACK {saved.review_log_id} {card}")


async def quiz_worker(library, url: str, answers: int, seed: int) -> None:
    import signal

    from drill.store import open_store
    from drill.tui.app import make_app
    from tests.tui.conftest import wait_until

    store = open_store(url, "tester")
    app = make_app(
        "quiz",
        library=library,
        store=store,
        clock=lambda: datetime.now(UTC),
        seed=seed,
        generated=4,
        seconds=600,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: app.error is not None or getattr(app.mode_screen, "item", None) is not None
        )
        assert app.error is None, app.error
        screen = app.mode_screen
        for n in range(answers):
            item = screen.item
            if item.numeric:
                await pilot.press("1", "enter")
            else:
                await pilot.press("b")
            await wait_until(pilot, lambda: screen.answered is not None)
            say(f"ACK {item.id}")
            if n + 1 < answers:
                await pilot.press("enter")
                await wait_until(pilot, lambda: screen.answered is None)
        say("HOLD")
        signal.pause()  # the test kills this process here


def zygote(mode: str, url: str) -> None:
    library = None
    if mode == "quiz":
        # Everything a quiz needs is imported and the database made (alembic) before the forks: each quiz then
        # starts in about a second rather than fifteen.
        import numpy  # noqa: F401
        import textual.pilot  # noqa: F401

        import drill.engine.mistakes
        import drill.tui.models.quiz_order
        import drill.tui.screens.quiz
        import drill.tui.screens.quiz_score
        import tests.tui.conftest  # noqa: F401
        from drill.content import load_content
        from drill.store import open_store

        library = load_content()
        open_store(url, "tester").close()
    if mode == "interview":  # the same: imports and the database made before the forks
        import drill.srs.misses
        import drill.store.interviews  # noqa: F401
        from tests.store.store_support import open_test_store

        open_test_store(url, "alice").close()

    def work(args: list[str]) -> None:
        if mode == "interview":
            interview_worker(url, int(args[0]))
        else:
            asyncio.run(quiz_worker(library, url, int(args[0]), int(args[1])))

    serve(work)


if __name__ == "__main__":
    zygote(sys.argv[1], sys.argv[2])
