"""Child processes for the trust fault tests (restore, migration, the single-writer lock).

trust_child.py restore DB BACKUP      import everything, print "READY", wait for a line, restore, print "DONE"
trust_child.py migrate URL            a zygote: import Alembic and the revisions once, then for each "fork" line
                                      fork a child that runs ``drill.store.migrate.upgrade`` and prints "DONE";
                                      print "PID n" at once and "DEAD n STATUS" when the child is gone
trust_child.py hold URL               open a writing store, print "OPEN", wait for a line (or a kill)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def main() -> None:
    mode, *args = sys.argv[1:]
    if mode == "restore":
        from drill.store.backup import restore

        say("READY")
        sys.stdin.readline()
        restore(Path(args[0]), Path(args[1]))
        say("DONE")
    elif mode == "migrate":
        import alembic.command
        import alembic.runtime.migration  # noqa: F401

        from drill.store import migrate

        migrate.known_revisions()
        for line in sys.stdin:
            assert line.split() == ["fork"], line
            gate_r, gate_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the migration: runs (once "PID" is out) until it is done or the test kills it
                try:
                    os.close(gate_w)
                    os.read(gate_r, 1)
                    migrate.upgrade(args[0])
                    say("DONE")
                except BaseException as err:
                    os.write(2, f"migration failed: {err!r}\n".encode())
                    os._exit(3)
                os._exit(0)
            os.close(gate_r)
            say(f"PID {pid}")
            os.write(gate_w, b"g")
            os.close(gate_w)
            _, status = os.waitpid(pid, 0)
            say(f"DEAD {pid} {status}")
    elif mode == "hold":
        from drill.store import open_store

        store = open_store(args[0], "alice")
        say("OPEN")
        sys.stdin.readline()
        store.close()
        say("CLOSED")
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
