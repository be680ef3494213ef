"""Run a code task's hidden tests on a submission and put the outcome into words (CLI, JSON and the TUI).

`check(task, code, seed=...)` runs the learner's function in the child process (`drill.runner`) and grades
every case with the engine (`drill.engine.codetasks.grade`). `lines(verdict)` is the plain-text account the
CLI prints and the code screen shows; `table(...)` gives the expected/got tables with the first mismatch
marked (indices shown 1-based); `to_json` is `--json`'s document. drill's own words go through `_()`; the
wording of a named mistake is `Mistake.wording` (the chapter's words, or drill's own in the UI language).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from drill.engine.codetasks import grade as G
from drill.engine.codetasks.model import Task
from drill.i18n import _
from drill.runner import ERROR, LOST, NOT_RUN, OK, TIMEOUT, Limits, RunResult, run_submission


@dataclass
class Verdict:
    task: Task
    seed: int
    grades: list  # CaseGrade per case, or a (case, runner status, CaseOutcome) for cases that did not return
    run: RunResult
    outcomes: list = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for g in self.grades if g.status == G.PASS)

    @property
    def all_passed(self) -> bool:
        return self.run.load == "ok" and self.passed == len(self.grades)

    @property
    def mistakes(self) -> list:
        seen = {}
        for g in self.grades:
            if g.mistake is not None:
                seen.setdefault(g.mistake.id, g.mistake)
        return list(seen.values())


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def check(
    task: Task,
    code: str,
    *,
    seed: int | None = None,
    limits: Limits | None = None,
    filename: str = "solution.py",
    backend: str = "numpy",
) -> Verdict:
    seed = new_seed() if seed is None else seed
    cases = task.cases(seed)
    run = run_submission(
        code,
        task.name,
        [(c.args, c.kwargs) for c in cases],
        filename=filename,
        limits=limits,
        backend=backend,
    )
    grades = []
    for case, outcome in zip(cases, run.cases, strict=True):
        if outcome.status == OK:
            grades.append(G.grade_value(task, case, outcome.value))
        elif outcome.status == ERROR and outcome.error_type not in ("SystemExit", "KeyboardInterrupt"):
            grades.append(G.grade_refusal(task, case))
        else:
            grades.append(G.CaseGrade(case, G.ERROR))
    # each failing case's mistake named from the whole run's evidence (drill.engine.codetasks.grade.reconcile)
    values = [o.value if o.status == OK else None for o in run.cases]
    errors = [o.error_type if o.status == ERROR else None for o in run.cases]
    grades = G.reconcile(task, grades, values, errors)
    return Verdict(task, seed, grades, run, list(run.cases))


# ---------------------------------------------------------------- words


def safe(text: str) -> str:
    """Text the learner's code printed or raised, with every control, bidi and invisible format character made
    visible: content.control's one rule (ESC -> ␛, U+200B -> <U+200B>), as for content on a screen."""
    from drill.content.control import visible

    return visible(text)


def _fmt(value) -> str:
    if isinstance(value, np.bool_ | bool):
        return "T" if value else "F"
    v = float(value)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.6g}"


