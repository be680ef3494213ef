"""`drill check [PATH]`: validate content, summarise it, and recompute every number the chapter prints.

Exit 0 when the content is valid and every numeric check agrees with the engine (or is a confirmed erratum);
exit 2 on invalid content (the message names file, line and field) or on an unexpected mismatch.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from drill.commands.options import content_option
from drill.i18n import N_, _, pad
from drill.i18n_click import DrillCommand


@dataclass(frozen=True)
class NumericOutcome:
    """verify_checks' results (drill.engine.verify.CheckResult), grouped for printing."""

    ok: int
    errata: tuple  # CheckResults whose erratum the engine confirms: the chapter's figure is wrong
    mismatches: tuple  # CheckResults that disagree with the engine and are not known errata
    # CheckResults whose note the engine confirms: the chapter is right in magnitude, drill gives the exact
    # figure (the check's kind "note"; drill.content.errata)
    notes: tuple = ()


@click.command(
    cls=DrillCommand,
    short_help=N_("Validate content and check its printed numbers."),
    help=N_("Validate content (PATH, --content or the shipped chapter) and check its printed numbers."),
)
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=True, dir_okay=True))
@content_option
@click.option(
    "--plain/--rich",
    "plain",
    default=None,
    help=N_("Plain text or Rich tables (default: Rich on a terminal)."),
)
def check(path: str | None, content_path: str | None, plain: bool | None) -> None:
    from drill.content.loader import load_content
    from drill.content.source import check_sources
    from drill.content.summary import summarize
    from drill.errors import ContentError

    library = load_content(path or content_path, cache=False)  # validate from scratch, always
    require_points(library)
    from drill.content.misconceptions import load_misconceptions

    load_misconceptions(library)  # misconceptions.yaml: line-exact errors like the other content files
    summaries = summarize(library)
    sources = check_sources(library)
    numeric = verify(library.checks)
    if plain is None:
        plain = not sys.stdout.isatty()
    (render_plain if plain else render_rich)(summaries, numeric, sources)
    if sources.missing:
        first, more = sources.missing[0], len(sources.missing) - 1
        raise ContentError(
            str(first)
            if not more
            else _("{first} (and {more} more, listed above)").format(first=first, more=more)
        )
    if numeric.mismatches:
        raise ContentError(
            _(
                "{count} numeric check(s) disagree with the engine and are not known errata (listed above)"
            ).format(count=len(numeric.mismatches))
        )


def require_points(library) -> None:
    """Every 7.24 bank card has its key points (the interview's rubric): a ContentError naming file and cards."""
    from drill.errors import ContentError

    for pack in library.packs:
        missing = [
            c for c in library.cards.values() if c.pack == pack.id and c.bank is not None and not c.points
        ]
        if missing:
            raise ContentError(
                _(
                    "{file}: bank cards without points: {cards} (add `points:`, clauses of the answer word for word)"
                ).format(file=pack.path / "questions.yaml", cards=", ".join(c.id for c in missing))
            )


def verify(checks: list) -> NumericOutcome:
    """Recompute every check through the engine (numpy is imported only when there are checks)."""
    if not checks:
        return NumericOutcome(0, (), (), ())
    from drill.engine.verify import ERRATUM, OK, verify_checks

    results = verify_checks(checks)
    return NumericOutcome(
        ok=sum(1 for r in results if r.status == OK),
        errata=tuple(
            r for r in results if r.status == ERRATUM and getattr(r.check, "kind", "wrong") != "note"
        ),
        mismatches=tuple(r for r in results if not r.ok),
        notes=tuple(
            r for r in results if r.status == ERRATUM and getattr(r.check, "kind", "wrong") == "note"
        ),
    )


def _fmt(value) -> str:
    return "?" if value is None else f"{value:.6g}"


def _where(r) -> str:
    c = r.check
    # the element counted from 1, as the chapter names elements (A₁₂); checks.yaml's `index` counts from 0
    index = (
        " element ({})".format(", ".join(str(i + 1) for i in c.index)) if c.index else ""
    )  # none: a scalar
    return f"{c.id} ({c.section}, {c.example}/{c.step}{index})"


def _erratum_line(r) -> str:
    from drill.content.errata import check_text

    return _("{where}: the chapter printed {claimed:g}, the engine says {value} — {erratum}").format(
        where=_where(r), claimed=r.check.claimed, value=_fmt(r.value), erratum=check_text(r.check)
    )


def _mismatch_line(r) -> str:
    # r.message already states both values (or why there is no engine value: no such step or index)
    return f"{_where(r)}: {_(r.message)}"


def _numeric_lines(numeric: NumericOutcome, total: int) -> list[str]:
    if total == 0:
        return [_("numeric checks: none in this content")]
    lines = [
        _(
            "numeric checks: {ok} ok, {errata} confirmed errata (the chapter is wrong), {notes} exact figures "
            "(right in magnitude), {mismatches} unexpected mismatches"
        ).format(
            ok=numeric.ok,
            errata=len(numeric.errata),
            notes=len(numeric.notes),
            mismatches=len(numeric.mismatches),
        )
    ]
    lines += ["  " + _("erratum: {line}").format(line=_erratum_line(r)) for r in numeric.errata]
    lines += ["  " + _("exact figure: {line}").format(line=_erratum_line(r)) for r in numeric.notes]
    lines += ["  " + _("MISMATCH: {line}").format(line=_mismatch_line(r)) for r in numeric.mismatches]
    return lines


