"""`drill report` (progress in the terminal, or as Markdown/HTML/JSON/CSV) and `drill export --anki`."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from drill.commands.options import content_option, store_options
from drill.i18n import N_, _, ngettext
from drill.i18n_click import DrillCommand

FORMATS = ("terminal", "md", "html", "json", "csv")
SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json", ".csv": "csv"}


def _choose_format(fmt: str | None, output: str | None) -> str:
    from drill.errors import InputError

    if fmt is not None:
        fmt = fmt.strip().lower()
        fmt = {"markdown": "md", "htm": "html", "text": "terminal"}.get(fmt, fmt)
        if fmt not in FORMATS:
            raise InputError(
                _(
                    "--format {format!r} is not a report format: use one of md, html, json, csv "
                    "(or leave it out for the terminal)"
                ).format(format=fmt)
            )
        if fmt == "terminal" and output not in (None, "-"):
            raise InputError(
                _("--format terminal prints to the terminal; choose md, html, json or csv to write a file")
            )
        return fmt
    if output is None or output == "-":
        return "terminal"
    suffix = Path(output).suffix.lower()
    if suffix not in SUFFIXES:
        if suffix:
            message = _("-o {output!r}: cannot tell the format from {suffix}; add --format md|html|json|csv")
        else:
            message = _(
                "-o {output!r}: cannot tell the format from a name without a suffix; add --format md|html|json|csv"
            )
        raise InputError(message.format(output=output, suffix=suffix))
    return SUFFIXES[suffix]


def _write(chunks: Iterable[str], output: str | None) -> None:
    if output is None or output == "-":
        for chunk in chunks:
            sys.stdout.write(chunk)
        sys.stdout.flush()
        return
    from drill.report.files import write_text

    # A temporary file beside it, fsynced, then one rename: a kill or a full disk leaves the old file whole.
    write_text(output, chunks, what="-o")
    click.echo(_("report written to {path}").format(path=output), err=True)


def _open_store(db_url: str | None, user_name: str | None):
    """Read-only (a report never creates a database), unless a newer drill must first migrate it: then the
    migration runs as it would for `drill study` (after a backup)."""
    from drill.errors import StoreUpgradeNeeded
    from drill.store import open_store

    try:
        return open_store(db_url, user_name, readonly=True)
    except StoreUpgradeNeeded:
        return open_store(db_url, user_name)


def _marks(db_url: str | None, user_name: str | None) -> dict[tuple[str, str], tuple[int, bool]]:
    """The learner's flags and marks for `drill export --anki` (read-only). With no database yet at the default
    place (nothing studied, so nothing flagged), none; a --db or $DRILL_DB_URL that cannot be opened is an error."""
    if db_url is None:
        from drill.paths import default_db_path

        if not default_db_path().exists():
            return {}
    with _open_store(db_url, user_name) as store, store.errors_translated():
        return {(r.pack, r.card_id): (r.flag, r.marked) for r in store.browse() if r.flag or r.marked}


def _library(content_path: str | None):
    from drill.content import load_content

    return load_content(content_path)


@click.command(
    cls=DrillCommand,
    short_help=N_("Where you stand: retention, forecast, weakest cards."),
    help=N_(
        "Where you stand: totals, a 26-week calendar, true retention, the 30-day forecast, the weakest cards, "
        "quiz scores and mastery per section."
    ),
)
@click.option(
    "--format",
    "-f",
    "fmt",
    default=None,
    metavar="md|html|json|csv",
    help=N_("Write the report in this format (default: the terminal; or from -o's suffix)."),
)
@click.option(
    "--output",
    "-o",
    "output",
    default=None,
    metavar="FILE",
    help=N_("Where to write it ('-' for standard output)."),
)
@click.option(
    "--since",
    "since",
    default=None,
    metavar="DATE",
    help=N_("Only reviews, sessions and quizzes from this day on (YYYY-MM-DD)."),
)
@click.option(
    "--section",
    "section",
    default=None,
    metavar="S",
    help=N_("Only the cards of this chapter section (e.g. 7.9; includes its sub-sections)."),
)
@click.option("--cohort", is_flag=True, help=N_("Add the cohort view: every user of the (shared) database."))
@click.option(
    "--excel",
    is_flag=True,
    help=N_("CSV for Excel: start the file with a UTF-8 byte order mark (Excel needs it to show Chinese)."),
)
@store_options
@content_option
def report(fmt, output, since, section, cohort, excel, db_url, user_name, content_path) -> None:
    from drill.report.figures import parse_since

    chosen = _choose_format(fmt, output)
    if excel and chosen != "csv":
        from drill.errors import InputError

        raise InputError(_("--excel is for the CSV report: add --format csv (or -o FILE.csv)"))
    if cohort and chosen == "csv":
        from drill.errors import InputError

        raise InputError(
            _(
                "--cohort is not in the CSV report (one row per card): use --format json, md or html for the cohort"
            )
        )
    since_day = parse_since(since)
    if section is not None and not section.strip():
        from drill.errors import InputError

        raise InputError(_("--section is empty: give a section such as 7.9"))
    library = _library(content_path)
    with _collector_paused():
        with _open_store(db_url, user_name) as store, store.errors_translated():
            from drill.report.figures import compute

            # Only the exports list every card; the other formats skip building a figure per card.
            data = compute(
                store,
                user=user_name,
                since=since_day,
                section=section.strip() if section else None,
                cohort=cohort,
                library=library,
                cards=chosen in ("json", "csv"),
            )
        if chosen == "terminal":
            from rich.console import Console

            from drill.report.terminal import render

            render(data, Console())
            return
        _write(render_chunks(data, chosen, excel=excel), output)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a report is computed and written. A report makes an
    object per card (its row, its columns' values, its text) and no cycles among them, yet every few hundred
    allocations start a collection that walks them: with the collector running, the 100k-card benchmark's
    report spent 0.05-0.1 s CPU in it (half of turning its rows into columns). Everything made before (the
    imported modules, the content) lives as long as the process and is frozen out of later passes."""
    import gc

    gc.freeze()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def render_chunks(data, fmt: str, *, excel: bool = False) -> Iterable[str]:
    """The report's text in pieces: the exports (every card) a batch of cards at a time, written as they come."""
    if fmt == "json":
        from drill.report.jsonout import json_chunks

        return json_chunks(data)
    if fmt == "csv":
        from drill.report.csvout import csv_chunks

        return csv_chunks(data, excel=excel)
    return [render_text(data, fmt, excel=excel)]


