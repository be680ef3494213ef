"""Backups in a loop, for the kill test (tests/trust/test_backups.py).

backup_child.py FOLDER DB... reads "fork SEED" lines; forks a worker that backs up the databases in turn
                             (keep 3), printing "MADE <path>" after each; prints "PID n", then "DEAD n STATUS"
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from drill.store import backup


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def main() -> None:
    folder, *databases = (Path(a) for a in sys.argv[1:])
    for line in sys.stdin:
        command, seed = line.split()
        assert command == "fork"
        pid = os.fork()
        if pid == 0:
            try:
                for i in range(10_000):
                    made = backup.make_backup(
                        databases[(int(seed) + i) % len(databases)], folder=folder, keep=3
                    )
                    say(f"MADE {made}")
            except BaseException as err:
                os.write(2, f"worker failed: {err!r}\n".encode())
                os._exit(3)
            os._exit(0)
        say(f"PID {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"DEAD {pid} {status}")


if __name__ == "__main__":
    main()
