"""Backups in a loop, for the kill test (tests/trust/test_backups.py).

backup_child.py FOLDER DB... a zygote (tests/zygote.py) reading "fork SEED" lines; forks a worker that backs up
                             the databases in turn (keep 3), printing "MADE <path>" after each; prints "PID n",
                             then "DEAD n STATUS"
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from drill.store import backup
from tests.zygote import say, serve


def main() -> None:
    folder, *databases = (Path(a) for a in sys.argv[1:])

    def work(args: list[str]) -> None:
        seed = int(args[0])
        for i in range(10_000):
            made = backup.make_backup(databases[(seed + i) % len(databases)], folder=folder, keep=3)
            say(f"MADE {made}")

    serve(work)


if __name__ == "__main__":
    main()
