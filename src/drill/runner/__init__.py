"""Run a learner's function in a separate process: time limit, memory limit, no stdin, output captured.

This is about robustness, not security: it is the learner's own code on their own machine. The child
(`drill.runner._child`, run as a script with ``python -I``; it never imports drill) is started in a new
session, so on time-out — and after every run, for anything it left behind — the whole process group is
killed. The child limits its address space (RLIMIT_AS) and CPU time; its stdout and stderr are read into a
bounded buffer (the rest is counted, not kept). Results come back case by case through files in a temporary
directory, so a run that ends early (``os._exit``, a crash, the time limit) still reports the finished cases.

Pure Python + numpy; no textual, rich or sqlalchemy. The child is started before the inputs are serialised so
its interpreter start-up overlaps the parent's work.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

CHILD = Path(__file__).with_name("_child.py")

OK = "ok"
ERROR = "error"  # the function raised
TIMEOUT = "timeout"  # the time limit ended the run while this case was running
NOT_RUN = "not-run"  # the run ended before this case started
LOST = "lost"  # the process ended (os._exit, a crash) while this case was running


@dataclass(frozen=True)
class Limits:
    time_s: float = 10.0
    memory_mb: int = 1024
    output_bytes: int = 64 * 1024


TORCH_MEMORY_MB = 8192  # importing torch alone maps a few GB of address space


@dataclass
class CaseOutcome:
    status: str
    value: object = None  # decoded return value (ndarray, tuple of values, or Foreign)
    error_type: str | None = None
    message: str = ""
    traceback: str = ""
    exit_code: object = None  # for SystemExit


@dataclass(frozen=True)
class Foreign:
    """A returned value that is not an array or number (None, a string, an object...)."""

    type: str
    repr: str


@dataclass
class RunResult:
    load: (
        str  # "ok", "syntax", "error" (module level raised), "missing" (no such function), "lost", "timeout"
    )
    cases: list[CaseOutcome] = field(default_factory=list)
    load_detail: dict = field(default_factory=dict)
    output: str = ""  # what the learner's code printed (first Limits.output_bytes)
    output_dropped: int = 0  # bytes (or characters, through print) printed beyond that
    printed_chars: int = 0  # characters the learner's code printed through sys.stdout/stderr
    timed_out: bool = False
    returncode: int | None = None
    elapsed_s: float = 0.0
    limits: Limits = field(default_factory=Limits)

    @property
    def ended_early(self) -> str | None:
        """Why the process did not finish normally (time limit, signal, exit code), or None."""
        if self.timed_out:
            return "timeout"
        if (
            self.returncode is None
            or self.returncode == 0
            and all(c.status not in (LOST, NOT_RUN) for c in self.cases)
        ):
            return None
        if self.returncode < 0:
            return f"signal {signal.Signals(-self.returncode).name}"
        return f"exit {self.returncode}"


class _Drain(threading.Thread):
    """Reads a pipe to EOF, keeping at most ``cap`` bytes."""

    def __init__(self, stream, cap: int) -> None:
        super().__init__(daemon=True)
        self.stream, self.cap = stream, cap
        self.kept = bytearray()
        self.dropped = 0

    def run(self) -> None:
        while True:
            chunk = self.stream.read1(1 << 16) if hasattr(self.stream, "read1") else self.stream.read(1 << 16)
            if not chunk:
                break
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]
            self.dropped += max(0, len(chunk) - max(room, 0))


def _serialise(function: str, code: str, filename: str, cases, backend: str) -> bytes:
    import io

    import numpy as np

    arrays: dict[str, np.ndarray] = {}

    def spec(value, key):
        if isinstance(value, np.ndarray | np.generic):
            arrays[key] = np.asarray(value)
            return ["npz", key]
        return ["json", value]

    job_cases = []
    for i, (args, kwargs) in enumerate(cases):
        job_cases.append(
            {
                "args": [spec(a, f"c{i}_a{j}") for j, a in enumerate(args)],
                "kwargs": {k: spec(v, f"c{i}_k_{k}") for k, v in kwargs.items()},
            }
        )
    header = json.dumps(
        {"function": function, "code": code, "filename": filename, "cases": job_cases, "backend": backend}
    ).encode("utf-8")
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return len(header).to_bytes(8, "big") + header + buf.getvalue()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_submission(
    code: str,
    function: str,
    cases,
    *,
    filename: str = "solution.py",
    limits: Limits | None = None,
    backend: str = "numpy",
) -> RunResult:
    """Call ``function`` defined by ``code`` on each ``(args, kwargs)`` of ``cases`` in a child process."""
    limits = limits or Limits()
    memory = max(limits.memory_mb, TORCH_MEMORY_MB) if backend == "torch" else limits.memory_mb
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="drill-run-") as outdir:
        read_fd, write_fd = os.pipe()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env.update(
            OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONIOENCODING="utf-8"
        )
        cpu = int(limits.time_s) + 2
        proc = subprocess.Popen(
            [sys.executable, "-I", str(CHILD), str(read_fd), outdir, f"{memory},{cpu},{limits.output_bytes}"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(read_fd,),
            cwd=outdir,
            env=env,
            start_new_session=True,
        )
        os.close(read_fd)
        drain = _Drain(proc.stdout, limits.output_bytes)
        drain.start()
        timed_out = False
        try:
            payload = _serialise(function, code, filename, cases, backend)
            writer = threading.Thread(target=_write_all, args=(write_fd, payload), daemon=True)
            writer.start()
            proc.wait(timeout=max(0.1, limits.time_s - (time.perf_counter() - start)))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(proc.pid)  # on time-out, and whatever a finished run left running
            proc.wait()
            drain.join(timeout=2.0)
            proc.stdout.close()
        elapsed = time.perf_counter() - start
        result = _collect(Path(outdir), len(cases), timed_out)
    result.output = bytes(drain.kept).decode("utf-8", errors="replace")
    result.output_dropped = max(drain.dropped, result.printed_chars - len(result.output))
    result.timed_out = timed_out
    result.returncode = proc.returncode
    result.elapsed_s = elapsed
    result.limits = limits
    return result


def _write_all(fd: int, payload: bytes) -> None:
    try:
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(payload)
    except (BrokenPipeError, OSError):
        pass  # the child ended before reading its job; its exit status says why


def _collect(outdir: Path, n: int, timed_out: bool) -> RunResult:
    events = []
    path = outdir / "events.jsonl"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut short by the end of the process
                break
    load = next((e for e in events if e.get("kind") == "load"), None)
    if load is None:
        return RunResult(
            load="timeout" if timed_out else "lost", cases=[CaseOutcome(NOT_RUN) for _ in range(n)]
        )
    result = RunResult(load=load["status"], load_detail=load)
    if load["status"] != "ok":
        result.cases = [CaseOutcome(NOT_RUN) for _ in range(n)]
        return result
    outcomes = [CaseOutcome(NOT_RUN) for _ in range(n)]
    for e in events:
        if e.get("kind") == "start":
            outcomes[e["case"]] = CaseOutcome(TIMEOUT if timed_out else LOST)
        elif e.get("kind") == "result":
            i = e["case"]
            if e["status"] == "ok":
                outcomes[i] = CaseOutcome(OK, value=_decode(e["value"], outdir / f"r{i}.npz"))
            else:
                outcomes[i] = CaseOutcome(
                    ERROR,
                    error_type=e["type"],
                    message=e.get("message", ""),
                    traceback=e.get("traceback", ""),
                    exit_code=e.get("exit_code"),
                )
        elif e.get("kind") == "done":
            result.printed_chars = e.get("output_chars", 0)
    result.cases = outcomes
    return result


def _decode(enc: dict, npz: Path):
    import numpy as np

    if enc["kind"] == "tuple":
        return tuple(_decode(item, npz) for item in enc["items"])
    if enc["kind"] == "array":
        with np.load(npz, allow_pickle=False) as data:
            return data[enc["key"]]
    return Foreign(enc["type"], enc["repr"])
