"""Run a learner's function in a separate process: time limit, memory limit, no stdin, output captured.

The learner's code must neither hang drill, outlive it, fool the grader nor touch the progress. The harness
(`drill.runner._child`, copied into a fresh run folder and run as ``python -I -S``: drill's package is not on
its path) runs in a new session with a minimal environment (`drill.runner.sandbox`: no DRILL_*, no database
URL, HOME and cwd inside the run folder), its stdin closed and its output going to a file in the run folder —
no pipe drill could wait on. A supervisor process dies with drill and kills the learner's processes with it
(a PID namespace where the kernel allows one; the subreaper's sweep otherwise); Landlock confines the
learner's process to the run folder and the Python install where the kernel has it. drill waits with its own
deadline, kills the whole group on time-out, and reads results bounded in size and checked (case index,
count, array size): anything else is an ``invalid`` run, never a traceback. The run folder is removed (one a
killed drill left is removed by the next run: `drill.runner.stale`).

Pure Python + numpy; no textual, rich or sqlalchemy.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
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
# The harness's own start (a fresh interpreter importing numpy, or torch: over 10 s on a loaded 2-core machine)
# is not the learner's time: the time limit (and the CPU limit) start when it is ready. This bounds the start.
HARNESS_START_S = 120.0


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
    elapsed_s: float = 0.0  # from the harness ready (the learner's code started) to the run's end
    limits: Limits = field(default_factory=Limits)

    @property
    def sandbox(self) -> dict:
        """What confined the run: ``landlock`` (the ABI version, 0 for none), ``pid_namespace`` (bool)."""
        found = self.load_detail.get("sandbox")
        return found if isinstance(found, dict) else {}

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


def _serialise(function: str, code: str, filename: str, cases, backend: str, run: Path) -> dict:
    """The job: inputs as JSON (numbers, strings) and ``job.npz`` (arrays), written into the run folder."""
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
    np.savez(run / "job.npz", **arrays)
    return {"function": function, "code": code, "filename": filename, "cases": job_cases, "backend": backend}


def _kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


_ACTIVE: dict[int, subprocess.Popen] = {}  # runs in progress, killed if drill exits first
_ACTIVE_LOCK = threading.Lock()


def kill_active_runs() -> None:
    """Kill every run in progress (atexit, and drill's signal handlers): the supervisor, its group, and with
    them the learner's processes (they die with their supervisor)."""
    with _ACTIVE_LOCK:
        procs = list(_ACTIVE.values())
    for proc in procs:
        _kill_group(proc.pid)


atexit.register(kill_active_runs)


def run_submission(
    code: str,
    function: str,
    cases,
    *,
    filename: str = "solution.py",
    limits: Limits | None = None,
    backend: str = "numpy",
) -> RunResult:
    """Call ``function`` defined by ``code`` on each ``(args, kwargs)`` of ``cases`` in a child process.

    drill waits for the child with its own deadline, never for a pipe's end: ``limits.time_s`` counted from the
    moment the harness is ready (its imports done, the learner's code about to run; the harness's start has its
    own bound, ``HARNESS_START_S``). The learner's output goes to a file in the run folder, read afterwards up
    to ``output_bytes``."""
    from drill.runner import sandbox, stale

    limits = limits or Limits()
    memory = max(limits.memory_mb, TORCH_MEMORY_MB) if backend == "torch" else limits.memory_mb
    start = time.perf_counter()
    sandbox.protect_drill()
    stale.prune_stale()  # what killed drills left behind
    run = Path(tempfile.mkdtemp(prefix=stale.PREFIX))
    proc = claim = None
    try:
        claim = stale.claim(run)
        job = _serialise(function, code, filename, cases, backend, run)
        job.update(sandbox.prepare(run, backend))
        job.update(
            drill_pid=os.getpid(),
            memory_mb=memory,
            cpu_s=int(limits.time_s) + 2,
            output_bytes=limits.output_bytes,
            file_bytes=FILE_BYTES,
        )
        ready_r, ready_w = os.pipe()
        job.update(ready_fd=ready_w, start_cpu_s=HARNESS_START_S)
        (run / "job.json").write_text(json.dumps(job), encoding="utf-8")
        shutil.copyfile(CHILD, run / "harness.py")
        try:
            with open(run / "out" / "output.txt", "wb") as output:
                proc = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-B", str(run / "harness.py"), str(run)],
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    close_fds=True,
                    pass_fds=(ready_w,),
                    cwd=run / "home",
                    env=sandbox.environment(run),
                    start_new_session=True,
                )
        finally:
            os.close(ready_w)
        with _ACTIVE_LOCK:
            _ACTIVE[proc.pid] = proc
        timed_out = False
        began = start
        try:
            ready = _await_ready(ready_r, start + HARNESS_START_S)
            if ready is None:  # the harness died, or took longer than its own budget, before it was ready
                began = time.perf_counter()
                proc.wait(timeout=max(0.1, start + HARNESS_START_S - began))
            else:
                began = ready
                proc.wait(timeout=max(0.1, limits.time_s - (time.perf_counter() - began)))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            os.close(ready_r)
            _kill_group(proc.pid)  # on time-out, and whatever a finished run left running
            proc.wait()
            with _ACTIVE_LOCK:
                _ACTIVE.pop(proc.pid, None)
        elapsed = time.perf_counter() - began
        try:
            result = _collect(run / "out", len(cases), timed_out)
        except Untrusted as err:
            result = RunResult(
                load="invalid", cases=[CaseOutcome(NOT_RUN) for _ in cases], load_detail={"reason": str(err)}
            )
        result.output, size = _read_capped(run / "out" / "output.txt", limits.output_bytes)
    finally:
        if proc is not None and proc.returncode is None:
            _kill_group(proc.pid)
        shutil.rmtree(run, ignore_errors=True)
        stale.release(claim)
    result.output_dropped = max(size - len(result.output.encode("utf-8", "replace")), 0)
    result.output_dropped = max(result.output_dropped, result.printed_chars - len(result.output))
    result.timed_out = timed_out
    result.returncode = proc.returncode
    result.elapsed_s = elapsed
    result.limits = limits
    return result


