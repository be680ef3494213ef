"""What drill.entry sets for its own process before a command runs: OpenBLAS's idle threads sleep at once
(``OPENBLAS_THREAD_TIMEOUT``) unless the user set it, and their number is left as it was, so the engine's
split of big traces over cores (drill.engine.parallel, which reads it) is unchanged. A new interpreter each
time: OpenBLAS reads its environment once, when numpy loads it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = """
import json, os, sys
if sys.argv[1] == "tuned":
    from drill.entry import tune_process
    tune_process()
import numpy, threadpoolctl
from drill.engine import parallel
blas = [lib.num_threads for lib in threadpoolctl.ThreadpoolController().lib_controllers if lib.user_api == "blas"]
print(json.dumps({"timeout": os.environ.get("OPENBLAS_THREAD_TIMEOUT"), "blas": blas, "workers": parallel.workers()}))
"""


def probe(mode: str, **env: str) -> dict:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_THREAD_TIMEOUT", "OPENBLAS_NUM_THREADS")
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_openblas_threads_sleep_at_once_and_keep_their_number():
    plain, tuned = probe("plain", OPENBLAS_NUM_THREADS="2"), probe("tuned", OPENBLAS_NUM_THREADS="2")
    assert plain["timeout"] is None and tuned["timeout"] == "4"
    assert tuned["blas"] == plain["blas"] == [2]
    assert tuned["workers"] == plain["workers"]


def test_a_spin_the_user_set_is_kept():
    assert probe("tuned", OPENBLAS_THREAD_TIMEOUT="20")["timeout"] == "20"
