"""Processes as `ps` sees them: the hostile-submission tests name their processes (prctl PR_SET_NAME) and look
for survivors by that name; the kill tests find the runner's supervisor among drill's children."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator


def _stats() -> Iterator[tuple[int, str, bytes, list[bytes]]]:
    """(pid, comm, state, the fields after the state) of every process /proc still shows."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index(b"(") + 1 : stat.rindex(b")")].decode(errors="replace")
        state, *rest = stat[stat.rindex(b")") + 2 :].split()
        yield int(pid), comm, state, rest


def live_processes_named(name: str, settle_s: float = 0.5) -> list[int]:
    """Live (non-zombie) processes whose comm is ``name``, after at most ``settle_s`` for the kernel to finish
    killing them."""
    deadline = time.monotonic() + settle_s
    while True:
        found = [pid for pid, comm, state, _rest in _stats() if comm == name[:15] and state != b"Z"]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def children_running(parent: int, program: str) -> list[int]:
    """The processes whose parent is ``parent`` and one of whose arguments ends with ``program``."""
    found = []
    for pid, _comm, _state, rest in _stats():
        if int(rest[0]) != parent:  # the field after the state is the parent's pid
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if any(arg.decode(errors="replace").endswith(program) for arg in argv):
            found.append(pid)
    return found