def _await_ready(fd: int, deadline: float) -> float | None:
    """The moment (``time.perf_counter``) the harness says it is ready — its interpreter, numpy or torch and
    the inputs loaded, the learner's code about to run — or None if the pipe ends first (the harness died)
    or ``deadline`` passes. The harness writes one byte and closes its end before any of the learner's code
    runs, so the learner can neither send it nor keep drill waiting past ``deadline``."""
    import select

    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        try:
            readable, _, _ = select.select([fd], [], [], left)
        except InterruptedError:
            continue
        if readable:
            return time.perf_counter() if os.read(fd, 1) else None


def _read_capped(path: Path, cap: int) -> tuple[str, int]:
    """The first ``cap`` bytes of ``path`` as text, and the file's size."""
    try:
        with open(path, "rb") as f:
            kept = f.read(cap)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return "", 0
    return kept.decode("utf-8", errors="replace"), size


class Untrusted(Exception):
    """The run's result files are not what the harness writes (too big, malformed, a case that does not exist)."""


EVENTS_BYTES = 4 * 1024 * 1024  # the harness writes a few KB per case
FILE_BYTES = 64 * 1024 * 1024  # RLIMIT_FSIZE in the child: no file it writes grows beyond this
ARRAY_BYTES = 32 * 1024 * 1024  # one returned array, uncompressed
_STATUSES = {"ok", "syntax", "error", "missing"}
_KEY = re.compile(r"c[0-9]{1,6}(_[0-9]{1,4}){0,8}")


