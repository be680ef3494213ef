"""Child processes for the trust fault tests (restore, migration, the single-writer lock).

trust_child.py restore DB BACKUP      import everything, print "READY", wait for a line, restore, print "DONE"
trust_child.py migrate URL            a zygote (tests/zygote.py): import Alembic and the revisions once, then
                                      for each "fork" line fork ``drill.store.migrate.upgrade`` (it prints "DONE")
trust_child.py hold URL               open a writing store, print "OPEN", wait for a line (or a kill)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.zygote

from tests.zygote import say, serve


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

        def migration(_args: list[str]) -> None:
            migrate.upgrade(args[0])
            say("DONE")

        serve(migration, gated=True)
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
