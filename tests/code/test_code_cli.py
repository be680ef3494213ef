"""`drill code` as a user runs it: exit codes 0/1/2, --json, --list, one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from drill.engine.codetasks import TASKS, get_task
from drill.engine.codetasks.basic import attention_oracle, softmax_oracle
from tests.code.submissions import WRONG


def drill(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "drill", "code", *args], capture_output=True, text=True, cwd=cwd
    )


@pytest.fixture
def solution(tmp_path):
    def write(text, name="sol.py"):
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return str(path)

    return write


def test_pass_exits_0(solution):
    r = drill("softmax", "--check", solution(get_task("softmax").solution()))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "passed" in r.stdout and "seed" in r.stdout


def test_fail_exits_1_and_names_the_mistake_in_the_chapters_words(solution):
    r = drill("attention", "--check", solution(WRONG["attention/scale-by-dk"]), "--seed", "9")
    assert r.returncode == 1
    assert "不是除以 dₖ" in r.stdout and "7.9 常见误区" in r.stdout and "--seed 9" in r.stdout


def test_json(solution):
    r = drill("causal_mask", "--check", solution(WRONG["causal_mask/no-diagonal"]), "--json", "--seed", "4")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["seed"] == 4 and doc["task"] == "causal_mask" and not doc["all_passed"]
    assert "causal_mask/no-diagonal" in doc["mistakes"]
    failing = [c for c in doc["cases"] if c["status"] == "fail"]
    assert failing and all(c["mismatch"]["index_1based"] for c in failing)


@pytest.mark.parametrize(
    "content, message",
    [
        ("def softmax(x)\n    return x\n", "sol.py:1: syntax error"),
        ("def soft(x):\n    return x\n", "no function named 'softmax'"),
        ("import numpy\nx = 1/0\n", "sol.py:2: loading the file raised ZeroDivisionError"),
        (b"\xff\xfe def", "sol.py:1: not UTF-8"),
    ],
)
def test_bad_input_exits_2_with_one_line(solution, content, message):
    r = drill("softmax", "--check", solution(content))
    assert r.returncode == 2
    assert r.stderr.startswith("drill: error: ") and message in r.stderr and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr


def test_unknown_task_and_missing_file_exit_2(tmp_path):
    r = drill("softmaxx", "--check", str(tmp_path / "x.py"))
    assert r.returncode == 2 and "no code task named 'softmaxx'" in r.stderr
    r = drill("softmax", "--check", str(tmp_path / "missing.py"))
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_list(solution):
    r = drill("--list", "--json")
    assert r.returncode == 0
    assert [t["task"] for t in json.loads(r.stdout)] == list(TASKS)
    assert "softmax" in drill("--list").stdout


def test_printed_control_characters_are_made_visible(solution):
    code = get_task("softmax").solution() + "\nprint('\\x1b[31mred\\u202e')\n"
    r = drill("softmax", "--check", solution(code))
    assert r.returncode == 0
    assert "\x1b" not in r.stdout and "\u202e" not in r.stdout and "␛[31mred" in r.stdout


# ---------------------------------------------------------------- the engine's answers against PyTorch


def test_oracles_agree_with_pytorch():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    task = get_task("attention")
    for seed in range(3):
        for case in task.cases(seed):
            Q, K, V = (torch.from_numpy(a) for a in case.args)
            mask = case.kwargs.get("mask")
            m = (
                None
                if mask is None
                else torch.from_numpy(np.broadcast_to(mask, Q.shape[:-1] + (K.shape[-2],)).copy())
            )
            ref = F.scaled_dot_product_attention(Q, K, V, attn_mask=m)
            out, _ = attention_oracle(*case.args, **case.kwargs)
            assert np.allclose(out, ref.numpy(), atol=1e-9), case.name
    for case in get_task("softmax").cases(5):
        x = case.args[0]
        assert np.allclose(softmax_oracle(x), torch.softmax(torch.from_numpy(x), dim=-1).numpy(), atol=1e-12)


def test_every_check_is_saved_and_listed_with_its_status(solution, tmp_path):
    from drill.paths import data_dir

    assert drill("softmax", "--check", solution(WRONG["softmax/sigmoid"])).returncode == 1
    assert drill("softmax", "--check", solution(get_task("softmax").solution())).returncode == 0
    assert (
        drill("causal_mask", "--check", solution(get_task("causal_mask").solution()), "--no-save").returncode
        == 0
    )
    assert not (data_dir() / "pending-code-attempts").exists()  # saved in-process, before the verdict
    rows = {r["task"]: r for r in json.loads(drill("--list", "--json").stdout)}
    assert rows["softmax"]["attempts"] == 2 and rows["softmax"]["passed"]
    assert rows["causal_mask"]["attempts"] == 0 and rows["attention"]["last_run"] is None
    from drill.store import open_store

    with open_store(None, None, readonly=True) as store:
        history = store.code_attempts("softmax")
    assert [a.all_passed for a in history] == [True, False]
    assert "softmax/sigmoid" in history[1].mistakes and "1 / (1 + np.exp(-x))" in history[1].code
