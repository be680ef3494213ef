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

from drill.commands.options import WholeNumber, store_options
from drill.i18n import N_, _
from drill.i18n_click import DrillCommand


def _read_code(path: str) -> str:
    from drill.errors import InputError

    try:
        raw = open(path, "rb").read()
    except OSError as err:
        raise InputError(_("{path}: cannot read: {error}").format(path=path, error=err.strerror)) from None
    try:
        code = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InputError(_("{path}:{line}: not UTF-8 text").format(path=path, line=line)) from None
    if "\x00" in code:
        raise InputError(_("{path}: contains NUL bytes; not a Python source file").format(path=path))
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


def _status(db_url, user_name) -> dict:
    """The learner's status per task, or nothing when there is no progress database yet."""
    from drill.errors import StoreUpgradeNeeded
    from drill.paths import default_db_path

    if db_url is None and not default_db_path().exists():
        return {}
    from drill.store import open_store

    try:
        with open_store(db_url, user_name, readonly=True) as store:
            return store.code_status()
    except StoreUpgradeNeeded:  # a database from before drill code: migrate it (after a backup) and read
        with open_store(db_url, user_name) as store:
            return store.code_status()


def _save(db_url, user_name, task, code_text, verdict, backend) -> None:
    """Save the run as an attempt. The store (sqlalchemy, migrations, quick_check) takes longer to open than
    the tests take to run, so a detached process writes it after this command has printed its results."""
    import os
    import subprocess
    import tempfile
    from datetime import UTC, datetime

    from drill.paths import data_dir
    from drill.runner.verdict import attempt_record

    record = {
        "db_url": db_url,
        "user": user_name,
        "task": task,
        "code": code_text,
        "backend": backend,
        "ran_at": datetime.now(UTC).isoformat(),
        **attempt_record(verdict),
    }
    folder = data_dir() / "pending-code-attempts"
    folder.mkdir(parents=True, exist_ok=True)
    fd, path = tempfile.mkstemp(suffix=".json", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(record, out)
    subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from drill.commands.code import save_pending; save_pending(sys.argv[1])",
            path,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def save_pending(path: str) -> None:
    """Write one pending attempt (from ``_save``) to the store, then delete its file; a failure leaves it."""
    import os
    from datetime import datetime

    from drill.store import open_store

    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    db_url, user, task, code_text = (
        record.pop("db_url"),
        record.pop("user"),
        record.pop("task"),
        record.pop("code"),
    )
    ran_at = datetime.fromisoformat(record.pop("ran_at"))
    with open_store(db_url, user) as store:
        store.record_code_attempt(task, code_text, ran_at, **record)
    os.unlink(path)


@click.command(
    cls=DrillCommand,
    short_help=N_("Write attention yourself: hidden tests grade your function."),
    help=N_(
        "Write the chapter's functions yourself (softmax, attention, masks, multi-head attention, LayerNorm, ...): "
        "hidden tests generated by the engine grade them, and a mistake is named in the chapter's words.\n\n"
        "`drill code --list` lists the tasks; `drill code TASK` opens the editor; `drill code TASK --check FILE` "
        "runs the tests on the function in FILE (exit 0 all pass, 1 some fail, 2 bad input)."
    ),
)
@click.argument("task", required=False)
@click.option(
    "--check", "check_file", type=click.Path(dir_okay=False), help=N_("Run TASK's hidden tests on FILE.")
)
@click.option("--list", "list_tasks", is_flag=True, help=N_("List the tasks."))
@click.option("--json", "as_json", is_flag=True, help=N_("With --check or --list: print JSON."))
@click.option("--seed", type=WholeNumber(1, 2**31 - 1), help=N_("Re-run the hidden tests of an earlier run."))
@click.option(
    "--time-limit",
    type=click.FloatRange(0.5, 600),
    default=10.0,
    show_default=True,
    help=N_("Seconds the submission may run."),
)
@click.option(
    "--memory-limit",
    type=WholeNumber(256, 65536),
    default=1024,
    show_default=True,
    help=N_("Address-space limit for the submission, in MB."),
)
@click.option(
    "--torch",
    "use_torch",
    is_flag=True,
    help=N_("Pass PyTorch tensors in (float64) instead of numpy arrays."),
)
@click.option("--starter", is_flag=True, help=N_("Print TASK's starter code."))
@click.option("--prompt", "show_prompt", is_flag=True, help=N_("Print TASK's prompt."))
@click.option("--timed", is_flag=True, help=N_("In the editor: count down the task's time budget."))
@click.option(
    "--save/--no-save",
    default=True,
    show_default=True,
    help=N_("With --check: keep the run in your history."),
)
@store_options
def code(
    task,
    check_file,
    list_tasks,
    as_json,
    seed,
    time_limit,
    memory_limit,
    use_torch,
    starter,
    show_prompt,
    timed,
    save,
    db_url,
    user_name,
):
    from drill.engine.codetasks import TASKS, get_task
    from drill.errors import InputError

    if list_tasks:
        status = _status(db_url, user_name)
        rows = []
        for t in TASKS.values():
            s = status.get(t.name)
            rows.append(
                {
                    "task": t.name,
                    "number": t.number,
                    "section": t.section,
                    "title": t.title,
                    "signature": t.signature,
                    "budget_s": t.budget_s,
                    "attempts": s.attempts if s else 0,
                    "passed": bool(s and s.passed_ever),
                    "last_run": s.last_ran_at.isoformat() if s and s.last_ran_at else None,
                }
            )
        if as_json:
            click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            for r in rows:
                mark = "✓" if r["passed"] else ("✗" if r["attempts"] else " ")
                tried = _("{n} runs").format(n=r["attempts"]) if r["attempts"] else ""
                click.echo(
                    f"{mark} {r['number']:>2}  {r['task']:<24} {r['section']:<5} {r['title']}  {tried}".rstrip()
                )
        return
    if task is None:
        raise InputError(_("name a task (drill code --list shows them), or use --list"))
    t = get_task(task)
    if starter:
        click.echo(t.starter(), nl=False)
        return
    if check_file is None and not show_prompt:
        from drill.tui.app import make_app

        app = make_app(
            "code", db_url=db_url, user=user_name, task=t.name, timed=timed, seed=seed, time_limit=time_limit
        )
        app.run()
        if app.error is not None:
            raise app.error
        return
    if show_prompt:
        from drill.runner.verdict import plain_wording

        click.echo(f"{t.number}. {t.title} ({t.section})\n")
        click.echo(plain_wording(t.prompt))
        click.echo(
            "\n"
            + _("Write {sig} in a file, then: drill code {name} --check FILE").format(
                sig=t.signature, name=t.name
            )
        )
        return
    code_text = _read_code(check_file)
    if use_torch:
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            raise InputError(_("--torch: PyTorch is not installed"))
    from drill.runner import Limits
    from drill.runner.verdict import check, lines, plain_wording, to_json

    verdict = check(
        t,
        code_text,
        seed=seed,
        filename=check_file,
        limits=Limits(time_s=time_limit, memory_mb=memory_limit),
        backend="torch" if use_torch else "numpy",
    )
    problem = _load_problem(check_file, verdict)
    if problem:
        raise InputError(problem)
    if save:
        _save(db_url, user_name, t.name, code_text, verdict, "torch" if use_torch else "numpy")
    if as_json:
        click.echo(json.dumps(to_json(verdict), indent=2))  # ASCII escapes: no raw control/bidi characters
    else:
        from drill.runner.verdict import safe  # what the learner printed is shown, never obeyed

        for line in lines(verdict, render_wording=plain_wording):
            click.echo(safe(line))
    sys.exit(0 if verdict.all_passed else 1)
