"""The runner: the learner's code runs in its own process; whatever it does, the result is clear and in time."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from drill.engine.codetasks import TASKS, get_task
from drill.runner import ERROR, LOST, NOT_RUN, OK, TIMEOUT, Limits, run_submission
from drill.runner.verdict import check, lines
from tests.trust.processes import live_processes_named

SOFTMAX = get_task("softmax")


@pytest.mark.parametrize("name", list(TASKS))
def test_reference_solution_passes_its_hidden_tests(name):
    task = TASKS[name]
    verdict = check(task, task.solution(), seed=12345)
    assert verdict.all_passed, "\n".join(lines(verdict))
    assert verdict.passed == len(task.cases(12345)) >= 5


def test_a_new_seed_each_run_and_the_same_tests_for_the_same_seed():
    a, b = check(SOFTMAX, SOFTMAX.solution()), check(SOFTMAX, SOFTMAX.solution())
    assert a.seed != b.seed
    shapes = [c.describe_inputs() for c in SOFTMAX.cases(a.seed)]
    assert shapes == [c.describe_inputs() for c in SOFTMAX.cases(a.seed)]


def _run(code, n=2, **limits):
    cases = [((np.zeros((2, 3)),), {}) for _ in range(n)]
    return run_submission(code, "softmax", cases, limits=Limits(**limits))


def test_syntax_error_names_the_line():
    r = _run("import numpy as np\n\ndef softmax(x)\n    return x\n")
    assert r.load == "syntax" and r.load_detail["line"] == 3


def test_exception_traceback_is_trimmed_to_the_learners_code():
    r = _run(
        "import numpy as np\n\ndef helper(x):\n    return np.exp(x) @ np.ones(7)\n\ndef softmax(x):\n    return helper(x)\n"
    )
    c = r.cases[0]
    assert c.status == ERROR and c.error_type == "ValueError"
    assert 'File "solution.py", line 7, in softmax' in c.traceback
    assert 'File "solution.py", line 4, in helper' in c.traceback
    assert "numpy" not in c.traceback.split("ValueError")[0] and "_child.py" not in c.traceback


def test_missing_function_and_module_level_error():
    assert _run("def soft_max(x):\n    return x\n").load == "missing"
    r = _run("import numpy as np\nraise RuntimeError('boom')\n")
    assert r.load == "error" and "RuntimeError: boom" in r.load_detail["traceback"]


def test_infinite_loop_is_stopped_at_the_time_limit_and_the_group_killed():
    start = time.monotonic()
    r = _run("def softmax(x):\n    while True:\n        pass\n", time_s=1.5)
    assert time.monotonic() - start < 8  # generous: the point is that it returns at all
    assert r.timed_out and [c.status for c in r.cases] == [TIMEOUT, NOT_RUN]


def test_fork_bomb_children_die_with_the_group():
    token = f"fb{os.getpid() % 100000}x{time.time_ns() % 1000}"
    code = (
        "import os, time, ctypes\n"
        "def softmax(x):\n"
        "    for _ in range(8):\n"
        "        pid = os.fork()\n"
        "        if pid == 0:\n"
        f"            ctypes.CDLL(None).prctl(15, {token.encode()!r}, 0, 0, 0)\n"
        "            while True:\n"
        "                time.sleep(0.05)\n"
        "    while True:\n"
        "        pass\n"
    )
    r = _run(code, time_s=1.5)
    assert r.timed_out
    assert live_processes_named(token) == []


def test_a_fork_that_returns_does_not_report_twice():
    r = _run(
        "import os\nimport numpy as np\ndef softmax(x):\n    os.fork()\n    return np.ones_like(x) / x.shape[-1]\n"
    )
    assert [c.status for c in r.cases] == [OK, OK]


def test_a_fork_that_returns_later_cannot_overwrite_the_result():
    # The fork returns a wrong value 0.3 s after the learner's process has reported case 0 and while it is still
    # running case 1: whatever the fork writes (r0.npz) must not become case 0's result.
    code = (
        "import os, time\nimport numpy as np\nn = [0]\n"
        "def softmax(x):\n"
        "    n[0] += 1\n"
        "    if n[0] == 1 and os.fork() == 0:\n"
        "        time.sleep(0.3)\n"
        "        return np.full_like(x, 7.0)\n"
        "    if n[0] == 2:\n"
        "        time.sleep(1.0)\n"
        "    return np.ones_like(x) / x.shape[-1]\n"
    )
    r = _run(code, time_s=8)
    assert [c.status for c in r.cases] == [OK, OK]
    assert all(np.allclose(c.value, 1 / 3) for c in r.cases)


def test_os_exit_keeps_finished_cases_and_says_the_process_ended():
    code = "import os\nimport numpy as np\nn = [0]\ndef softmax(x):\n    n[0] += 1\n    if n[0] == 2:\n        os._exit(0)\n    return x\n"
    r = _run(code, n=3)
    assert [c.status for c in r.cases] == [OK, LOST, NOT_RUN]


def test_sys_exit_is_a_result():
    r = _run("import sys\ndef softmax(x):\n    sys.exit(3)\n")
    assert r.cases[0].status == ERROR and r.cases[0].error_type == "SystemExit" and r.cases[0].exit_code == 3


def test_one_gigabyte_allocation_hits_the_memory_limit():
    r = _run(
        "import numpy as np\ndef softmax(x):\n    big = np.ones(2**27)\n    return big[:6].reshape(2, 3)\n",
        memory_mb=768,
    )
    assert r.cases[0].status == ERROR and r.cases[0].error_type == "MemoryError"


def test_huge_output_is_truncated():
    r = _run(
        "import sys, os\ndef softmax(x):\n    print('x' * 10_000_000)\n    os.write(1, b'y' * 3_000_000)\n    return x\n",
        output_bytes=1000,
    )
    assert [c.status for c in r.cases] == [OK, OK]
    assert len(r.output) <= 1000 and r.output_dropped > 1_000_000


def test_no_stdin():
    r = _run("def softmax(x):\n    return input()\n")
    assert r.cases[0].status == ERROR and r.cases[0].error_type == "EOFError"


@pytest.mark.parametrize(
    "ret, kind",
    [
        ("None", "type"),
        ("'text'", "type"),
        ("(x, x)", "arity"),
        ("x[..., :1]", "shape"),
        ("x.astype(complex)", "dtype"),
    ],
)
def test_wrong_type_or_shape_is_a_clear_failure(ret, kind):
    verdict = check(SOFTMAX, f"import numpy as np\ndef softmax(x):\n    return {ret}\n", seed=1)
    first = verdict.grades[0]
    assert first.status == "fail" and first.mismatch.kind == kind
    assert "\n".join(lines(verdict))  # and it can be put into words


def test_first_mismatch_is_reported_one_based():
    code = "import numpy as np\ndef softmax(x):\n    e = np.exp(x - x.max(-1, keepdims=True))\n    y = e / e.sum(-1, keepdims=True)\n    y[..., -1] += 0.5 * (y.ndim > 1)\n    return y\n"
    verdict = check(SOFTMAX, code, seed=2)
    g = next(g for g in verdict.grades if g.case.name == "rows-not-columns")
    assert g.mismatch.kind == "value" and g.mismatch.index == (0, 4)
    assert "(1, 5)" in "\n".join(lines(verdict))


def test_torch_tensors_in_and_out():
    pytest.importorskip("torch")
    code = (
        "import torch, math\n"
        "def attention(Q, K, V, mask=None):\n"
        "    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.size(-1))\n"
        "    if mask is not None:\n"
        "        s = s.masked_fill(~mask, float('-inf'))\n"
        "    A = torch.softmax(s, dim=-1).nan_to_num(0.0)\n"
        "    return A @ V, A\n"
    )
    # time: importing torch in a fresh sandboxed process took over 10 s on a loaded 2-core CI machine
    verdict = check(get_task("attention"), code, seed=4, backend="torch", limits=Limits(time_s=90))
    assert verdict.all_passed, "\n".join(lines(verdict))
