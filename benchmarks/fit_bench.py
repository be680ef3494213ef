"""Fit benchmark: `drill optimize` against Anki's own fit (the `anki` wheel's backend, compute_fsrs_params) and
against fsrs-rs called directly, on the same review history.

A learner is simulated with FSRS's memory model (recall drawn from the forgetting curve at 0.4 of the default
weights' stability, a same-day
learning step after a first Again, reviews when due); the same grades are written to a drill database (cards
and review logs, with the study day each grade falls on, as Store.grade records it) and to an Anki collection
(revlog rows: learning / review / relearning kinds). Each size runs, interleaved, round after round, as new
processes:

  drill      drill optimize --dry-run                      (reads the store, builds the items, fits)
  anki       Collection(...).compute_fsrs_params(...)      (reads its revlog, builds the items, fits: Rust)
  fsrs-rs    items from a pickle, made as read -> FSRS.compute_parameters (the engine alone, items given)
  fsrs+eval  the same, then FSRS.evaluate of the default weights and of the fit: the engine's share of what
             drill and Anki both do (Anki keeps the weights in use unless the fit predicts better)

and prints for each the median wall and CPU time (user + system, what load distorts least), the peak memory
(ru_maxrss), the CPU ratio drill / anki and drill / fsrs-rs, and the largest weight difference between drill's
fit and each peer's. Goal (issue 27): CPU <= 1.5x Anki's at 20k and 200k reviews, weights equal to fsrs-rs's
to 1e-4, and 2M reviews fitted with a peak <= 1 GB (`--big 2000000` runs that size once).

    python benchmarks/fit_bench.py [--sizes 20000,200000] [--repeat 3] [--big 2000000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report_bench import drill_command

START = datetime(2024, 1, 1, 4, 0, tzinfo=UTC)  # a study day's start (UTC, day_starts_at 4)
DAYS = 730
REVIEWS_PER_CARD = 12
STAMP = "%Y-%m-%d %H:%M:%S.%f"
FORGETFUL = 0.4  # the simulated learner's stability, as a share of what FSRS's default weights predict
KIND = {"new": 0, "learning": 0, "review": 1, "relearning": 2}  # Anki's revlog type


def simulate(reviews: int, seed: int = 1) -> list[tuple[int, int, int, str]]:
    """[(card, unix seconds, rating, state before)] in review order, ``reviews`` of them."""
    from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS

    weights = list(DEFAULT_PARAMETERS)
    decay = -weights[20]
    factor = 0.9 ** (1 / decay) - 1
    model, rng = FSRS(weights), random.Random(seed)
    cards = max(1, reviews // REVIEWS_PER_CARD)
    base = int(START.timestamp())
    log = []
    for card in range(cards):
        day, memory, elapsed = rng.randrange(DAYS * 2 // 3), None, 0
        state = "new"
        while day < DAYS and len(log) < reviews:
            at = base + day * 86400 + rng.randrange(2 * 3600, 16 * 3600)  # 06:00..20:00
            if memory is None:
                rating = rng.choice([1, 3, 3, 3, 4])
                nexts = model.next_states(None, 0.9, 0)
            else:
                # This learner forgets faster than FSRS's defaults say (so a fit beats them, and Anki keeps it).
                recall = (1 + factor * elapsed / (memory.stability * FORGETFUL)) ** decay
                rating = 1 if rng.random() > recall else rng.choice([2, 3, 3, 3, 3, 4])
                nexts = model.next_states(memory, 0.9, elapsed)
            after = {1: nexts.again, 2: nexts.hard, 3: nexts.good, 4: nexts.easy}[rating]
            log.append((card, at, rating, state))
            if rating == 1 and len(log) < reviews:  # a relearning / learning step ten minutes later
                log.append((card, at + 600, 3, "learning" if state == "new" else "relearning"))
            memory, state = after.memory, "review"
            elapsed = max(1, round(after.interval))
            day += elapsed
        if len(log) >= reviews:
            break
    log.sort(key=lambda row: row[1])
    return log


def write_drill(path: Path, log) -> None:
    from drill.store import open_store
    from drill.store.review_days import day_number

    open_store(f"sqlite:///{path}", "bench").close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    user = conn.execute("SELECT id FROM users WHERE name = 'bench'").fetchone()[0]
    cards = sorted({row[0] for row in log})
    created = START.strftime(STAMP)
    conn.executemany(
        "INSERT INTO cards (id, pack, content_id, section, position, retired, created_at) "
        "VALUES (?, 'bench', ?, '7.1', ?, 0, ?)",
        ((card + 1, f"card{card:07d}", card, created) for card in cards),
    )
    last: dict[int, int] = {}

    def rows():
        for card, at, rating, state in log:
            moment = datetime.fromtimestamp(at, UTC)
            day = day_number(moment, 4, UTC)
            first = card not in last or last[card] < day
            last[card] = day
            yield (
                user,
                card + 1,
                rating,
                moment.strftime(STAMP),
                state,
                moment.strftime(STAMP),
                day,
                int(first),
            )

    conn.execute("DROP INDEX IF EXISTS ix_review_logs_user_reviewed")
    conn.executemany(
        "INSERT INTO review_logs (user_id, card_id, rating, reviewed_at, duration_ms, state_before, reps_before, "
        "lapses_before, suspended_before, leech_before, state_after, due_after, scheduled_days, leech_after, "
        "study_day, first_of_day) VALUES (?, ?, ?, ?, 5000, ?, 0, 0, 0, 0, 'review', ?, 1.0, 0, ?, ?)",
        rows(),
    )
    conn.execute("COMMIT")
    conn.close()
    open_store(f"sqlite:///{path}", "bench").close()  # nothing pending
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE INDEX IF NOT EXISTS ix_review_logs_user_reviewed ON review_logs "
        "(user_id, reviewed_at, card_id, rating, state_before)"
    )
    conn.execute("ANALYZE")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def write_anki(path: Path, log) -> None:
    from anki.collection import Collection

    Collection(
        str(path)
    ).close()  # Anki's schema; the rows go in through sqlite3 (the backend's db proxy is slow)
    seen: set[int] = set()
    rows = []
    for card, at, rating, state in log:
        rid = at * 1000
        while rid in seen:
            rid += 1
        seen.add(rid)
        rows.append((rid, card + 1, -1, rating, 1, 0, 0, 5000, KIND[state]))
    conn = sqlite3.connect(path)
    conn.executemany("INSERT INTO revlog VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def write_items(path: Path, log) -> None:
    """fsrs-rs's items recomputed from the timestamps (study days from 04:00 UTC), compact: every card's steps
    (rating + 8 * delta_t, card after card) and each item's (start, length) in that array, in review order. A
    list of 54M (rating, delta_t) tuples at 2M reviews would be GBs of Python objects in the peer's peak."""
    from array import array

    history: dict[int, list[int]] = {}
    days: dict[int, int] = {}
    ends = []  # (card, number of steps) per item, in review order
    for card, at, rating, _state in log:
        day = (at - 4 * 3600) // 86400
        delta = day - days[card] if card in days else 0
        days[card] = day
        history.setdefault(card, []).append(rating + 8 * delta)
        if len(history[card]) > 1 and delta > 0:
            ends.append((card, len(history[card])))
    steps, first = array("q"), {}
    for card, codes in history.items():
        first[card] = len(steps)
        steps.extend(codes)
    starts = array("q", (first[card] for card, _count in ends))
    lengths = array("q", (count for _card, count in ends))
    path.write_bytes(pickle.dumps((steps, starts, lengths)))


