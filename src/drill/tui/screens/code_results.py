"""What the code screen's results pane shows, as Rich `Text`: a run's account (drill.runner.verdict.lines),
PyTorch's result beside the learner's, the attempt history. Every string the learner's code produced goes
through `verdict.safe` (control and bidi characters made visible); drill's own words through `_()`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from drill.i18n import _

if TYPE_CHECKING:
    from drill.engine.codetasks.grade import CaseGrade
    from drill.engine.codetasks.model import Task
    from drill.runner.verdict import Verdict


def result_text(account: list[str], passed: bool) -> Text:
    """The run's account: passes green, failures red, the first mismatching element of a table reversed."""
    from drill.runner.verdict import safe

    text = Text()
    for line in account:
        stripped = line.lstrip()
        style = "green" if stripped.startswith("✓") else "bold red" if stripped.startswith("✗") else ""
        text.append(safe(line) + "\n", style=style)
        if "[" in line and "]" in line and not stripped.startswith(("✓", "✗")):
            start = text.plain.rfind("[", 0, len(text.plain) - 1)
            end = text.plain.find("]", start)
            if start >= 0 and end > start:
                text.stylize("reverse bold", start, end + 1)
    if passed:
        text.append(_("All hidden tests pass.") + "\n", style="bold green")
    return text


def first_value_failure(verdict: Verdict) -> CaseGrade | None:
    """The first case whose returned values are wrong (right type and shape), if any."""
    from drill.engine.codetasks.grade import FAIL, VALUE

    for g in verdict.grades:
        if g.status == FAIL and g.mismatch is not None and g.mismatch.kind == VALUE and g.mismatch.index:
            return g
    return None


def torch_lines(task: Task, failing: CaseGrade) -> list[str] | None:
    """PyTorch's result for ``failing``'s case beside the learner's, the first mismatch marked; None when
    PyTorch has no counterpart for that output. Imports torch: call it from a worker."""
    from drill.runner import torch_ref
    from drill.runner.verdict import table, text_table

    ref = torch_ref.reference(task.name, failing.case)
    m = failing.mismatch
    names = [o.name for o in task.outputs]
    value = None if ref is None or m is None else ref[names.index(m.output)]
    if value is None:
        return None
    title, header, t_rows, g_rows, mark = table(value, m.got, m.index)
    return [
        _("PyTorch ({call}) on {case}, beside yours:").format(
            call=torch_ref.call(task.name), case=failing.case.name
        ),
        "  " + (_("PyTorch {title}").format(title=title) if title else "PyTorch"),
        *("  " + row for row in text_table(header, t_rows, mark)),
        "  " + (_("yours {title}").format(title=title) if title else _("yours")),
        *("  " + row for row in text_table(header, g_rows, mark)),
    ]


def history_text(rows: list) -> Text:
    text = Text(_("History") + "\n\n", style="bold")
    if not rows:
        text.append(_("No attempts yet."))
    for a in rows:
        mark = "✓" if a.all_passed else "✗"
        text.append(
            f"{mark} {a.ran_at:%Y-%m-%d %H:%M}  {a.passed}/{a.total}  "
            + _("seed {seed}").format(seed=a.seed)
            + f"  {', '.join(a.mistakes)}\n",
            style="green" if a.all_passed else "red",
        )
    return text