def _source_lines(sources) -> list[str]:
    lines = [
        _("verbatim fields: {found} of {checked} found in the pack's source").format(
            found=sources.checked - len(sources.missing), checked=sources.checked
        )
    ]
    if sources.unsourced:
        lines.append(
            "  " + _("no source named (not checked): {packs}").format(packs=", ".join(sources.unsourced))
        )
    lines += ["  " + _("NOT IN SOURCE: {line}").format(line=str(m)) for m in sources.missing]
    return lines


def _content_ok(summaries, total_checks: int) -> str:
    return _("content OK: {packs} pack(s), {cards} cards, {quizzes} quizzes, {checks} checks").format(
        packs=len(summaries),
        cards=sum(s.cards for s in summaries),
        quizzes=sum(s.quizzes for s in summaries),
        checks=total_checks,
    )


def render_plain(summaries, numeric: NumericOutcome, sources) -> None:
    from drill.content.summary import bank_label, errata_label, kinds_label

    echo = click.echo
    total_checks = sum(s.checks for s in summaries)
    echo(_content_ok(summaries, total_checks))
    headings = (_("section"), _("cards"), _("kinds"), _("bank"), _("section-only"))
    for s in summaries:
        echo("")
        echo(_("pack {id}: {title} ({path})").format(id=s.pack.id, title=s.pack.title, path=s.pack.path))
        echo(
            "  "
            + _("cards: {cards}   quizzes: {quizzes}   checks: {checks}").format(
                cards=s.cards, quizzes=s.quizzes, checks=s.checks
            )
        )
        echo(
            f"  {pad(headings[0], 7)}  {pad(headings[1], 5)}  {pad(headings[2], 34)}  {pad(headings[3], 18)}  "
            f"{headings[4]}"
        )
        for row in s.sections:
            kinds = kinds_label(row.kinds, row.asked_here)
            echo(
                f"  {row.section:<7}  {row.cards:>5}  {kinds:<34}  {bank_label(row.bank):<18}  "
                f"{', '.join(row.section_only)}".rstrip()
            )
        echo("  " + _("cards by kind: {kinds}").format(kinds=kinds_label(s.kinds)))
        echo(
            "  "
            + _("bank numbers ({count}): {numbers}").format(
                count=len(s.bank_numbers), numbers=bank_label(s.bank_numbers) or _("none")
            )
        )
        if s.bank_gaps:
            echo("  " + _("not in the bank: {numbers}").format(numbers=bank_label(s.bank_gaps)))
        only = ", ".join(f"{card_id} ({section})" for card_id, section in s.section_only)
        echo(
            "  "
            + _("section-only cards ({count}): {cards}").format(
                count=len(s.section_only), cards=only or _("none")
            )
        )
        if s.errata:
            echo(
                "  "
                + _("errata ({count}, erratum → cards showing it): {errata}").format(
                    count=len(s.errata), errata=errata_label(s.errata)
                )
            )
    echo("")
    for line in _source_lines(sources):
        echo(line)
    for line in _numeric_lines(numeric, total_checks):
        echo(line)


def render_rich(summaries, numeric: NumericOutcome, sources) -> None:
    """Rich tables; every content string goes in as Text, never as markup."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from drill.content.summary import bank_label, errata_label, kinds_label

    console = Console(highlight=False)
    total_checks = sum(s.checks for s in summaries)
    console.print(Text(_content_ok(summaries, total_checks), style="bold green"))
    for s in summaries:
        table = Table(
            title=Text(f"{s.pack.id} — {s.pack.title}"), caption=Text(str(s.pack.path)), expand=False
        )
        table.add_column(_("Section"), no_wrap=True)
        table.add_column(_("Cards"), justify="right")
        table.add_column(_("Kinds"))
        table.add_column(_("Bank"))
        table.add_column(_("Section-only"))
        for row in s.sections:
            table.add_row(
                Text(row.section),
                str(row.cards),
                Text(kinds_label(row.kinds, row.asked_here)),
                Text(bank_label(row.bank)),
                Text(", ".join(row.section_only)),
            )
        table.add_section()
        table.add_row(
            _("total"),
            str(s.cards),
            Text(kinds_label(s.kinds)),
            Text(_("{count} bank").format(count=len(s.bank_numbers))),
            Text(_("{count} section-only").format(count=len(s.section_only))),
        )
        console.print(table)
        facts = Table.grid(padding=(0, 2))
        facts.add_column(style="bold", no_wrap=True)
        facts.add_column()
        facts.add_row(
            _("Bank numbers"), Text(f"{bank_label(s.bank_numbers) or _('none')} ({len(s.bank_numbers)})")
        )
        if s.bank_gaps:
            facts.add_row(_("Not in the bank"), Text(bank_label(s.bank_gaps), style="yellow"))
        only = ", ".join(f"{card_id} ({section})" for card_id, section in s.section_only)
        facts.add_row(_("Section-only cards"), Text(only or _("none")))
        if s.errata:
            facts.add_row(_("Errata"), Text(errata_label(s.errata)))
        facts.add_row(_("Quizzes"), str(s.quizzes))
        facts.add_row(_("Checks"), str(s.checks))
        console.print(facts)
        console.print()
    source_lines = _source_lines(sources)
    console.print(Text(source_lines[0], style="bold red" if sources.missing else "green"))
    for line in source_lines[1:]:
        console.print(Text(line, style="red"))
    lines = _numeric_lines(numeric, total_checks)
    errata_lines = set(lines[1 : 1 + len(numeric.errata) + len(numeric.notes)])
    style = "bold red" if numeric.mismatches else "green"
    console.print(Text(lines[0], style=style))
    for line in lines[1:]:
        console.print(Text(line, style="yellow" if line in errata_lines else "red"))
