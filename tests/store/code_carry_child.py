"""Child process for the carry-over fault test (tests/store/test_store_code_carry.py).

    code_carry_child.py URL USER after-first-card   sync the content; after the first card's progress is
                                                    carried (inside the transaction) print PAUSED and wait
    code_carry_child.py URL USER before-commit      the same, after every card is carried, before the commit
    code_carry_child.py URL USER finish             sync the content; print "DONE <cards carried>"

The test kills a paused child with SIGKILL. The pause is a wrapper around drill's own functions, in this child
only: drill itself has no test hook.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC

from drill.content import load_content
from drill.store import code_carry, open_store
from drill.store import sync as store_sync


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def pause() -> None:
    say("PAUSED")
    sys.stdin.readline()  # the test kills us here
    raise SystemExit("not killed")


def main(url: str, user: str, mode: str) -> None:
    library = load_content()
    carried = []
    carry, move = store_sync.carry_code_progress, code_carry._carry

    def carry_wrapper(*args):
        carried.append(carry(*args))
        if mode == "before-commit":
            pause()
        return carried[-1]

    def move_wrapper(*args):
        result = move(*args)
        if mode == "after-first-card" and result:
            pause()
        return result

    store_sync.carry_code_progress = carry_wrapper
    code_carry._carry = move_wrapper
    store = open_store(url, user)
    store.tz = UTC
    store.sync_content(library)
    store.close()
    say(f"DONE {sum(carried)}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
