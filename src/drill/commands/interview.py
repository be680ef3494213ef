"""`drill interview`: a timed mock interview over the 7.24 bank, with a key-point rubric and FSRS grades."""

from __future__ import annotations

import click

from drill.commands.options import FiniteRange, WholeNumber, content_option, store_options
from drill.i18n import N_, _, ngettext
from drill.i18n_click import DrillCommand


@click.command(
    cls=DrillCommand,
    short_help=N_("A timed mock interview from the question bank, with a rubric."),
    help=N_(
        "A mock interview: bank questions in the bank's own words, chosen from what is due and what is "
        "weakest (weakest on the interview day first when `drill plan` set one), each with a time budget. "
        "Type the answer (ctrl+d when done) or answer aloud (space when done); then tick the key points "
        "you covered and the traps you fell into: drill proposes a grade from the coverage, you confirm it "
        "(enter) or change it (1-4), and FSRS schedules the card as in study. Sometimes the next question "
        "follows up from the same section. A scorecard closes the session; every question is saved.\n\n"
        "Time budget, follow-up chance and the rubric's thresholds: drill config (ui.interview_minutes, "
        "ui.interview_follow_up, ui.rubric_easy / ui.rubric_good / ui.rubric_hard).\n\n"
        "Press ? in the app for every key."
    ),
)
@click.option(
    "--questions",
    type=WholeNumber(1, 40),
    default=8,
    show_default=True,
    metavar="N",
    help=N_("How many questions."),
)
@click.option("--section", default=None, metavar="S", help=N_("Only questions from this chapter section."))
@click.option(
    "--minutes",
    type=FiniteRange(min=0.25, max=60),
    default=None,
    metavar="M",
    help=N_("Minutes per question (default: ui.interview_minutes, 3)."),
)
@click.option("--aloud", is_flag=True, default=False, help=N_("Answer aloud: drill only times you."))
@click.option(
    "--follow-up",
    "follow_up",
    type=FiniteRange(min=0, max=1),
    default=None,
    metavar="P",
    help=N_(
        "Chance that the next question follows up from the same section (default: ui.interview_follow_up)."
    ),
)
@click.option(
    "--seed",
    type=WholeNumber(),
    default=None,
    metavar="N",
    help=N_("Make the order and the follow-ups repeatable."),
)
@click.option(
    "--assess",
    "assess_card",
    default=None,
    metavar="CARD_ID",
    help=N_("Judge one typed answer (--answer FILE) against this bank card's rubric; no interview is run."),
)
@click.option(
    "--answer",
    "answer_file",
    default=None,
    metavar="FILE",
    help=N_("With --assess: the file holding the answer (UTF-8 text; - reads standard input)."),
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    default=False,
    help=N_(
        "With --assess: print the verdict as JSON (card, points with index/text/covered/evidence, "
        "misconceptions with id/text/evidence/correction, coverage, proposed_grade 1-4)."
    ),
)
@content_option
@store_options
def interview(
    questions,
    section,
    minutes,
    aloud,
    follow_up,
    seed,
    assess_card,
    answer_file,
    as_json,
    content_path,
    db_url,
    user_name,
) -> None:
    if assess_card is not None or answer_file is not None:
        _assess(assess_card, answer_file, as_json, content_path)
        return
    from drill.tui.app import make_app

    app = make_app(
        "interview",
        content_path=content_path,
        db_url=db_url,
        user=user_name,
        section=section,
        questions=questions,
        minutes=minutes,
        aloud=aloud,
        follow_up=follow_up,
        seed=seed,
    )
    app.run()
    if app.error is not None:
        raise app.error
    answers = app.interview_answers or []
    if answers:
        coverage = sum(a.coverage for a in answers) / len(answers)
        click.echo(
            ngettext(
                "drill: interview of {count} question, mean coverage {coverage:.0%}; every grade is saved.",
                "drill: interview of {count} questions, mean coverage {coverage:.0%}; every grade is saved.",
                len(answers),
            ).format(count=len(answers), coverage=coverage)
        )
    elif app.interview_answers is not None:
        click.echo(_("drill: interview stopped before any answer was graded."))


def _assess(card_id: str | None, answer_file: str | None, as_json: bool, content_path) -> None:
    """``--assess CARD_ID --answer FILE``: the judge's verdict on one answer, printed; one line and exit 2 for
    an unknown card or an unreadable / non-UTF-8 file."""
    import json
    import sys

    from drill.errors import InputError

    if card_id is None or answer_file is None:
        raise InputError(_("--assess CARD_ID and --answer FILE go together"))
    text = _read_answer(answer_file, sys.stdin.buffer)
    from drill.content import load_content
    from drill.content.misconceptions import load_misconceptions
    from drill.i18n import current_language
    from drill.tui.models.interview import assessment, bank_cards

    library = load_content(content_path)
    card = library.cards.get(card_id)
    if card is None or card not in bank_cards([card]):
        known = " ".join(c.id for c in bank_cards(list(library.cards.values())))
        raise InputError(
            _("no bank card {card} with key points (these have: {known})").format(card=card_id, known=known)
        )
    result = assessment(card, text, load_misconceptions(library), current_language())
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    from drill.tui.text import visible

    click.echo(
        _("{card}: covered {covered} of {points} points ({coverage:.0%}), proposed grade {grade}").format(
            card=card.id,
            covered=sum(p["covered"] for p in result["points"]),
            points=len(result["points"]),
            coverage=result["coverage"],
            grade=result["proposed_grade"],
        )
    )
    for p in result["points"]:
        click.echo(f"  [{'x' if p['covered'] else ' '}] {p['index']}. {visible(p['text'])}")
    for m in result["misconceptions"]:
        click.echo("  ! " + visible(m["text"]))


def _read_answer(path: str, stdin) -> str:
    from pathlib import Path

    from drill.errors import InputError

    try:
        raw = stdin.read(1_000_001) if path == "-" else Path(path).open("rb").read(1_000_001)
    except OSError as err:
        raise InputError(
            _("cannot read the answer file {path}: {reason}").format(path=path, reason=err.strerror or err)
        ) from None
    if len(raw) > 1_000_000:
        raise InputError(_("the answer file {path} is larger than 1 MB").format(path=path))
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        raise InputError(
            _("the answer file {path} is not UTF-8 text (byte {offset})").format(path=path, offset=err.start)
        ) from None
