"""`drill check [PATH]`: validate content, summarise it, and recompute every number the chapter prints.

Exit 0 when the content is valid and every numeric check agrees with the engine (or is a confirmed erratum);
exit 2 on invalid content (the message names file, line and field) or on an unexpected mismatch.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from drill.commands.options import content_option


@dataclass(frozen=True)
class NumericOutcome:
    """verify_checks' results (drill.engine.verify.CheckResult), grouped for printing."""

    ok: int
    errata: tuple  # CheckResults whose erratum the engine confirms
    mismatches: tuple  # CheckResults that disagree with the engine and are not known errata


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=True, dir_okay=True))
@content_option
@click.option(
    "--plain/--rich", "plain", default=None, help="Plain text or Rich tables (default: Rich on a terminal)."
)
def check(path: str | None, content_path: str | None, plain: bool | None) -> None:
    """Validate content (PATH, --content or the shipped chapter) and check its printed numbers."""
    from drill.content.loader import load_content
    from drill.content.summary import summarize

    library = load_content(path or content_path, cache=False)  # validate from scratch, always
    summaries = summarize(library)
    numeric = verify(library.checks)
    if plain is None:
        plain = not sys.stdout.isatty()
    (render_plain if plain else render_rich)(summaries, numeric)
    if numeric.mismatches:
        from drill.errors import ContentError

        raise ContentError(
            f"{len(numeric.mismatches)} numeric check(s) disagree with the engine and are not known errata (listed above)"
        )


def verify(checks: list) -> NumericOutcome:
    """Recompute every check through the engine (numpy is imported only when there are checks)."""
    if not checks:
        return NumericOutcome(0, (), ())
    from drill.engine.verify import ERRATUM, OK, verify_checks

    results = verify_checks(checks)
    return NumericOutcome(
        ok=sum(1 for r in results if r.status == OK),
        errata=tuple(r for r in results if r.status == ERRATUM),
        mismatches=tuple(r for r in results if not r.ok),
    )


def _fmt(value) -> str:
    return "?" if value is None else f"{value:.6g}"


def _where(r) -> str:
    c = r.check
    index = str(list(c.index)) if c.index else ""  # a scalar step has no index
    return f"{c.id} ({c.section}, {c.example}/{c.step}{index})"


def _erratum_line(r) -> str:
    return f"{_where(r)}: the chapter printed {r.check.claimed:g}, the engine says {_fmt(r.value)} — {r.check.erratum}"


def _mismatch_line(r) -> str:
    # r.message already states both values (or why there is no engine value: no such step or index)
    return f"{_where(r)}: {r.message}"


def _numeric_lines(numeric: NumericOutcome, total: int) -> list[str]:
    if total == 0:
        return ["numeric checks: none in this content"]
    lines = [
        f"numeric checks: {numeric.ok} ok, {len(numeric.errata)} confirmed errata, "
        f"{len(numeric.mismatches)} unexpected mismatches"
    ]
    lines += [f"  erratum: {_erratum_line(r)}" for r in numeric.errata]
    lines += [f"  MISMATCH: {_mismatch_line(r)}" for r in numeric.mismatches]
    return lines


def render_plain(summaries, numeric: NumericOutcome) -> None:
    from drill.content.summary import bank_label

    echo = click.echo
    total_checks = sum(s.checks for s in summaries)
    echo(
        f"content OK: {len(summaries)} pack(s), {sum(s.cards for s in summaries)} cards, "
        f"{sum(s.quizzes for s in summaries)} quizzes, {total_checks} checks"
    )
    for s in summaries:
        echo("")
        echo(f"pack {s.pack.id}: {s.pack.title} ({s.pack.path})")
        echo(f"  cards: {s.cards}   quizzes: {s.quizzes}   checks: {s.checks}")
        echo("  section  cards  bank                section-only")
        for row in s.sections:
            echo(
                f"  {row.section:<7}  {row.cards:>5}  {bank_label(row.bank):<18}  {', '.join(row.section_only)}".rstrip()
            )
        echo(f"  bank numbers ({len(s.bank_numbers)}): {bank_label(s.bank_numbers) or 'none'}")
        if s.bank_gaps:
            echo(f"  not in the bank: {bank_label(s.bank_gaps)}")
        only = ", ".join(f"{card_id} ({section})" for card_id, section in s.section_only)
        echo(f"  section-only cards ({len(s.section_only)}): {only or 'none'}")
    echo("")
    for line in _numeric_lines(numeric, total_checks):
        echo(line)


def render_rich(summaries, numeric: NumericOutcome) -> None:
    """Rich tables; every content string goes in as Text, never as markup."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from drill.content.summary import bank_label

    console = Console(highlight=False)
    total_checks = sum(s.checks for s in summaries)
    console.print(
        Text(
            f"content OK: {len(summaries)} pack(s), {sum(s.cards for s in summaries)} cards, "
            f"{sum(s.quizzes for s in summaries)} quizzes, {total_checks} checks",
            style="bold green",
        )
    )
    for s in summaries:
        table = Table(
            title=Text(f"{s.pack.id} — {s.pack.title}"), caption=Text(str(s.pack.path)), expand=False
        )
        table.add_column("Section", no_wrap=True)
        table.add_column("Cards", justify="right")
        table.add_column("Bank")
        table.add_column("Section-only")
        for row in s.sections:
            table.add_row(
                Text(row.section),
                str(row.cards),
                Text(bank_label(row.bank)),
                Text(", ".join(row.section_only)),
            )
        table.add_section()
        table.add_row(
            "total",
            str(s.cards),
            Text(f"{len(s.bank_numbers)} bank"),
            Text(f"{len(s.section_only)} section-only"),
        )
        console.print(table)
        facts = Table.grid(padding=(0, 2))
        facts.add_column(style="bold", no_wrap=True)
        facts.add_column()
        facts.add_row("Bank numbers", Text(f"{bank_label(s.bank_numbers) or 'none'} ({len(s.bank_numbers)})"))
        if s.bank_gaps:
            facts.add_row("Not in the bank", Text(bank_label(s.bank_gaps), style="yellow"))
        only = ", ".join(f"{card_id} ({section})" for card_id, section in s.section_only)
        facts.add_row("Section-only cards", Text(only or "none"))
        facts.add_row("Quizzes", str(s.quizzes))
        facts.add_row("Checks", str(s.checks))
        console.print(facts)
        console.print()
    lines = _numeric_lines(numeric, total_checks)
    style = "bold red" if numeric.mismatches else "green"
    console.print(Text(lines[0], style=style))
    for line in lines[1:]:
        console.print(Text(line, style="red" if "MISMATCH" in line else "yellow"))
