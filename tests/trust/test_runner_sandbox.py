"""Hostile submissions: the learner's code can neither hang drill, outlive it, fool the grader nor touch the progress.

Each test is a submission that did one of these to an earlier runner (issue 29): a detached process holding
the output pipe, a fork that leaves the session, importing drill's reference solution, writing the database,
writing drill's terminal through /proc/<drill>/fd/1, a huge or forged result file, signals to `drill code`,
closed stdin. Processes are found by the name the submission gives them (prctl PR_SET_NAME).
"""

from __future__ import annotations

import os
import pty
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from drill.engine.codetasks import get_task
from drill.runner import ERROR, OK, Limits, run_submission
from drill.runner.verdict import check
from tests.trust.processes import live_processes_named

SOFTMAX = get_task("softmax")
SOLUTION = SOFTMAX.solution()


def _landlock_abi() -> int:
    import ctypes

    abi = ctypes.CDLL(None, use_errno=True).syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(abi, 0)


LANDLOCK = {"landlock": _landlock_abi()}  # the kernel's, not what the runner says it applied


def _name(prefix: str) -> str:
    return f"{prefix}{os.getpid() % 10000}{time.time_ns() % 10000}"[:15]


def _rename(name: str) -> str:
    return f"    __import__('ctypes').CDLL(None).prctl(15, {name.encode()!r}, 0, 0, 0)\n"


def _run(code, n=2, **limits):
    return run_submission(
        code, "softmax", [((np.zeros((2, 3)),), {}) for _ in range(n)], limits=Limits(**limits)
    )


def _drill_env(tmp_path: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    runs = tmp_path / "runs"
    runs.mkdir(exist_ok=True)
    env.update(DRILL_DATA_DIR=str(data), DRILL_CONFIG_DIR=str(tmp_path), TMPDIR=str(runs), **extra)
    return env


def _write(tmp_path: Path, text: str, name: str = "sol.py") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- cannot hang drill, cannot outlive it ------------------------------------------------------------------


DETACHED = """import os, time
import numpy as np
def softmax(x):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            __import__("ctypes").CDLL(None).prctl(15, {name}, 0, 0, 0)
            time.sleep(45)  # holds stdout and stderr open
        os._exit(0)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)
"""


def test_a_detached_grandchild_holding_the_output_neither_blocks_drill_nor_outlives_the_run(tmp_path):
    name = _name("dt")
    code = DETACHED.format(name=repr(name.encode()))
    started = time.monotonic()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "drill",
            "code",
            "softmax",
            "--check",
            _write(tmp_path, code),
            "--time-limit",
            "3",
        ],
        capture_output=True,
        text=True,
        env=_drill_env(tmp_path),
        timeout=120,
    )
    took = time.monotonic() - started
    assert out.returncode == 0, out.stdout + out.stderr
    assert took < 30, took  # the grandchild sleeps 45 s: drill did not wait for it
    assert live_processes_named(name) == []
    assert list((tmp_path / "runs").iterdir()) == []


def test_a_fork_that_leaves_the_session_and_loops_dies_with_the_run():
    name = _name("fk")
    code = (
        "import os, time\nimport numpy as np\ndef softmax(x):\n"
        "    if os.fork() == 0:\n        os.setsid()\n"
        + "    "
        + _rename(name)
        + "        while True:\n            time.sleep(0.05)\n"
        "    return np.ones_like(x) / x.shape[-1]\n"
    )
    r = _run(code)
    assert [c.status for c in r.cases] == [OK, OK]
    assert live_processes_named(name) == []


