"""`drill calc`: the chapter's computations step by step, printed (--plain), as JSON (--json) or interactive.

Only click is imported at module level; numpy, rich and the engine load inside the command.
"""

from __future__ import annotations

import click

from drill.commands.options import WholeNumber
from drill.engine.notation import DECIMALS
from drill.errors import InputError
from drill.i18n import N_, _, pad
from drill.i18n_click import DrillCommand


def _run_interactive(**options) -> None:
    """Open the interactive calc screen (drill.tui.screens.calc) on the trace the options built."""
    from drill.tui.app import make_app

    app = make_app("calc", **options)
    app.run()
    if app.error is not None:
        raise app.error


@click.command(
    cls=DrillCommand,
    short_help=N_("Step through the attention maths, X → softmax → A·V."),
    help=N_(
        "Step through the attention maths: X → Q,K,V → QKᵀ → ÷√d_k → mask → softmax → A·V (and more).\n\n"
        "Without --plain or --json it opens the interactive screen. Examples: `drill calc --plain -e causal`, "
        '`drill calc --json --x "1,0;0,1;1,1" --causal`, `drill calc --plain --seed 1 --tokens 5 --d-model 8 --heads 2`.'
    ),
)
@click.option("--plain", is_flag=True, help=N_("Print every step as tables (plain text when piped)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the trace as JSON (values as nested lists)."))
@click.option(
    "--example",
    "-e",
    metavar="NAME",
    help=N_("A named example from the chapter (see --list). Default: worked."),
)
@click.option("--list", "list_examples", is_flag=True, help=N_("List the named examples and exit."))
@click.option(
    "--x",
    "x_text",
    metavar="MATRIX",
    help=N_('Input X [S, d_model]: rows separated by ";", values by "," (e.g. "1,0;0,1;1,1").'),
)
@click.option("--wq", metavar="MATRIX", help=N_("W_Q [d_model, h·d_k] (default: identity)."))
@click.option("--wk", metavar="MATRIX", help=N_("W_K [d_model, G·d_k] (default: identity)."))
@click.option("--wv", metavar="MATRIX", help=N_("W_V [d_model, G·d_v] (default: identity)."))
@click.option("--wo", metavar="MATRIX", help=N_("W_O [h·d_v, d_model] (default: none)."))
@click.option("--causal", is_flag=True, help=N_("Hide future keys (decoder self-attention)."))
@click.option("--pad", metavar="MASK", help=N_('Key mask, 1 = token, 0 = PAD (e.g. "1,1,0").'))
@click.option("--heads", type=WholeNumber(), default=None, help=N_("Query heads h (default 1)."))
@click.option(
    "--kv-heads", type=WholeNumber(), default=None, help=N_("KV heads G dividing h (GQA; 1 = MQA).")
)
@click.option("--seed", type=WholeNumber(low=0), default=None, help=N_("Random inputs from this seed."))
@click.option(
    "--tokens", type=WholeNumber(), default=None, help=N_("Random inputs: sequence length S (default 4).")
)
@click.option("--d-model", type=WholeNumber(), default=None, help=N_("Random inputs: d_model (default 8)."))
@click.option(
    "--step", "only_steps", multiple=True, metavar="NAME", help=N_("Show only this step (repeatable).")
)
@click.option(
    "--decimals",
    type=WholeNumber(0, 12),
    default=DECIMALS,
    show_default=True,
    help=N_("Digits in --plain (the default, 3, is how the chapter and the calc screen write them)."),
)
@click.option("--full", is_flag=True, help=N_("--plain: print whole matrices, however large."))
def calc(
    plain,
    as_json,
    example,
    list_examples,
    x_text,
    wq,
    wk,
    wv,
    wo,
    causal,
    pad,
    heads,
    kv_heads,
    seed,
    tokens,
    d_model,
    only_steps,
    decimals,
    full,
) -> None:
    if list_examples:
        from drill.engine.examples import EXAMPLES

        for ex in EXAMPLES.values():
            click.echo(f"{ex.name:<16} {ex.section:<5} {_(ex.summary)}")
        return
    if plain and as_json:
        raise InputError(_("choose one of --plain and --json"))
    options = dict(
        example=example,
        x=x_text,
        wq=wq,
        wk=wk,
        wv=wv,
        wo=wo,
        causal=causal,
        pad=pad,
        heads=heads,
        kv_heads=kv_heads,
        seed=seed,
        tokens=tokens,
        d_model=d_model,
    )
    from drill.engine.build import build_trace

    trace = build_trace(**options)
    if only_steps:
        from dataclasses import replace

        missing = [s for s in only_steps if s not in trace]
        if missing:
            raise InputError(
                _("no step {name!r} in this trace; steps: {steps}").format(
                    name=missing[0], steps=", ".join(trace.names())
                )
            )
        trace = replace(trace, steps=tuple(s for s in trace.steps if s.name in only_steps))
    if as_json:
        click.echo(trace.to_json())
    elif plain:
        print_plain(trace, decimals=decimals, full=full)
    else:
        _run_interactive(trace=trace, **options)