def _collect(outdir: Path, n: int, timed_out: bool) -> RunResult:
    path = outdir / "events.jsonl"
    try:
        with open(path, "rb") as f:
            raw = f.read(EVENTS_BYTES + 1)
    except FileNotFoundError:
        raw = b""
    except OSError as err:
        raise Untrusted(f"events.jsonl: {err.strerror}") from None
    if len(raw) > EVENTS_BYTES:
        raise Untrusted(f"events.jsonl is larger than {EVENTS_BYTES // (1024 * 1024)} MB")
    events = []
    lines = raw.split(b"\n")
    if len(lines) > 3 * n + 3:
        raise Untrusted(f"events.jsonl has {len(lines)} lines for {n} cases")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            if number == len(lines):  # the last line, cut short by the end of the process
                break
            raise Untrusted(f"events.jsonl:{number}: not JSON") from None
        if not isinstance(event, dict):
            raise Untrusted(f"events.jsonl:{number}: not an object")
        events.append((number, event))
    load = next((e for _, e in events if e.get("kind") == "load"), None)
    if load is None:
        return RunResult(
            load="timeout" if timed_out else "lost", cases=[CaseOutcome(NOT_RUN) for _ in range(n)]
        )
    if events[0][1] is not load or load.get("status") not in _STATUSES:
        raise Untrusted("events.jsonl: the first event is not the load event")
    result = RunResult(load=load["status"], load_detail=load)
    if load["status"] != "ok":
        result.cases = [CaseOutcome(NOT_RUN) for _ in range(n)]
        return result
    outcomes = [CaseOutcome(NOT_RUN) for _ in range(n)]
    seen: set[tuple[str, int]] = set()
    for number, e in events[1:]:
        kind = e.get("kind")
        where = f"events.jsonl:{number}"
        if kind == "done":
            chars = e.get("output_chars", 0)
            result.printed_chars = chars if isinstance(chars, int) and chars >= 0 else 0
            continue
        if kind not in ("start", "result"):
            raise Untrusted(f"{where}: unknown event {str(kind)[:20]!r}")
        i = e.get("case")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
            raise Untrusted(f"{where}: case {str(i)[:20]} of {n}")
        if (kind, i) in seen:
            raise Untrusted(f"{where}: case {i + 1} reported twice")
        seen.add((kind, i))
        if kind == "start":
            outcomes[i] = CaseOutcome(TIMEOUT if timed_out else LOST)
        elif e.get("status") == "ok":
            outcomes[i] = CaseOutcome(OK, value=_decode(e.get("value"), outdir / f"r{i}.npz", f"c{i}"))
        else:
            outcomes[i] = CaseOutcome(
                ERROR,
                error_type=_text(e.get("type"), 100),
                message=_text(e.get("message"), 500),
                traceback=_text(e.get("traceback"), 20_000),
                exit_code=e.get("exit_code") if isinstance(e.get("exit_code"), int | str | None) else None,
            )
    result.cases = outcomes
    return result


def _text(value, cap: int) -> str:
    return value[:cap] if isinstance(value, str) else ""


def _decode(enc, npz: Path, key: str, depth: int = 0):
    import numpy as np

    if not isinstance(enc, dict) or depth > 8:
        raise Untrusted(f"case {key[1:]}: a malformed value")
    if enc.get("kind") == "tuple" and isinstance(enc.get("items"), list) and len(enc["items"]) <= 64:
        return tuple(_decode(item, npz, key, depth + 1) for item in enc["items"])
    if enc.get("kind") == "array":
        name = enc.get("key")
        if not isinstance(name, str) or not _KEY.fullmatch(name) or not name.startswith(key):
            raise Untrusted(f"case {int(key[1:]) + 1}: an array key that is not this case's")
        try:
            with zipfile.ZipFile(npz) as z:
                info = z.getinfo(name + ".npy")
                if info.file_size > ARRAY_BYTES:
                    raise Untrusted(f"case {int(key[1:]) + 1}: a returned array over {ARRAY_BYTES >> 20} MB")
            with np.load(npz, allow_pickle=False) as data:
                return data[name]
        except Untrusted:
            raise
        except (OSError, KeyError, ValueError, zipfile.BadZipFile, EOFError) as err:
            raise Untrusted(
                f"case {int(key[1:]) + 1}: the returned array cannot be read ({err})"[:200]
            ) from None
    return Foreign(_text(enc.get("type"), 100), _text(enc.get("repr"), 200))
