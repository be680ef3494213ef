"""Child processes for the store's fault tests. Each acknowledges a grade only after grade() returned.

    store_child.py zygote URL USER       read "fork SEED" lines; fork a grader, print "PID n", wait for it
                                         to die (the test kills it), print "DEAD n STATUS" (tests/zygote.py)
    store_child.py grade URL USER N SEED print "READY", wait for a line on stdin, then grade N times
    store_child.py diskfull URL USER     grade until RLIMIT_FSIZE makes a write fail, then retry it

Every acknowledged grade is printed as "ACK <log id> <card id> <rating>" with one write(2) per line.
"""

from __future__ import annotations

import random
import resource
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.store

from drill.errors import StoreError
from drill.store import open_store
from tests.store.store_support import CARDS
from tests.zygote import say, serve


def grading_loop(url: str, user: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    store = open_store(url, user)
    store.sync_content(CARDS)
    for _ in range(count):
        now = datetime.now(UTC)
        card = store.next_card(now)
        card_id = card.card_id if card is not None else rng.choice(CARDS)[1]
        rating = rng.choice([1, 2, 3, 3, 4])
        result = store.grade(card_id, rating, now, duration_ms=rng.randint(100, 5000))
        say(f"ACK {result.log_id} {card_id} {rating}")
    store.close()


def zygote(url: str, user: str) -> None:
    # What opening a store imports (SQLAlchemy, Alembic, the models) is imported once, before the forks: each
    # grader then starts in milliseconds, not a second. The database itself is still made by the first grader,
    # so the first kills can land in its creation and migration.
    import drill.store.api
    import drill.store.engine
    import drill.store.locate
    import drill.store.migrate  # noqa: F401

    # the grader: runs until the test kills it (bounded all the same)
    serve(lambda args: grading_loop(url, user, int(args[0]), 2000))


def concurrent(url: str, user: str, count: int, seed: int) -> None:
    store = open_store(url, user)
    store.sync_content(CARDS)
    say("READY")
    sys.stdin.readline()  # both graders start together
    rng = random.Random(seed)
    for _ in range(count):
        card_id = rng.choice(CARDS)[1]  # both processes grade the same few cards
        rating = rng.choice([1, 2, 3, 4])
        result = store.grade(card_id, rating, datetime.now(UTC))
        say(f"ACK {result.log_id} {card_id} {rating}")
    store.close()


def diskfull(url: str, user: str) -> None:
    store = open_store(url, user)
    store.sync_content(CARDS)
    path = Path(store.where)
    for cid in ("c00", "c01", "c02"):
        result = store.grade(cid, 3, datetime.now(UTC))
        say(f"ACK {result.log_id} {cid} 3")
    # From now on no file may grow past its current size: the next commit cannot write its frames.
    sizes = [p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists()]
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (max(sizes), hard))
    for attempt in range(500):
        cid = CARDS[attempt % len(CARDS)][1]
        try:
            result = store.grade(cid, 4, datetime.now(UTC))
        except StoreError as err:
            say(f"FULL {err}")
            resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))  # space is back
            result = store.grade(cid, 4, datetime.now(UTC))
            say(f"ACK {result.log_id} {cid} 4")
            say("RETRIED")
            break
        say(f"ACK {result.log_id} {cid} 4")
    else:
        say("NEVER-FULL")
    store.close()


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    if mode == "zygote":
        zygote(*args)
    elif mode == "grade":
        concurrent(args[0], args[1], int(args[2]), int(args[3]))
    elif mode == "diskfull":
        diskfull(*args)
    else:
        raise SystemExit(f"unknown mode {mode}")