# --- plain output ---------------------------------------------------------------------------------------------

MAX_SHOWN = 12  # rows and columns shown per matrix unless --full


def _matrix_table(values, decimals: int, full: bool, label=None, row_labels: bool = True):
    """One matrix as a table, its numbers written as every screen writes them (drill.engine.notation), from
    the matrix's own numbers: the calc screen's heatmap of the same matrix shows the same text."""
    import numpy as np
    from rich.table import Table
    from rich.text import Text

    from drill.engine.notation import number_format

    values = np.atleast_2d(values)
    fmt = number_format(values, decimals)
    rows, cols = values.shape
    show_r = range(rows) if full or rows <= MAX_SHOWN else [*range(MAX_SHOWN - 2), None, rows - 1]
    show_c = list(range(cols)) if full or cols <= MAX_SHOWN else [*range(MAX_SHOWN - 2), None, cols - 1]
    table = Table(title=Text(label) if label else None, show_header=True, box=None, pad_edge=False)
    if row_labels:
        table.add_column(Text(""), justify="right", style="dim")
    for c in show_c:  # rows and columns are named from 1, as the chapter counts them (A₁₂)
        table.add_column(Text("…" if c is None else str(c + 1)), justify="right")
    for r in show_r:
        label_cell = [Text("…" if r is None else str(r + 1))] if row_labels else []
        if r is None:
            table.add_row(*label_cell, *[Text("…") for _ in show_c])
            continue
        table.add_row(*label_cell, *[Text("…" if c is None else fmt(float(values[r, c]))) for c in show_c])
    return table


def _slices(values, shape: str):
    """Split a 3-D/4-D output into labelled 2-D slices ("sequence 1, head 2": named from 1)."""
    import numpy as np

    axes = [a.strip() for a in shape.strip("[]").split(",")]
    lead = values.ndim - 2
    names = []
    for a in axes[:lead]:
        names.append({"B": _("sequence"), "h": _("head"), "G": _("KV head")}.get(a, a))
    for idx in np.ndindex(*values.shape[:lead]):
        label = ", ".join(f"{n} {i + 1}" for n, i in zip(names, idx, strict=False))
        yield label, values[idx]


def _shape_line(symbolic: str, shape: tuple[int, ...]):
    """ "[S, d_k]  = [3, 2]"; a shape already given in numbers ("[4]") is not repeated."""
    from rich.text import Text

    concrete = "[" + ", ".join(str(n) for n in shape) + "]"
    if symbolic.replace(" ", "") == concrete.replace(" ", ""):
        return Text.assemble((_label("shape"), "dim"), concrete)
    return Text.assemble((_label("shape"), "dim"), symbolic, ("  = ", "dim"), concrete)


def _label(word: str) -> str:
    """A field label of --plain output, padded to one column width (9 columns, CJK counted double)."""
    labels = {"shape": _("shape"), "formula": _("formula"), "inputs": _("inputs")}
    return pad(labels[word], 8) + " "


def print_plain(trace, *, decimals: int = DECIMALS, full: bool = False, console=None) -> None:
    import numpy as np
    from rich.console import Console, Group
    from rich.panel import Panel
    from rich.text import Text

    from drill.content.latex import render_latex
    from drill.engine.notation import number_format

    if console is None:
        console = Console(highlight=False)
        if not console.is_terminal:  # piped to a file or a script: room for wide matrices, still plain text
            console = Console(highlight=False, width=160)
    head = Text(_(trace.title), style="bold")
    if trace.section:
        head.append("   " + _("(chapter section {section})").format(section=trace.section), style="dim")
    console.print(head)
    for i, step in enumerate(trace.steps, 1):
        values = np.asarray(step.output, dtype=np.float64)
        try:
            formula = render_latex(step.formula, oneline=True)
        except Exception:  # a formula the renderer cannot handle is shown as written
            formula = step.formula
        lines = [
            Text.assemble((_label("formula"), "dim"), formula),
            _shape_line(step.shape, values.shape),
        ]
        if step.inputs:
            lines.append(Text.assemble((_label("inputs"), "dim"), ", ".join(step.inputs)))
        if step.explanation:
            lines.append(Text(_(step.explanation), style="italic"))
        if values.ndim == 0:
            body = [Text(number_format(values, decimals)(float(values)), style="bold")]
        elif values.ndim <= 2:
            body = [_matrix_table(values, decimals, full, row_labels=values.ndim == 2)]
        else:
            body = [_matrix_table(sl, decimals, full, label) for label, sl in _slices(values, step.shape)]
            if not full and len(body) > 4:
                more = _("… {count} more slices (use --full or --json)").format(count=len(body) - 4)
                body = body[:4] + [Text(more)]
        if step.note:
            body.append(Text(_("note: {note}").format(note=_(step.note)), style="yellow"))
        title = Text.assemble((f"{i}. {_(step.title)}", "bold"), ("  " + step.name, "cyan"))
        console.print(Panel(Group(*lines, *body), title=title, title_align="left", expand=False))
