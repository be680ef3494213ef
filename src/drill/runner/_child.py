"""The child process that runs a learner's function (run as a script: ``python -I _child.py FD OUTDIR LIMITS``).

Stdlib + numpy (+ torch when asked) only: it never imports drill. It limits its own address space, reads the
job from pipe FD (a JSON header, then an npz of input arrays), closes the pipe, compiles the learner's code
under its display file name, and calls the function once per case. Each case's result is written to OUTDIR as
it finishes (``events.jsonl`` plus ``r<i>.npz``), so whatever ends the process early (``os._exit``, a crash, the
parent's time-out) leaves the finished cases readable. Tracebacks keep only the learner's own frames.
"""

import io
import json
import linecache
import os
import resource
import sys
import traceback


def limit(memory_mb, cpu_s):
    if memory_mb:
        size = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu_s:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_s), int(cpu_s) + 1))


def read_all(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


class Capped(io.TextIOBase):
    """sys.stdout/sys.stderr for the learner: keeps the first ``cap`` characters, counts the rest."""

    def __init__(self, stream, cap):
        self.stream, self.cap, self.written = stream, cap, 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        room = self.cap - self.written
        if room > 0:
            self.stream.write(text[:room])
            self.stream.flush()
        self.written += len(text)
        return len(text)

    def flush(self):
        self.stream.flush()


def learner_traceback(exc, filename):
    """The exception with only the frames in the learner's file (none: just the exception line)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    lines = traceback.format_list(frames) if frames else []
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()


def exit_code(exc):
    if not isinstance(exc, SystemExit):
        return None
    return exc.code if isinstance(exc.code, (int, type(None))) else repr(exc.code)[:100]


def main():
    fd, outdir = int(sys.argv[1]), sys.argv[2]
    memory_mb, cpu_s, output_cap = (int(v) for v in sys.argv[3].split(","))
    limit(memory_mb, cpu_s)
    import numpy as np

    raw = read_all(fd)
    header_len = int.from_bytes(raw[:8], "big")
    job = json.loads(raw[8 : 8 + header_len].decode("utf-8"))
    arrays = np.load(io.BytesIO(raw[8 + header_len :]), allow_pickle=False)
    backend = job.get("backend", "numpy")
    torch = None
    if backend == "torch":
        import torch

    events = open(os.path.join(outdir, "events.jsonl"), "a", encoding="utf-8")
    me = os.getpid()

    def event(**fields):
        if os.getpid() != me:  # a fork of the learner's code must not report: leave quietly
            os._exit(0)
        events.write(json.dumps(fields) + "\n")
        events.flush()

    def decode(spec):
        kind, value = spec
        if kind == "json":
            return value
        arr = arrays[value]
        if torch is not None:
            return torch.from_numpy(arr.copy())
        return arr.copy()

    def encode(value, key, store):
        if torch is not None and isinstance(value, torch.Tensor):
            value = value.detach().cpu().numpy()
        if isinstance(value, (tuple, list)) and not (
            value and all(isinstance(v, (int, float, bool)) for v in value)
        ):
            return {
                "kind": "tuple",
                "items": [encode(v, f"{key}_{i}", store) for i, v in enumerate(value)],
                "type": type(value).__name__,
            }
        if isinstance(value, (np.ndarray, np.generic, int, float, bool, list)):
            arr = np.asarray(value)
            if arr.dtype == object:
                return {"kind": "other", "type": type(value).__name__, "repr": repr(value)[:200]}
            store[key] = arr
            return {"kind": "array", "key": key, "type": type(value).__name__}
        return {"kind": "other", "type": type(value).__name__, "repr": repr(value)[:200]}

    filename, code, function = job["filename"], job["code"], job["function"]
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    out = Capped(sys.stdout, output_cap)
    sys.stdout = sys.stderr = out
    namespace = {"__name__": "__submission__", "__file__": filename}
    try:
        compiled = compile(code, filename, "exec")
    except SyntaxError as exc:
        event(
            kind="load",
            status="syntax",
            line=exc.lineno,
            offset=exc.offset,
            message=exc.msg,
            text=(exc.text or "").rstrip("\n"),
        )
        return
    try:
        exec(compiled, namespace)
    except BaseException as exc:
        event(
            kind="load",
            status="error",
            type=type(exc).__name__,
            traceback=learner_traceback(exc, filename),
            exit_code=exit_code(exc),
        )
        return
    fn = namespace.get(function)
    if not callable(fn):
        event(kind="load", status="missing", function=function)
        return
    event(kind="load", status="ok")
    for i, case in enumerate(job["cases"]):
        args = [decode(a) for a in case["args"]]
        kwargs = {k: decode(v) for k, v in case["kwargs"].items()}
        event(kind="start", case=i)
        try:
            value = fn(*args, **kwargs)
            store = {}
            encoded = encode(value, f"c{i}", store)
            if store:
                np.savez(os.path.join(outdir, f"r{i}.npz"), **store)
            event(kind="result", case=i, status="ok", value=encoded)
        except BaseException as exc:
            event(
                kind="result",
                case=i,
                status="error",
                type=type(exc).__name__,
                message=str(exc)[:500],
                traceback=learner_traceback(exc, filename),
                exit_code=exit_code(exc),
            )
    event(kind="done", output_chars=out.written)


if __name__ == "__main__":
    main()