SLOW = "import time\ndef softmax(x):\n{rename}    time.sleep(60)\n"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL])
def test_a_signal_to_drill_code_kills_the_learners_processes_and_removes_the_run_folder(sig, tmp_path):
    name = _name("sg")
    sol = _write(tmp_path, SLOW.format(rename=_rename(name)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "drill", "code", "softmax", "--check", sol, "--time-limit", "60", "--no-save"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_drill_env(tmp_path),
    )
    deadline = time.monotonic() + 60
    while not live_processes_named(name, settle_s=0) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live_processes_named(name, settle_s=0), "the submission never started"
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert live_processes_named(name, settle_s=3) == []
    deadline = time.monotonic() + 5
    while list((tmp_path / "runs").iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list((tmp_path / "runs").iterdir()) == []


def test_a_correct_solution_passes_with_stdin_closed(tmp_path):
    sol = _write(tmp_path, SOLUTION)
    out = subprocess.run(
        ["sh", "-c", f'exec "$0" -m drill code softmax --check "{sol}" --no-save 0<&-', sys.executable],
        capture_output=True,
        text=True,
        env=_drill_env(tmp_path),
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "passed" in out.stdout


# --- cannot fool the grader ---------------------------------------------------------------------------------


def test_drills_reference_solution_cannot_be_imported():
    verdict = check(SOFTMAX, "from drill.engine.codetasks.solutions.softmax import softmax\n", seed=3)
    assert verdict.run.load == "error" and verdict.run.load_detail["type"] == "ModuleNotFoundError"
    assert not verdict.all_passed


@pytest.mark.skipif(not LANDLOCK.get("landlock"), reason="the kernel has no Landlock: files are readable")
def test_drills_source_cannot_be_read_by_path():
    import drill.engine.codetasks as tasks

    source = Path(tasks.__file__)
    code = f"def softmax(x):\n    return open({str(source)!r}).read()\n"
    r = _run(code, n=1)
    assert r.cases[0].status == ERROR and r.cases[0].error_type == "PermissionError"


def test_the_environment_has_nothing_of_drills():
    code = "import os\ndef softmax(x):\n    print(sorted(os.environ))\n    print(os.getcwd(), os.environ['HOME'])\n    return x\n"
    os.environ["DRILL_DB_URL"] = "postgresql://alice:s3cret@localhost/drill"
    try:
        r = _run(code, n=1)
    finally:
        del os.environ["DRILL_DB_URL"]
    assert r.cases[0].status == OK
    assert "DRILL" not in r.output and "s3cret" not in r.output
    cwd, home = r.output.splitlines()[1].split()
    assert cwd == home and "drill-run-" in home


FORGE = """import os, json
def softmax(x):
    events = os.path.join(os.environ["HOME"], "..", "out", "events.jsonl")
    with open(events, "a") as f:
{body}    return x
"""


def test_a_forged_result_for_case_999_is_one_line(tmp_path):
    body = '        f.write(json.dumps({"kind": "result", "case": 999, "status": "ok", "value": {"kind": "other", "type": "x", "repr": "x"}}) + "\\n")\n'
    sol = _write(tmp_path, FORGE.format(body=body))
    out = subprocess.run(
        [sys.executable, "-m", "drill", "code", "softmax", "--check", sol],
        capture_output=True,
        text=True,
        env=_drill_env(tmp_path),
        timeout=120,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and "case 999" in out.stderr and "cannot be trusted" in out.stderr


def test_a_three_million_line_result_file_is_refused_unread():
    body = "        for _ in range(3_000_000):\n            f.write('{}\\n')\n"
    r = _run(FORGE.format(body=body), n=1, time_s=20)
    assert r.load == "invalid" and "larger than" in r.load_detail["reason"]
    assert r.cases[0].status == "not-run"


def test_a_case_reported_twice_is_refused():
    body = "        pass\n    os.fork() or os._exit(0)\n    import numpy as np\n"
    code = FORGE.format(body=body).replace(
        "    return x\n",
        "    with open(events, 'a') as f:\n"
        "        f.write(json.dumps({'kind': 'start', 'case': 0}) + '\\n')\n"
        "    return x\n",
    )
    r = _run(code, n=1)
    assert r.load == "invalid" and "twice" in r.load_detail["reason"]


# --- cannot touch the progress or the terminal --------------------------------------------------------------


@pytest.mark.skipif(not LANDLOCK.get("landlock"), reason="the kernel has no Landlock: files are writable")
def test_the_database_in_the_data_folder_cannot_be_written(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("DRILL_DATA_DIR", str(data))
    db = data / "drill.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("create table reviews (id integer)")
        conn.execute("insert into reviews values (1), (2), (3)")
    code = (
        "import sqlite3\ndef softmax(x):\n"
        f"    conn = sqlite3.connect({str(db)!r})\n"
        "    conn.execute('delete from reviews')\n    conn.commit()\n    return x\n"
    )
    r = _run(code, n=1)
    assert r.cases[0].status == ERROR
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from reviews").fetchone() == (3,)


PROC_WRITE = """import os
def softmax(x):
    for fd in (1, 2):
        try:
            with open("/proc/{pid}/fd/%d" % fd, "w") as f:
                f.write("\\x1b[2J\\x1b[31mFORGED 9/9 passed\\n")
        except OSError:
            pass
    print("\\x1b]0;pwned\\x07printed")
    return x
"""


def test_writing_to_drills_terminal_through_proc_does_not_reach_it(tmp_path):
    """drill runs on a pty; the submission writes to /proc/<drill>/fd/1 and prints an escape sequence."""
    sol = tmp_path / "sol.py"
    main, secondary = pty.openpty()
    env = _drill_env(tmp_path)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys; from pathlib import Path; "
            "Path(sys.argv[1]).write_text(sys.argv[2].replace('{pid}', str(os.getpid()))); "
            "from drill.cli import main; main(['code', 'softmax', '--check', sys.argv[1], '--no-save'])",
            str(sol),
            PROC_WRITE,
        ],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        start_new_session=True,
    )
    os.close(secondary)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 1)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=10)
    os.close(main)
    assert b"FORGED" not in seen, seen
    assert b"\x1b]0;" not in seen and b"\x1b[2J" not in seen
    assert b"printed" in seen  # what it printed is shown, through the sanitiser
