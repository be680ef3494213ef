"""The harness that runs a learner's function (copied into the run's folder, run as ``python -I -S harness.py RUN``).

Stdlib + numpy (+ torch when asked) only: it never imports drill, and drill's package is not on its path.
RUN is the run's folder; ``RUN/job.json`` says what to do (``job.npz`` holds the input arrays). Two processes:

* the **supervisor** (drill's child): dies with drill (``PR_SET_PDEATHSIG``), becomes the child subreaper, and
  where the kernel allows it (an unprivileged user namespace) puts the learner in a new PID namespace, so when
  the learner's first process ends — or is killed — the kernel kills every process it started, whatever
  session or group they moved to. Without namespaces it kills every descendant it finds (orphans come back to it
  as the subreaper). When drill dies it kills the learner and removes RUN.
* the **learner's process**: dies with the supervisor, limits its address space, CPU time and file sizes,
  closes everything but stdout/stderr (a file in RUN, not a pipe), and — where the kernel has Landlock —
  confines itself to RUN (read-write) and the Python/numpy install (read, execute: drill's own package and
  the data folder excluded), with no TCP and no signals or abstract sockets outside its sandbox. Then it calls
  the function once per case and writes each result to RUN/out as it finishes (``events.jsonl`` plus
  ``r<i>.npz``), so whatever ends the process early leaves the finished cases readable.
"""

import ctypes
import io
import json
import linecache
import os
import resource
import shutil
import signal
import sys
import traceback

PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_CHILD_SUBREAPER = 1, 4, 38, 36
CLONE_NEWUSER, CLONE_NEWPID = 0x10000000, 0x20000000
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on x86-64 and arm64

libc = ctypes.CDLL(None, use_errno=True)


def prctl(option, value):
    return libc.prctl(ctypes.c_int(option), ctypes.c_ulong(value), 0, 0, 0)


def die_with_parent(parent):
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL if parent != "drill" else signal.SIGTERM)


# --- Landlock (the kernel interface: linux/landlock.h) -------------------------------------------------------

FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1, 2, 4, 8
FS_ALL_V1 = (1 << 13) - 1
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2


class RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi():
    abi = libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return abi if abi > 0 else 0


def landlock(read_paths, write_paths, list_paths=()):
    """Confine this process (and what it starts) to ``read_paths`` (read, execute), ``write_paths`` (all) and
    ``list_paths`` (their names only).
    Returns the ABI version applied, or 0 when the kernel has no Landlock (nothing is confined then)."""
    abi = landlock_abi()
    if not abi:
        return 0
    fs = FS_ALL_V1 | (FS_REFER if abi >= 2 else 0) | (FS_TRUNCATE if abi >= 3 else 0)
    fs |= FS_IOCTL_DEV if abi >= 5 else 0
    attr = RulesetAttr(fs, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0, 0)
    if abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return 0
    read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
    for paths, rights in ((read_paths, read), (write_paths, fs), (list_paths, FS_READ_DIR)):
        for path in paths:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            allowed = rights if os.path.isdir(path) else rights & FILE_RIGHTS
            rule = PathBeneath(allowed & fs, fd)
            libc.syscall(SYS_ADD_RULE, ruleset, 1, ctypes.byref(rule), ctypes.c_uint32(0))
            os.close(fd)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    ok = libc.syscall(SYS_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) == 0
    os.close(ruleset)
    if not ok:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    return abi


# --- the supervisor ------------------------------------------------------------------------------------------


def descendants(root):
    """Every live process whose parent chain leads to ``root`` (from /proc)."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            if fields[0] != b"Z":
                parent[int(name)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, pp in parent.items() if pp in frontier and pid not in found}
        found |= frontier
    return found


def sweep(me):
    """Kill every descendant of this process until none is left, and reap them."""
    for _ in range(50):
        pids = descendants(me)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reap()


def reap():
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def enter_pid_namespace():
    """A new user + PID namespace for the learner's process (False where the kernel refuses)."""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(ctypes.c_int(CLONE_NEWUSER | CLONE_NEWPID)) != 0:
        return False
    try:
        for name, text in (
            ("setgroups", "deny"),
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
    except OSError:
        pass  # unmapped: the learner's process runs as the overflow id inside; files are still ours
    return True


def supervise(run, job):
    die_with_parent("drill")
    if os.getppid() != job["drill_pid"]:  # drill ended before the line above
        os._exit(1)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    namespaced = enter_pid_namespace()
    me = os.getpid()
    learner = os.fork()
    if learner == 0:
        die_with_parent("supervisor")
        if os.getppid() != me and not namespaced:
            os._exit(1)
        if namespaced:  # pid 1 of the namespace: take back the default actions pid 1 lacks
            signal.signal(signal.SIGTERM, lambda *_: os._exit(143))
        learn(run, job, namespaced)
        os._exit(0)

    def drill_died(*_):
        try:
            os.kill(learner, signal.SIGKILL)
        except OSError:
            pass
        sweep(me)
        shutil.rmtree(run, ignore_errors=True)
        os._exit(1)

    os.close(job["ready_fd"])  # the learner's process holds the only copy: drill reads its end of file
    signal.signal(signal.SIGTERM, drill_died)
    signal.signal(signal.SIGHUP, drill_died)
    signal.signal(signal.SIGINT, drill_died)
    if os.getppid() != job["drill_pid"]:
        drill_died()
    while True:
        try:
            _pid, status = os.waitpid(learner, 0)
            break
        except InterruptedError:
            continue
    sweep(me)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(me, sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


# --- the learner's process -----------------------------------------------------------------------------------


def limit(memory_mb, cpu_s, file_bytes):
    if memory_mb:
        size = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu_s:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_s), int(cpu_s) + 1))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file over the limit is an error (EFBIG), not a death
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))


