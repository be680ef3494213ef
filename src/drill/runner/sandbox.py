"""What the learner's process may see: its environment, its import path and the files Landlock lets it open.

* `environment(run)`: PATH, LANG, HOME and TMPDIR inside the run folder, single-threaded BLAS — nothing of
  drill's environment (no DRILL_*, no database URL or password).
* `prepare(run, backend)`: the run folder's layout (``home/`` the cwd, ``tmp/``, ``out/`` for results), the import
  path (the stdlib and site-packages, no .pth files: an editable install's drill is not on it), and
  Landlock's read-only roots — the Python install, the venv, the system's shared libraries — with drill's
  package, its data, config and cache folders cut out of them (Landlock only allows; a root that holds one
  of those is allowed child by child, around it).
* `protect_drill()`: drill's own process is made non-dumpable, so a process of the same (non-root) user
  cannot open ``/proc/<drill>/fd/*`` — drill's terminal — even where the kernel has no Landlock.

Stdlib only.
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
from pathlib import Path

_SYSTEM_ROOTS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc/ld.so.cache", "/proc/cpuinfo")
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
_SYSTEM_READ = ("/sys/devices/system/cpu",)


def environment(run: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(run / "home"),
        "TMPDIR": str(run / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _is_drills(name: str) -> bool:
    low = name.lower()
    return (
        low == "drill"
        or low.startswith("drill-")
        and low.endswith(".dist-info")
        or low.endswith(".pth")
        or low.startswith("__editable__")
        or low.startswith("_editable_impl")
    )


def _site_dirs() -> list[Path]:
    found = []
    for entry in sys.path:
        if entry and os.path.basename(entry) in ("site-packages", "dist-packages") and os.path.isdir(entry):
            path = Path(entry)
            if path not in found:
                found.append(path)
    return found


def _hidden() -> list[Path]:
    """What the learner's process must not open: drill's package and the learner's data."""
    import drill
    from drill import paths

    hidden = [Path(p).resolve() for p in drill.__path__]
    for site in _site_dirs():
        hidden += [site / name for name in os.listdir(site) if _is_drills(name)]
    for folder in (paths.data_dir, paths.config_dir, paths.cache_dir):
        try:
            hidden.append(folder().resolve())
        except (OSError, RuntimeError):
            pass
    return [p.resolve() for p in hidden]


def _around(root: str, hidden: list[str], out: list[str], listed: list[str], depth: int = 0) -> None:
    """Allow ``root`` — or, if it holds something hidden, each of its children but the hidden ones (``root``
    itself then only listed: an import reads the directory's names; Landlock's list right reaches the hidden
    folder's names too, never its files' content)."""
    root = os.path.realpath(root)
    if not any(h == root or h.startswith(root + os.sep) for h in hidden):
        out.append(root)
        return
    if root in hidden or depth > 12 or not os.path.isdir(root):
        return
    try:
        children = [entry.path for entry in os.scandir(root)]
    except OSError:
        return
    listed.append(root)
    for child in children:
        _around(child, hidden, out, listed, depth + 1)


_ROOTS: tuple[list[str], list[str]] | None = None


def read_roots() -> tuple[list[str], list[str]]:
    """Landlock's read-only roots, and the folders only listed (computed once per process: the install
    does not move)."""
    global _ROOTS
    if _ROOTS is None:
        hidden = [str(p) for p in _hidden()]
        roots = [sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))]
        roots += [p for p in _SYSTEM_ROOTS if os.path.exists(p)]
        roots += [str(p) for p in _site_dirs()]
        out: list[str] = []
        listed: list[str] = []
        for root in roots:
            if os.path.exists(root):
                _around(root, hidden, out, listed)
        out += [p for p in _SYSTEM_READ if os.path.exists(p)]
        _ROOTS = sorted(set(out)), sorted(set(listed))
    return _ROOTS


def _import_path() -> list[str]:
    """The stdlib and site-packages, in this process's order (no .pth file is run: -S): an editable install's
    path to drill's source is not among them. A regular install's drill/ is, and the harness's finder refuses
    it (Landlock makes it unreadable too)."""
    stdlib = sysconfig.get_paths()["stdlib"]
    keep = [p for p in sys.path if p and (p == stdlib or p.startswith(stdlib + os.sep) or p.endswith(".zip"))]
    return [*keep, *(str(p) for p in _site_dirs())]


def prepare(run: Path, backend: str = "numpy") -> dict:
    for name in ("home", "tmp", "out"):
        (run / name).mkdir()
    read, listed = read_roots()
    return {
        "sys_path": _import_path(),
        "read_paths": read,
        "list_paths": listed,
        "write_paths": [p for p in _DEVICES if os.path.exists(p)],
    }


_protected = False


def protect_drill() -> None:
    """PR_SET_DUMPABLE 0 for drill's own process (once): /proc/<drill>/fd is then closed to other processes
    of the same user. It does not stop root, who may read any process's files (Landlock does, where present)."""
    global _protected
    if _protected or not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    _protected = True
