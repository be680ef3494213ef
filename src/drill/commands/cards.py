"""`drill cards`: the cards study hides — suspended, buried, leeches — and bringing them back."""

from __future__ import annotations

import json

import click

from drill.commands.options import store_options
from drill.i18n import N_, _, pad, text_width
from drill.i18n_click import DrillCommand, DrillGroup

# The list name on the command line -> (the store's browse state, its help, what an empty list says).
LISTS = {
    "suspended": (
        "suspended",
        N_("List the suspended cards (id, pack, section, lapses, next due)."),
        N_("no suspended cards"),
    ),
    "buried": ("buried", N_("List the cards buried until tomorrow."), N_("no buried cards")),
    "leeches": (
        "leech",
        N_("List the leeches: cards forgotten again and again (suspended by default)."),
        N_("no leeches"),
    ),
}


# A listed card's flags as the listing shows them (translated, as the browser's state column).
FLAGS = {"suspended": N_("suspended"), "buried": N_("buried"), "leech": N_("leech")}


@click.group(
    cls=DrillGroup,
    short_help=N_("List suspended, buried and leech cards; bring them back."),
    help=N_(
        "The cards study does not show: `drill cards suspended|buried|leeches` lists them, "
        "`drill cards unsuspend ID...` and `drill cards unbury ID...` bring them back."
    ),
)
def cards() -> None:
    pass


def _list_command(name: str, state: str, help_text: str, empty: str) -> click.Command:
    @click.command(name=name, cls=DrillCommand, help=help_text)
    @store_options
    @click.option("--json", "as_json", is_flag=True, help=N_("Print JSON instead of a table."))
    def listing(db_url: str | None, user_name: str | None, as_json: bool) -> None:
        from drill.content.control import visible as clean
        from drill.store import open_store

        with open_store(db_url, user_name, readonly=True) as store:
            rows = store.browse(state=state)
        if as_json:
            click.echo(
                json.dumps(
                    [
                        {
                            "id": clean(r.card_id),
                            "pack": clean(r.pack),
                            "section": clean(r.section),
                            "lapses": r.lapses,
                            "due": r.due.isoformat() if r.due else None,
                            "suspended": r.suspended,
                            "buried": r.buried,
                            "leech": r.leech,
                        }
                        for r in rows
                    ],
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return
        if not rows:
            click.echo(_(empty))
            return
        # Columns as wide as their longest value (terminal columns: Chinese counts two), so a long id never
        # pushes its row out of line.
        ids, packs, sections = ([clean(getattr(r, f)) for r in rows] for f in ("card_id", "pack", "section"))
        widths = [max(map(text_width, column)) for column in (ids, packs, sections)]
        for r, card_id, pack, section in zip(rows, ids, packs, sections, strict=True):
            due = r.due.strftime("%Y-%m-%d %H:%M") if r.due else "-"
            flags = " ".join(_(FLAGS[flag]) for flag in FLAGS if getattr(r, flag))
            click.echo(
                f"{pad(card_id, widths[0])} {pad(pack, widths[1])} {pad(section, widths[2])} "
                f"{_('lapses')} {r.lapses:<3} {_('due')} {due}  {flags}"
            )

    return listing


for _name, (_state, _help, _empty) in LISTS.items():
    cards.add_command(_list_command(_name, _state, _help, _empty))


def _bring_back(name: str, help_text: str, done_word: str, state: str, not_word: str) -> click.Command:
    method = name

    @click.command(name=name, cls=DrillCommand, help=help_text)
    @store_options
    @click.argument("card_ids", nargs=-1, required=True, metavar="ID...")
    def command(db_url: str | None, user_name: str | None, card_ids: tuple[str, ...]) -> None:
        from drill.content.control import visible as clean
        from drill.store import open_store

        with open_store(db_url, user_name) as store:
            hidden = {r.card_id for r in store.browse(state=state)}
            for card_id in card_ids:
                if card_id not in hidden:
                    # Nothing to undo: say so rather than report a change that did not happen (an unknown id
                    # is refused by the store, as before).
                    store.card_info(card_id)
                    click.echo(_("{id}: {what}").format(id=clean(card_id), what=_(not_word)))
                    continue
                getattr(store, method)(card_id)
                click.echo(_("{id}: {what}").format(id=clean(card_id), what=_(done_word)))

    return command


cards.add_command(
    _bring_back(
        "unsuspend",
        N_("Return suspended cards (leeches too) to study."),
        N_("unsuspended"),
        "suspended",
        N_("not suspended (nothing changed)"),
    )
)
cards.add_command(
    _bring_back(
        "unbury",
        N_("Return buried cards to today's study."),
        N_("unburied"),
        "buried",
        N_("not buried (nothing changed)"),
    )
)
