"""Per-grade benchmark: drill's store against Anki's own backend (the `anki` wheel) on the same collection.

For each size (default 1k, 100k, 1M cards) the same cards, memory states and due dates are written to a drill
database (benchmarks/bench_collection.build: drill's schema through the Store, bulk rows by sqlite3, two
reviews per card) and to an Anki collection (Anki's schema from Collection(), notes/cards/revlog rows by
sqlite3, FSRS on, each card's stability and difficulty in its data, due days relative to the collection's
today as drill's are relative to its NOW). Then one grade is, on each side, what the study screen does:

  drill   Store.next_card(now) -> Store.grade(card, Good, now) -> Store.counts(now)   (grade commits: fsync)
  anki    col.sched.get_queued_cards(fetch_limit=1) (next card and the three counts) ->
          col.sched.build_answer(card, states, Good) -> col.sched.answer_card(...)    (commits per operation)

Each side runs in its own process (drill in this interpreter's venv, Anki in --anki-python's), driven over
pipes, one grade at a time, drill and Anki alternately (interleaved, same load), and prints per size the median
wall and CPU (thread time) per grade, the ratio drill / anki, the statements drill sent for one more (untimed)
grade, BEGINs included (tests/store/test_store_grade_statements.py bounds them), and the machine's load average. Goal (issue 27):
drill <= 3x Anki at 1k cards, and no higher at 100k and 1M (Anki is flat; drill must be too).

    python benchmarks/grade_bench.py --anki-python /tmp/ankivenv/bin/python [--sizes 1000,100000,1000000]
        [--grades 60] [--dir /tmp/grade-bench]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REVIEWS_PER_CARD = 2

# The Anki side: a worker in the anki venv. "build PATH CARDS" writes the collection; "open PATH" opens it;
# "grade" answers the next card Good and prints [wall, cpu].
ANKI_WORKER = r"""
import json, sqlite3, sys, time
from anki.collection import Collection

SPAN = 365 * 86400