def ready(fd, cpu_s):
    """The harness is ready (interpreter, numpy, torch, the inputs loaded): the learner's CPU limit is counted
    from here, and drill, told through ``fd`` (closed here, before any of the learner's code runs: it can
    neither send this nor hold the pipe), starts the learner's time limit."""
    if cpu_s:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = int(usage.ru_utime + usage.ru_stime) + 1
        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = used + int(cpu_s)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard - 1)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    try:
        os.write(fd, b"R")
    except OSError:
        pass  # drill is gone: the supervisor ends the run
    os.close(fd)


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
            try:
                self.stream.write(text[:room])
                self.stream.flush()
            except OSError:
                pass
        self.written += len(text)
        return len(text)

    def flush(self):
        try:
            self.stream.flush()
        except OSError:
            pass


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


class NotDrill:
    """Refuses to import drill (its reference solutions live there), for a regular install whose drill/ sits in
    site-packages; Landlock, where present, also makes those files unreadable."""

    def find_spec(self, name, path=None, target=None):
        if name == "drill" or name.startswith("drill."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def learn(run, job, namespaced):
    ready_fd = job["ready_fd"]
    os.closerange(3, ready_fd)  # nothing of drill's is open here (close_fds), and nothing else will be
    os.closerange(ready_fd + 1, 65536)
    limit(job["memory_mb"], job["start_cpu_s"] + job["cpu_s"], job["file_bytes"])
    out_dir = os.path.join(run, "out")
    abi = landlock(job["read_paths"], [run] + job["write_paths"], job["list_paths"])
    sandbox = {"landlock": abi, "pid_namespace": namespaced}
    sys.path[:] = job["sys_path"]
    sys.meta_path.insert(0, NotDrill())
    import numpy as np

    arrays = np.load(os.path.join(run, "job.npz"), allow_pickle=False)
    backend = job.get("backend", "numpy")
    torch = None
    if backend == "torch":
        import torch

    events = open(os.path.join(out_dir, "events.jsonl"), "a", encoding="utf-8")
    me = os.getpid()
    ready(ready_fd, job["cpu_s"])

    def mine():
        if os.getpid() != me:  # a fork of the learner's code must not report or write: leave quietly
            os._exit(0)

    def event(**fields):
        mine()
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
    out = Capped(sys.stdout, job["output_bytes"])
    sys.stdout = sys.stderr = out
    namespace = {"__name__": "__submission__", "__file__": filename}
    home = os.path.join(run, "home")
    os.chdir(home)
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
            sandbox=sandbox,
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
            sandbox=sandbox,
        )
        return
    fn = namespace.get(function)
    if not callable(fn):
        event(kind="load", status="missing", function=function, sandbox=sandbox)
        return
    event(kind="load", status="ok", sandbox=sandbox)
    for i, case in enumerate(job["cases"]):
        args = [decode(a) for a in case["args"]]
        kwargs = {k: decode(v) for k, v in case["kwargs"].items()}
        event(kind="start", case=i)
        try:
            value = fn(*args, **kwargs)
            mine()  # before the arrays are saved: a fork writing r{i}.npz beside us would corrupt it
            store = {}
            encoded = encode(value, f"c{i}", store)
            if store:
                part = os.path.join(out_dir, f"r{i}.npz.part")
                with open(part, "wb") as f:
                    np.savez(f, **store)
                mine()
                os.replace(part, os.path.join(out_dir, f"r{i}.npz"))
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


def main():
    run = sys.argv[1]
    with open(os.path.join(run, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    supervise(run, job)


if __name__ == "__main__":
    main()