ANKI = """
import json, sys
from anki.collection import Collection
col = Collection(sys.argv[1])
r = col._backend.compute_fsrs_params(search="", current_params=[], ignore_revlogs_before_ms=0,
                                     num_of_relearning_steps=1, health_check=False)
print(json.dumps({"params": list(r.params), "items": r.fsrs_items}))
col.close()
"""
DIRECT = """
import json, pickle, sys
from collections.abc import Sequence
from fsrs_rs_python import FSRS, FSRSItem, FSRSReview
codes, starts, lengths = pickle.load(open(sys.argv[1], "rb"))
pool = {code: FSRSReview(code & 7, code >> 3) for code in set(codes)}
steps = list(map(pool.__getitem__, codes))
del codes, pool
class Items(Sequence):  # each FSRSItem made as fsrs-rs reads it: the items are whole only in fsrs-rs
    def __len__(self):
        return len(starts)
    def __getitem__(self, i):
        return FSRSItem(steps[starts[i] : starts[i] + lengths[i]])
    def __iter__(self):
        return (FSRSItem(steps[s : s + n]) for s, n in zip(starts, lengths))
items = Items()
params = FSRS([]).compute_parameters(items, num_relearning_steps=1)
if "--evaluate" in sys.argv:  # and what Anki's compute_fsrs_params does after: both weights' evaluations
    from fsrs_rs_python import DEFAULT_PARAMETERS
    FSRS(list(DEFAULT_PARAMETERS)).evaluate(items)
    FSRS(list(params)).evaluate(items)
print(json.dumps({"params": params, "items": len(items)}))
"""


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak MB, stdout) of ``command`` as a new process, measured by GNU time (its own fork
    holds no memory of ours: a child forked from this process would count our pages in its peak)."""
    start = time.perf_counter()
    process = subprocess.run(
        ["/usr/bin/time", "-f", "TIME %U %S %M", *command], capture_output=True, env=env, text=True
    )
    wall = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{process.stderr}")
    user, system, peak_kb = process.stderr.strip().splitlines()[-1].split()[1:]
    return wall, float(user) + float(system), int(peak_kb) / 1024, process.stdout


def drill_weights(out: str) -> list[float]:
    line = next(line for line in out.splitlines() if line.startswith("parameters = ["))
    return [float(w) for w in line.split("[", 1)[1].rstrip("]").split(",")]


def measure(size: int, tmp: Path, repeat: int, env: dict[str, str], big: bool = False) -> None:
    t = time.perf_counter()
    log = simulate(size)
    db, col, items = tmp / f"drill-{size}.sqlite3", tmp / f"anki-{size}.anki2", tmp / f"items-{size}.pickle"
    write_drill(db, log)
    commands = {
        "drill": [drill_command(), "optimize", "--dry-run", "--db", f"sqlite:///{db}", "--user", "bench"]
    }
    write_anki(col, log)
    write_items(items, log)
    commands["anki"] = [sys.executable, "-c", ANKI, str(col)]
    commands["fsrs-rs"] = [sys.executable, "-c", DIRECT, str(items)]
    if not big:
        commands["fsrs+eval"] = [sys.executable, "-c", DIRECT, str(items), "--evaluate"]
    cards = len({row[0] for row in log})
    print(f"\n{len(log):,} reviews of {cards:,} cards (built in {time.perf_counter() - t:.1f} s)", flush=True)
    walls = {name: [] for name in commands}
    cpus = {name: [] for name in commands}
    peaks = dict.fromkeys(commands, 0.0)
    weights: dict[str, list[float]] = {}
    found: dict[str, int] = {}
    for _ in range(repeat):
        for name, command in commands.items():
            wall, cpu, peak, out = run(command, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
            peaks[name] = max(peaks[name], peak)
            if name == "drill":
                weights[name] = drill_weights(out)
            else:
                answer = json.loads(out.splitlines()[-1])
                weights[name], found[name] = answer["params"], answer["items"]
    print(f"{'':9s} {'wall':>8s} {'CPU':>8s} {'peak':>8s} {'CPU ratio':>10s}  items  max |w - drill's|")
    drill_cpu = statistics.median(cpus["drill"])
    for name in commands:
        cpu = statistics.median(cpus[name])
        diff = max(abs(a - b) for a, b in zip(weights[name], weights["drill"], strict=True))
        ratio = "" if name == "drill" else f"{drill_cpu / cpu:9.2f}x"
        print(
            f"{name:9s} {statistics.median(walls[name]):7.2f}s {cpu:7.2f}s {peaks[name]:6.0f}MB {ratio:>10s}"
            f"  {found.get(name, '-')!s:>6s} {'' if name == 'drill' else f'{diff:.2e}'}"
        )
    if not big:
        engine = statistics.median(cpus["fsrs+eval"]) / statistics.median(cpus["anki"])
        print(f"fsrs-rs-python's fit and evaluations alone, beside Anki's whole fit: {engine:.2f}x its CPU")
        print(
            f"goal: drill CPU <= 1.5x anki's: {drill_cpu / statistics.median(cpus['anki']):.2f}x; weights equal "
            f"fsrs-rs's to 1e-4: max diff "
            f"{max(abs(a - b) for a, b in zip(weights['fsrs-rs'], weights['drill'], strict=True)):.1e}"
        )
    else:
        print(
            f"goal: peak <= 1024 MB: drill {peaks['drill']:.0f} MB; fsrs-rs alone on the same items "
            f"{peaks['fsrs-rs']:.0f} MB, Anki {peaks['anki']:.0f} MB"
        )
    print(f"machine load (1-min average): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,200000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", type=int, default=0, help="also fit this many reviews, once (the peak)")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        env = {**os.environ, "DRILL_CONFIG_DIR": tmp, "DRILL_DATA_DIR": tmp, "TZ": "UTC"}
        os.environ.update(DRILL_CONFIG_DIR=tmp, DRILL_DATA_DIR=tmp, TZ="UTC")
        time.tzset()
        for size in (int(s) for s in args.sizes.split(",") if s):
            measure(size, Path(tmp), args.repeat, env)
        if args.big:
            measure(args.big, Path(tmp), 1, env, big=True)


if __name__ == "__main__":
    main()