def table(expected: np.ndarray, got: np.ndarray, index: tuple[int, ...], window: int = 6):
    """The 2-D slice of ``expected`` and ``got`` that holds ``index``, at most ``window`` rows and columns around
    it: (title, header, expected rows, got rows, (row, col) of the mismatch in those rows). 1-based labels."""
    exp, val = np.atleast_2d(expected), np.atleast_2d(got)
    idx = tuple(index)
    if expected.ndim == 0:
        idx = (0, 0)
    elif expected.ndim == 1:
        idx = (0,) + idx
    lead, (r, c) = idx[:-2], idx[-2:]
    exp2, val2 = exp[lead], val[lead]
    r0 = max(0, min(r - window // 2, exp2.shape[0] - window))
    c0 = max(0, min(c - window // 2, exp2.shape[1] - window))
    rows = range(r0, min(exp2.shape[0], r0 + window))
    cols = range(c0, min(exp2.shape[1], c0 + window))
    title = "[" + ", ".join(str(i + 1) for i in lead) + ", :, :]" if lead else ""
    header = [str(j + 1) for j in cols]
    e_rows = [[str(i + 1)] + [_fmt(exp2[i, j]) for j in cols] for i in rows]
    g_rows = [[str(i + 1)] + [_fmt(val2[i, j]) for j in cols] for i in rows]
    return title, header, e_rows, g_rows, (r - r0, c - c0)


def text_table(header, rows, mark) -> list[str]:
    cells = [[""] + header] + [
        [cell if (i, j - 1) != mark else f"[{cell}]" for j, cell in enumerate(row)]
        for i, row in enumerate(rows)
    ]
    widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))]
    return ["  " + "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in cells]


def one_based(index) -> str:
    return "(" + ", ".join(str(i + 1) for i in index) + ")"


def mismatch_text(m: G.Mismatch) -> str:
    if m.kind == G.ARITY:
        return _("should return {names}, got {got}").format(names=m.detail or m.output, got=m.got)
    if m.kind == G.TYPE:
        return _("{name} should be an array, got {got}").format(name=m.output, got=m.got)
    if m.kind == G.SHAPE:
        return _("{name} has shape {got}, expected {exp}").format(
            name=m.output, got=list(m.got.shape), exp=list(m.expected.shape)
        )
    if m.kind == G.DTYPE:
        want = _("boolean") if m.expected.dtype == np.bool_ else _("floating-point")
        return _("{name} has dtype {got}, expected {want}").format(name=m.output, got=m.detail, want=want)
    if m.kind == G.NO_ERROR:
        return _("these inputs must be refused (raise an error), but the function returned")
    return _("{name} differs at {index} (indices count from 1): expected {exp}, got {got}").format(
        name=m.output, index=one_based(m.index), exp=_fmt(m.expected[m.index]), got=_fmt(m.got[m.index])
    )


def outcome_text(outcome, limits: Limits) -> str:
    if outcome.status == TIMEOUT:
        return _("stopped: the time limit ({s:g} s) ran out").format(s=limits.time_s)
    if outcome.status == LOST:
        return _("the process ended while running this case (os._exit or a crash)")
    if outcome.status == NOT_RUN:
        return _("not run")
    if outcome.error_type == "SystemExit":
        return _("called sys.exit({code})").format(code=outcome.exit_code)
    if outcome.error_type == "MemoryError":
        return _("ran out of memory (limit {mb} MB)").format(mb=limits.memory_mb)
    return _("raised {type}: {message}").format(type=outcome.error_type, message=outcome.message)


def load_text(run: RunResult) -> str | None:
    d = run.load_detail
    if run.load == "ok":
        return None
    if run.load == "syntax":
        return _("syntax error at line {line}: {message}").format(
            line=d.get("line"), message=d.get("message")
        )
    if run.load == "error":
        return _("the module failed to load: {type}").format(type=d.get("type"))
    if run.load == "missing":
        return _("no function named {name} is defined").format(name=d.get("function"))
    if run.load == "timeout":
        return _("stopped: the time limit ({s:g} s) ran out").format(s=run.limits.time_s)
    return _("the process ended before running any case ({why})").format(why=run.ended_early or "?")


def plain_wording(text: str) -> str:
    """A mistake's wording or a task's prompt (the chapter's Markdown and LaTeX) as plain text."""
    from drill.content.latex import render_text

    return render_text(text).replace("**", "")


def correction_lines(text: str) -> list[str]:
    from drill.content.errata import correction_lines as lines_of

    return lines_of(text)


def corrections_in(text: str) -> list:
    from drill.content.errata import corrections_in as found_in

    return found_in(text)


def mistake_lines(mistake, render) -> list[str]:
    """The mistake's wording (the chapter's, or drill's in the UI language) and where it is taught, then drill's
    correction of any span of the chapter the wording quotes (drill.content.errata)."""
    where = mistake.section + (" 常见误区" if mistake.pitfall else "")
    head = _("mistake ({id}): {wording} — {where}").format(
        id=mistake.id, wording=render(mistake.wording), where=where
    )
    return ["      " + head] + ["        " + render(line) for line in correction_lines(mistake.wording)]


def lines(v: Verdict, *, render_wording=None) -> list[str]:
    """The whole account as plain text lines. ``render_wording`` turns the chapter's Markdown/LaTeX into text."""
    render = render_wording or (lambda s: s)
    out = [_("{task} — seed {seed} (re-run: --seed {seed})").format(task=v.task.name, seed=v.seed)]
    problem = load_text(v.run)
    if problem:
        out.append("  " + problem)
        if v.run.load == "syntax" and v.run.load_detail.get("text"):
            out.append("    " + v.run.load_detail["text"])
        if v.run.load == "error" and v.run.load_detail.get("traceback"):
            out += ["    " + line for line in v.run.load_detail["traceback"].splitlines()]
        return out
    named: set[str] = set()
    for g, outcome in zip(v.grades, v.outcomes, strict=True):
        label = f"{g.case.name}  ({g.case.describe_inputs()})"
        if g.status == G.PASS:
            out.append(f"  ✓ {label}")
            continue
        out.append(f"  ✗ {label}")
        if g.mistake is not None and g.mistake.id in named:
            out[-1] += "  " + _("(same mistake: {id})").format(id=g.mistake.id)
            continue
        if g.status == G.ERROR:
            out.append("      " + outcome_text(outcome, v.run.limits))
            if outcome.traceback:
                out += ["      " + line for line in outcome.traceback.splitlines()]
            if g.mistake is not None:  # the same exception as a catalogued mistake's: named, not left raw
                named.add(g.mistake.id)
                out += mistake_lines(g.mistake, render)
            continue
        out.append("      " + mismatch_text(g.mismatch))
        if g.step:
            out.append("      " + _("first diverging step: {step}").format(step=g.step))
        if g.mistake is not None:
            named.add(g.mistake.id)
            out += mistake_lines(g.mistake, render)
        elif g.mismatch.kind == G.VALUE and g.mismatch.index is not None:
            title, header, e_rows, g_rows, mark = table(g.mismatch.expected, g.mismatch.got, g.mismatch.index)
            out.append("      " + (_("expected {title}").format(title=title) if title else _("expected")))
            out += ["    " + s for s in text_table(header, e_rows, mark)]
            out.append("      " + (_("got {title}").format(title=title) if title else _("got")))
            out += ["    " + s for s in text_table(header, g_rows, mark)]
    out.append(_("{passed}/{total} passed").format(passed=v.passed, total=len(v.grades)))
    if v.run.output:
        out.append(_("printed output:"))
        out += ["  | " + line for line in v.run.output.splitlines()[:20]]
        if v.run.output_dropped:
            out.append("  " + _("(output truncated: {n} more characters)").format(n=v.run.output_dropped))
    return out


def to_json(v: Verdict) -> dict:
    cases = []
    for g, outcome in zip(v.grades, v.outcomes, strict=True):
        entry = {
            "name": g.case.name,
            "status": g.status,
            "pitfall": g.case.pitfall,
            "inputs": g.case.describe_inputs(),
        }
        if g.status == G.ERROR:
            entry["error"] = outcome_text(outcome, v.run.limits)
            entry["traceback"] = outcome.traceback or None
        if g.mismatch is not None:
            entry["mismatch"] = {
                "kind": g.mismatch.kind,
                "output": g.mismatch.output,
                "message": mismatch_text(g.mismatch),
                "index_1based": [i + 1 for i in g.mismatch.index] if g.mismatch.index is not None else None,
            }
            entry["step"] = g.step
        if g.mistake is not None:
            entry["mistake"] = {
                "id": g.mistake.id,
                "section": g.mistake.section,
                "wording": g.mistake.wording,
                "corrections": [
                    {"span": c.span, "correction": c.correction, "erratum": c.erratum, "kind": c.kind}
                    for c in corrections_in(g.mistake.wording)
                ],
            }
        cases.append(entry)
    return {
        "task": v.task.name,
        "section": v.task.section,
        "seed": v.seed,
        "passed": v.passed,
        "total": len(v.grades),
        "all_passed": v.all_passed,
        "load": v.run.load,
        "load_error": load_text(v.run),
        "mistakes": [m.id for m in v.mistakes],
        "elapsed_s": round(v.run.elapsed_s, 3),
        "output": v.run.output,
        "output_truncated": v.run.output_dropped,
        "cases": cases,
    }


def attempt_record(v: Verdict) -> dict:
    """What the store keeps of a run (besides the code, the task and the time): Store.record_code_attempt's
    keyword arguments."""
    doc = to_json(v)
    cases = [
        {
            "name": c["name"],
            "status": c["status"],
            "pitfall": c["pitfall"],
            "mistake": (c.get("mistake") or {}).get("id"),
        }
        for c in doc["cases"]
    ]
    return {
        "seed": v.seed,
        "passed": v.passed,
        "total": len(v.grades),
        "all_passed": v.all_passed,
        "mistakes": doc["mistakes"],
        "results": {"load": doc["load"], "cases": cases},
        "elapsed_ms": int(v.run.elapsed_s * 1000),
    }
