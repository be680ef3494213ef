"""Processes as `ps` sees them: the hostile-submission tests name their processes (prctl PR_SET_NAME) and look
for survivors by that name."""

from __future__ import annotations

import os
import time


def live_processes_named(name: str, settle_s: float = 0.5) -> list[int]:
    """Live (non-zombie) processes whose comm is ``name``, after at most ``settle_s`` for the kernel to finish
    killing them."""
    deadline = time.monotonic() + settle_s
    while True:
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            comm = stat[stat.index(b"(") + 1 : stat.rindex(b")")].decode(errors="replace")
            state = stat[stat.rindex(b")") + 2 :].split()[0]
            if comm == name[:15] and state != b"Z":
                found.append(int(pid))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)
