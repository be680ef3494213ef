"""The learner's time limit starts when the harness is ready (issue 29): its own start — a fresh interpreter
importing numpy or torch — is not the learner's time. A harness whose first import of the backend is held
until more than the whole time limit has passed since it started (a slow machine, made deterministic: the
hold waits on the harness's own clock, not a guess of how slow the machine is) still runs a correct solution
to its verdict, and a learner's infinite loop after such a start is still stopped by the limit."""

from __future__ import annotations

import pytest

import drill.runner as runner
from drill.engine.codetasks import get_task
from drill.runner import NOT_RUN, TIMEOUT, Limits, run_submission
from drill.runner.verdict import check, lines

HELD_IMPORT = """import builtins as _held_builtins, time as _held_time
_held_since = _held_time.monotonic()
_held_real_import = _held_builtins.__import__


def _held_import(name, *args, **kwargs):
    if name == {module!r}:  # the harness's first import of the backend waits until {hold} s have passed
        while _held_time.monotonic() - _held_since < {hold}:
            _held_time.sleep(0.05)
    return _held_real_import(name, *args, **kwargs)


_held_builtins.__import__ = _held_import
"""


@pytest.fixture
def slow_harness(tmp_path, monkeypatch):
    """Make the harness's import of ``module`` last ``hold`` seconds from the harness's start."""

    def make(module: str, hold: float) -> None:
        path = tmp_path / "harness.py"
        path.write_text(HELD_IMPORT.format(module=module, hold=hold) + runner.CHILD.read_text("utf-8"))
        monkeypatch.setattr(runner, "CHILD", path)

    return make


def test_a_torch_solution_passes_when_the_harness_import_outlasts_the_limit(slow_harness):
    pytest.importorskip("torch")
    limit = 2.0
    slow_harness("torch", hold=limit + 1.0)  # the harness alone takes longer than the whole limit
    code = (
        "import torch, math\n"
        "def attention(Q, K, V, mask=None):\n"
        "    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.size(-1))\n"
        "    if mask is not None:\n"
        "        s = s.masked_fill(~mask, float('-inf'))\n"
        "    A = torch.softmax(s, dim=-1).nan_to_num(0.0)\n"
        "    return A @ V, A\n"
    )
    verdict = check(get_task("attention"), code, seed=4, backend="torch", limits=Limits(time_s=limit))
    assert not verdict.run.timed_out, "\n".join(lines(verdict))
    assert verdict.all_passed, "\n".join(lines(verdict))


def test_an_infinite_loop_after_a_slow_start_still_times_out(slow_harness):
    slow_harness("numpy", hold=1.5)
    code = "def softmax(x):\n    while True:\n        pass\n"
    r = run_submission(code, "softmax", [((1.0,), {}), ((2.0,), {})], limits=Limits(time_s=1.0))
    assert r.load == "ok"  # the learner's code was loaded: the limit did not end during the harness's start
    assert r.timed_out and [c.status for c in r.cases] == [TIMEOUT, NOT_RUN]
    assert r.elapsed_s >= 1.0  # counted from the harness ready: the learner had the whole limit