def build(path, cards):
    col = Collection(path)
    col.set_config("fsrs", True)
    mid = col.models.current()["id"]
    today = col.sched.today
    col.close()
    conn = sqlite3.connect(path)
    # Anki's own collation (registered by its Rust backend), for the rows' index updates here.
    conn.create_collation("unicase", lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()))
    studied = cards * 95 // 100
    now_ms = int(time.time() * 1000)
    conn.executemany(
        "INSERT INTO notes VALUES (?, ?, ?, 0, -1, '', ?, ?, 0, 0, '')",
        ((i + 1, f"g{i}", mid, f"card{i:06d}\x1fback", f"card{i:06d}") for i in range(cards)),
    )

    def row(i):
        if i >= studied:  # new: queue 0, due = position
            return (i + 1, i + 1, 1, 0, 0, -1, 0, 0, i, 0, 0, 0, 0, 0, 0, 0, 0, "")
        offset = ((i * 7919) % SPAN - 30 * 86400) // 86400  # days from today, as bench_collection's NOW
        data = json.dumps({"s": 1.0 + i % 300, "d": 1.0 + i % 10})
        queue = -1 if i % 97 == 0 else 2  # suspended like drill's (i % 97 == 0)
        return (i + 1, i + 1, 1, 0, 0, -1, 2, queue, today + offset, max(1, 1 + i % 300), 2500, 20, i % 5,
                0, 0, 0, 0, data)

    conn.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (row(i) for i in range(cards)))
    revlog = []
    for r in range(REVIEWS):
        card = r % studied
        rid = now_ms - 730 * 86400000 + r * (730 * 86400000 // REVIEWS)
        revlog.append((rid, card + 1, -1, 3, 10, 1, 2500, 5000, 0 if r < studied else 1))
    conn.executemany("INSERT INTO revlog VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", revlog)
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()

col = None
for line in sys.stdin:
    cmd = line.split()
    if cmd[0] == "build":
        REVIEWS = int(cmd[3])
        build(cmd[1], int(cmd[2]))
        out = "ok"
    elif cmd[0] == "open":
        col = Collection(cmd[1])
        out = "ok"
    elif cmd[0] == "grade":
        wall, cpu = time.perf_counter(), time.thread_time()
        queued = col.sched.get_queued_cards(fetch_limit=1)
        counts = (queued.new_count, queued.learning_count, queued.review_count)
        top = queued.cards[0]
        card = col.get_card(top.card.id)
        card.start_timer()
        col.sched.answer_card(col.sched.build_answer(card=card, states=top.states, rating=3))
        out = json.dumps([time.perf_counter() - wall, time.thread_time() - cpu, counts])
    elif cmd[0] == "close":
        col.close()
        out = "ok"
    print(out, flush=True)
"""

DRILL_WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from datetime import timedelta
from bench_collection import NOW, build

store = None
step = 0
for line in sys.stdin:
    cmd = line.split()
    if cmd[0] == "build":
        from pathlib import Path
        build(Path(cmd[1]), int(cmd[2]), int(cmd[3]))
        out = "ok"
    elif cmd[0] == "open":
        from pathlib import Path
        from store_bench import open_bench  # every card synced, drill's daily limits left for today
        store = open_bench(Path(cmd[1]), int(cmd[2]))
        out = "ok"
    elif cmd[0] == "grade":
        now = NOW + timedelta(seconds=step)
        step += 5
        wall, cpu = time.perf_counter(), time.thread_time()
        card = store.next_card(now)
        store.grade(card.card_id, 3, now)
        c = store.counts(now)
        out = json.dumps([time.perf_counter() - wall, time.thread_time() - cpu, (c.new, c.learning, c.review)])
    elif cmd[0] == "statements":  # one more grade, untimed, counting what it sends (BEGINs included)
        from sqlalchemy import event
        sent = []
        def record(conn, cursor, statement, *rest):
            sent.append(statement)
        event.listen(store.engine, "before_cursor_execute", record)
        now = NOW + timedelta(seconds=step)
        step += 5
        store.grade(store.next_card(now).card_id, 3, now)
        store.counts(now)
        event.remove(store.engine, "before_cursor_execute", record)
        out = str(len(sent))
    elif cmd[0] == "close":
        store.close()
        out = "ok"
    print(out, flush=True)
"""


class Worker:
    def __init__(self, python: str, code: str, *args: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", code, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, *words: object) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(" ".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise SystemExit(f"grade_bench: the worker {self.proc.args[0]} died (see its error above)")
        return answer.strip()

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(size: int, directory: Path, grades: int, anki_python: str) -> tuple[float, float, float, float]:
    bench_dir = str(Path(__file__).resolve().parent)
    db, col = directory / f"drill-{size}.sqlite3", directory / f"anki-{size}.anki2"
    drill = Worker(sys.executable, DRILL_WORKER, bench_dir)
    anki = Worker(anki_python, ANKI_WORKER)
    try:
        if not db.exists():
            started = time.perf_counter()
            drill.ask("build", db, size, size * REVIEWS_PER_CARD)
            print(f"  built {db.name} in {time.perf_counter() - started:.1f} s", flush=True)
        if not col.exists():
            started = time.perf_counter()
            anki.ask("build", col, size, size * REVIEWS_PER_CARD)
            print(f"  built {col.name} in {time.perf_counter() - started:.1f} s", flush=True)
        # Fresh copies each run: the grades change the collections.
        run_db, run_col = directory / f"run-{db.name}", directory / f"run-{col.name}"
        for source, dest in ((db, run_db), (col, run_col)):
            for suffix in ("", "-wal", "-shm"):
                Path(str(dest) + suffix).unlink(missing_ok=True)
            sqlite3.connect(source).execute("PRAGMA wal_checkpoint(TRUNCATE)").connection.close()
            dest.write_bytes(source.read_bytes())
        drill.ask("open", run_db, size)
        anki.ask("open", run_col)
        for worker in (drill, anki):  # warm-up: statements built, caches filled
            for _ in range(3):
                worker.ask("grade")
        times: dict[str, list[tuple[float, float]]] = {"drill": [], "anki": []}
        last = {}
        for _ in range(grades):
            for name, worker in (("drill", drill), ("anki", anki)):
                wall, cpu, counts = json.loads(worker.ask("grade"))
                times[name].append((wall, cpu))
                last[name] = counts
        statements = int(drill.ask("statements"))
        drill.ask("close")
        anki.ask("close")
    finally:
        drill.stop()
        anki.stop()
    med = {
        n: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for n, t in times.items()
    }
    print(
        f"{size:>9,} cards  drill {med['drill'][0] * 1e3:6.2f} ms wall {med['drill'][1] * 1e3:6.2f} ms CPU   "
        f"anki {med['anki'][0] * 1e3:6.2f} ms wall {med['anki'][1] * 1e3:6.2f} ms CPU   "
        f"drill/anki {med['drill'][0] / med['anki'][0]:.2f}x wall {med['drill'][1] / med['anki'][1]:.2f}x CPU   "
        f"counts after (new, learning, review) drill {tuple(last['drill'])} anki {tuple(last['anki'])}   "
        f"drill statements a grade {statements}   "
        f"load {load()}",
        flush=True,
    )
    return med["drill"][0], med["drill"][1], med["anki"][0], med["anki"][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anki-python", required=True, help="a Python with the anki wheel installed")
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--grades", type=int, default=60, help="grades per side and size (interleaved)")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/grade-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"grade_bench: {args.grades} grades each, interleaved; load {load()}", flush=True)
    results = {}
    for size in (int(s) for s in args.sizes.split(",")):
        results[size] = measure(size, args.dir, args.grades, args.anki_python)
    first = min(results)
    base = results[first][0] / results[first][2]
    print(
        f"goal: drill/anki wall <= 3x at {first:,} ({base:.2f}x), no higher at larger sizes: "
        + ", ".join(f"{size:,} {r[0] / r[2]:.2f}x" for size, r in results.items() if size != first)
        + f"; load {load()}"
    )


if __name__ == "__main__":
    main()