def render_text(data, fmt: str, *, excel: bool = False) -> str:
    if fmt == "md":
        from drill.report.markdown import to_markdown

        return to_markdown(data)
    if fmt == "html":
        from drill.report.html import to_html

        return to_html(data)
    if fmt == "json":
        from drill.report.jsonout import to_json

        return to_json(data)
    from drill.report.csvout import to_csv

    return to_csv(data, excel=excel)


@click.command(
    cls=DrillCommand,
    short_help=N_("Export the cards as an Anki deck."),
    help=N_("Export the cards as an Anki deck (LaTeX as MathJax), to review on a phone."),
)
@click.option(
    "--anki",
    "-o",
    "anki_path",
    required=True,
    metavar="FILE.apkg",
    help=N_("Write the cards as an Anki deck package."),
)
@click.option("--section", "section", default=None, metavar="S", help=N_("Only the cards of this section."))
@click.option(
    "--quizzes/--no-quizzes",
    default=True,
    show_default=True,
    help=N_("Add the chapter's quizzes as multiple-choice notes."),
)
@store_options
@content_option
def export(anki_path, section, quizzes, db_url, user_name, content_path) -> None:
    from drill.errors import InputError
    from drill.report.anki import write_apkg

    path = Path(anki_path)
    if path.suffix.lower() != ".apkg":
        raise InputError(_("--anki {path!r}: an Anki package file name ends in .apkg").format(path=anki_path))
    if path.is_dir():
        raise InputError(
            _("--anki {path!r} is a directory: give a file name ending in .apkg").format(path=anki_path)
        )
    library = _library(content_path)
    marks = _marks(db_url, user_name)
    count = write_apkg(
        library, path, section=section.strip() if section else None, quizzes=quizzes, marks=marks
    )
    click.echo(
        ngettext("{count} note written to {path}", "{count} notes written to {path}", count).format(
            count=count, path=path
        ),
        err=True,
    )
    if marks:
        click.echo(
            ngettext(
                "{count} card flagged or marked: tick “Import any learning progress” in Anki's import to keep it",
                "{count} cards flagged or marked: tick “Import any learning progress” in Anki's import to keep them",
                len(marks),
            ).format(count=len(marks)),
            err=True,
        )
