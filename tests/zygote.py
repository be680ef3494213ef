"""The kill tests' child harness (tests/trust/acknowledged_child.py, tests/trust/backup_child.py,
tests/store/store_child.py). A zygote imports everything once, then reads "fork ARGS..." lines on stdin; for each
it forks a worker, prints "PID n", waits for the worker to die (the test kills it) and prints "DEAD n STATUS".
A worker that fails says why on stderr and exits 3. Every line is one write(2), so a kill never leaves half a
line."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def serve(work: Callable[[list[str]], None], *, gated: bool = False) -> None:
    """Fork ``work(args)`` for each "fork ARGS..." line of stdin, one worker at a time, until stdin ends.
    ``gated``: the worker starts only once "PID n" is out (a test that times the work from that line)."""
    for line in sys.stdin:
        command, *args = line.split()
        assert command == "fork", line
        gate_r, gate_w = os.pipe() if gated else (-1, -1)
        pid = os.fork()
        if pid == 0:
            try:
                if gated:
                    os.close(gate_w)
                    os.read(gate_r, 1)
                work(args)
            except BaseException as err:
                os.write(2, f"worker failed: {err!r}\n".encode())
                os._exit(3)
            os._exit(0)
        say(f"PID {pid}")
        if gated:
            os.close(gate_r)
            os.write(gate_w, b"g")
            os.close(gate_w)
        _, status = os.waitpid(pid, 0)
        say(f"DEAD {pid} {status}")
