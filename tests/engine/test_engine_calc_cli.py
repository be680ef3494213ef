"""`drill calc --plain / --json` and its errors (exit 2, shapes named, never a traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.engine.examples import EXAMPLES, build_example
from drill.engine.trace import Step, Trace, from_jsonable


def run(*args):
    result = CliRunner().invoke(cli, ["calc", *args])
    return result.exit_code, result.output


def test_plain_worked_by_default():
    code, out = run("--plain")
    assert code == 0
    for name in ("project_q", "scores", "scale", "softmax", "weighted_sum"):
        assert name in out
    assert "0.198" in out and "0.599" in out and "0.802" in out  # the chapter's numbers, to its 3 decimals
    code, out = run("--plain", "--decimals", "4", "--step", "softmax")
    assert code == 0 and "0.1978" in out and "0.198 " not in out
    assert "\x1b[" not in out  # plain text when not a terminal


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_plain_every_example(name):
    code, out = run("--plain", "--example", name)
    assert code == 0, out
    assert build_example(name).title in out


def test_json_round_trip():
    code, out = run("--json", "--example", "causal")
    assert code == 0
    data = json.loads(out)
    trace = build_example("causal")
    assert [s["name"] for s in data["steps"]] == list(trace.names())
    for step in data["steps"]:
        np.testing.assert_array_equal(from_jsonable(step["values"]), trace[step["name"]].output)
        assert step["formula"] == trace[step["name"]].formula and step["shape"] == trace[step["name"]].shape


def test_custom_inputs_match_the_engine():
    code, out = run(
        "--json", "--x", "1,0;0,1;1,1", "--wq", "1,0;1,1", "--wk", "0,1;1,0", "--causal", "--pad", "1,1,0"
    )
    assert code == 0, out
    data = json.loads(out)
    steps = {s["name"]: s for s in data["steps"]}
    assert {"pad_mask", "mask", "masked"} <= set(steps)
    a = from_jsonable(steps["softmax"]["values"])
    np.testing.assert_allclose(
        a[2], [1 / (1 + np.exp(np.sqrt(2) / 2)), np.exp(np.sqrt(2) / 2) / (1 + np.exp(np.sqrt(2) / 2)), 0]
    )


def test_random_multi_head_gqa():
    code, out = run(
        "--json", "--seed", "3", "--tokens", "5", "--d-model", "8", "--heads", "4", "--kv-heads", "2"
    )
    assert code == 0, out
    steps = {s["name"]: s for s in json.loads(out)["steps"]}
    assert steps["repeat_k"]["dims"] == [4, 5, 2] and steps["output_proj"]["dims"] == [5, 8]
    # the same seed gives the same numbers
    assert (
        run("--json", "--seed", "3", "--tokens", "5", "--d-model", "8", "--heads", "4", "--kv-heads", "2")[1]
        == out
    )


def test_step_filter_and_list():
    code, out = run("--plain", "-e", "layernorm", "--step", "std")
    assert code == 0 and "1.118" in out and "rmsnorm" not in out
    code, out = run("--list")
    assert code == 0 and all(name in out for name in EXAMPLES)


def test_large_matrices_are_elided_in_plain():
    code, out = run("--plain", "--seed", "1", "--tokens", "40", "--d-model", "8", "--step", "softmax")
    assert code == 0 and "…" in out


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--x", "1,0;0"], "row 2 has 1 values but row 1 has 2 (a [2, 2] matrix"),
        (["--x", "1,a"], "X (--x) [1, 2], row 1, column 2: 'a' is not a number"),
        (["--x", ""], "empty matrix"),
        (["--x", "1,nan"], "[1, 2], row 1, column 2 is 'nan'; values must be finite"),
        (["--x", "1,inf"], "must be finite"),
        (["--x", "1,0;0,1", "--wq", "1,0,0;0,1,0;0,0,1"], "X is [2, 2] (d_model = 2) but W_Q is [3, 3]"),
        (["--x", "1,0,0;0,1,0", "--heads", "2"], "d_model = 3 is not divisible by --heads 2"),
        (["--seed", "1", "--d-model", "6", "--heads", "4"], "--d-model 6 is not divisible by --heads 4"),
        (["--x", "1,0,0,0", "--heads", "4", "--kv-heads", "3"], "--kv-heads G = 3 must divide --heads h = 4"),
        (["--x", "1,0;0,1", "--pad", "1,1,0"], "--pad has 3 values per row but the sequence has 2 tokens"),
        (["--example", "nope"], "unknown example 'nope'"),
        (["--example", "worked", "--causal"], "cannot be combined"),
        (["--x", "1,0;0,1", "--wk", "1;0"], "W_K is [2, 1] but W_Q is [2, 2]"),
        (["--json", "--plain"], "choose one of --plain and --json"),
        (["--seed", "1", "--tokens", "0"], "--tokens must be at least 1"),
        (["-e", "worked", "--step", "nope"], "no step 'nope'"),
        (["--x", " ; "], "X (--x): no values between the separators"),
        (["--x", "1,,0"], "X (--x), row 1 ('1,,0'): a value is missing between commas"),
        # Sizes that would exhaust memory (h·S² weights per step are kept) are refused before any work.
        (
            ["--seed", "1", "--tokens", "100000"],
            "S = 100000 tokens with h = 1 head(s) make h·S² = 10,000,000,000",
        ),
        (
            ["--seed", "1", "--tokens", "256", "--heads", "8"],
            "at most 262,144 (e.g. 512 tokens with one head)",
        ),
        (
            ["--seed", "1", "--tokens", "4", "--d-model", "100000"],
            "d_model = 100000 with S = 4 tokens is too large",
        ),
        (["--x", ";".join(["1,0"] * 600)], "S = 600 tokens with h = 1 head(s) make h·S² = 360,000"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(args, fragment):
    code, out = run("--plain", *args) if "--json" not in args else run(*args)
    assert code == 2, out
    assert fragment in out
    assert out.startswith("drill: error:") and "Traceback" not in out


def test_bad_input_in_a_real_process_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "drill", "calc", "--plain", "--x", "1,0;0,1", "--wq", "1,2,3"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "W_Q is [1, 3]" in proc.stderr and "Traceback" not in proc.stderr


def test_without_plain_or_json_the_interactive_hook_is_called(monkeypatch):
    from drill.commands import calc as calc_module

    seen = {}
    monkeypatch.setattr(calc_module, "_run_interactive", lambda **options: seen.update(options))
    code, _ = run("--example", "causal")
    assert code == 0 and seen["trace"].example == "causal" and seen["example"] == "causal"


def test_plain_never_parses_text_as_markup():
    from rich.console import Console

    from drill.commands.calc import print_plain

    step = Step(
        name="s",
        title="[bold]title[/bold]",
        formula="x",
        explanation="[@click=app.quit]explain",
        inputs=(),
        output=np.array([1.0]),
        shape="[1]",
        note="[red]note[/red]",
    )
    buf = io.StringIO()
    print_plain(Trace("[link=x]T[/link]", (step,)), console=Console(file=buf, width=120))
    out = buf.getvalue()
    for literal in ("[bold]title[/bold]", "[@click=app.quit]explain", "[red]note[/red]", "[link=x]T[/link]"):
        assert literal in out


def test_plain_names_a_shape_once_when_it_is_already_in_numbers():
    code, out = run("--plain", "-e", "noam")
    assert code == 0
    assert "shape    [7]" in out and "[7]  = [7]" not in out and "[]  = []" not in out
    code, out = run("--plain")  # symbolic shapes keep their numbers beside them
    assert "[S, d_k]  = [3, 2]" in out


def test_the_tui_builds_calc_traces_through_the_engine_not_commands():
    """build_trace lives in drill.engine.build: no module of the TUI imports drill.commands."""
    import ast
    from pathlib import Path

    import drill.tui

    offenders = []
    for path in Path(drill.tui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{path.name}: {n}" for n in names if n == "drill.commands" or n.startswith("drill.commands.")
            ]
    assert not offenders, offenders
