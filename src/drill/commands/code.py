"""`drill code`: write the chapter's functions yourself; the engine grades them on hidden tests.

``drill code --list`` lists the tasks; ``drill code TASK --check FILE`` runs TASK's hidden tests on the function
in FILE (exit 0 when every test passes, 1 when some fail, 2 for bad input: no such task or file, a file that
is not UTF-8 Python, a syntax error, no function of that name); ``--json`` prints the outcome as JSON.
``--starter`` prints the starter code, ``--prompt`` the task. Heavy imports (numpy) happen inside.
"""

from __future__ import annotations

import json
import sys

import click

from drill.i18n import _


def _read_code(path: str) -> str:
    from drill.errors import InputError

    try:
        raw = open(path, "rb").read()  # noqa: SIM115 - read at once
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    try:
        code = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text") from None
    if "\x00" in code:
        raise InputError(f"{path}: contains NUL bytes; not a Python source file")
    return code


def _load_problem(path: str, verdict) -> str | None:
    """A submission that could not be loaded, as ``file:line: what`` (None when it loaded)."""
    run = verdict.run
    d = run.load_detail
    if run.load == "syntax":
        return f"{path}:{d.get('line')}: syntax error: {d.get('message')}"
    if run.load == "missing":
        return f"{path}: no function named {d.get('function')!r} is defined"
    if run.load == "error":
        tb = d.get("traceback", "").splitlines()
        where = next((ln.strip() for ln in reversed(tb) if ln.strip().startswith('File "')), "")
        line = where.split(", line ")[1].split(",")[0] if ", line " in where else "?"
        return f"{path}:{line}: loading the file raised {tb[-1] if tb else d.get('type')}"
    return None


def _plain_wording(text: str) -> str:
    from drill.content.latex import render_text

    return render_text(text).replace("**", "")


@click.command()
@click.argument("task", required=False)
@click.option("--check", "check_file", type=click.Path(dir_okay=False), help="Run TASK's hidden tests on FILE.")
@click.option("--list", "list_tasks", is_flag=True, help="List the tasks.")
@click.option("--json", "as_json", is_flag=True, help="With --check or --list: print JSON.")
@click.option("--seed", type=click.IntRange(1, 2**31 - 1), help="Re-run the hidden tests of an earlier run.")
@click.option("--time-limit", type=click.FloatRange(0.5, 600), default=10.0, show_default=True,
              help="Seconds the submission may run.")
@click.option("--memory-limit", type=click.IntRange(256, 65536), default=1024, show_default=True,
              help="Address-space limit for the submission, in MB.")
@click.option("--torch", "use_torch", is_flag=True, help="Pass PyTorch tensors in (float64) instead of numpy arrays.")
@click.option("--starter", is_flag=True, help="Print TASK's starter code.")
@click.option("--prompt", "show_prompt", is_flag=True, help="Print TASK's prompt.")
def code(task, check_file, list_tasks, as_json, seed, time_limit, memory_limit, use_torch, starter, show_prompt):
    """Write attention yourself: TASK's hidden tests grade the function in FILE (see --list)."""
    from drill.engine.codetasks import TASKS, get_task
    from drill.errors import InputError

    if list_tasks:
        rows = [{"task": t.name, "number": t.number, "section": t.section, "title": t.title,
                 "signature": t.signature, "budget_s": t.budget_s} for t in TASKS.values()]
        if as_json:
            click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            for r in rows:
                click.echo(f"{r['number']:>2}  {r['task']:<24} {r['section']:<5} {r['title']}")
        return
    if task is None:
        raise InputError("name a task (drill code --list shows them), or use --list")
    t = get_task(task)
    if starter:
        click.echo(t.starter(), nl=False)
        return
    if show_prompt or check_file is None:
        click.echo(f"{t.number}. {t.title} ({t.section})\n")
        click.echo(_plain_wording(t.prompt))
        click.echo("\n" + _("Write {sig} in a file, then: drill code {name} --check FILE").format(
            sig=t.signature, name=t.name))
        return
    code_text = _read_code(check_file)
    if use_torch:
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            raise InputError("--torch: PyTorch is not installed")
    from drill.runner import Limits
    from drill.runner.verdict import check, lines, to_json

    verdict = check(t, code_text, seed=seed, filename=check_file,
                    limits=Limits(time_s=time_limit, memory_mb=memory_limit),
                    backend="torch" if use_torch else "numpy")
    problem = _load_problem(check_file, verdict)
    if problem:
        raise InputError(problem)
    if as_json:
        click.echo(json.dumps(to_json(verdict), indent=2))  # ASCII escapes: no raw control/bidi characters
    else:
        from drill.runner.verdict import safe  # what the learner printed is shown, never obeyed

        for line in lines(verdict, render_wording=_plain_wording):
            click.echo(safe(line))
    sys.exit(0 if verdict.all_passed else 1)
