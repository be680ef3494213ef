"""`drill config` (show and change the scheduling settings) and `drill optimize` (fit FSRS weights)."""

from __future__ import annotations

import click

from drill.commands.options import store_options
from drill.i18n import N_, _, pad, text_width
from drill.i18n_click import DrillCommand, DrillGroup


@click.group(
    name="config",
    cls=DrillGroup,
    invoke_without_command=True,
    short_help=N_("Show or change the settings."),
    help=N_(
        "Show the settings: value, default and where each comes from.\n\n"
        "The settings live in a TOML file (`drill config path`); change them with `drill config set KEY VALUE`."
    ),
)
@click.pass_context
def config(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:
        _show()


def _show() -> None:
    from drill.srs.config import DEFAULT_CONFIG, SETTINGS, config_path, display_value, load_config

    path = config_path(None)
    current = load_config(path)
    exists = path.exists()
    if exists:
        click.echo(_("config file: {path}").format(path=path))
    else:
        click.echo(_("config file: {path} (not created yet: every setting is its default)").format(path=path))
    sources = {"default": _("default"), "file": _("file")}
    rows = [
        (
            key,
            display_value(key, current),
            display_value(key, DEFAULT_CONFIG),
            sources.get(current.source(key), current.source(key)),
        )
        for key in SETTINGS
    ]
    header = (_("setting"), _("value"), _("default"), _("from"))
    widths = [max(text_width(row[i]) for row in [header, *rows]) for i in range(3)]
    for row in [header, *rows]:
        click.echo("  ".join([*(pad(cell, width) for cell, width in zip(row, widths, strict=False)), row[3]]))


@config.command(name="path", help=N_("Print where the config file is (it may not exist yet)."))
def config_path_command() -> None:
    from drill.srs.config import config_path

    click.echo(str(config_path(None)))


@config.command(name="get", help=N_("Print one setting's value."))
@click.argument("key")
def config_get(key: str) -> None:
    from drill.srs.config import SETTINGS, display_value, load_config, unknown_setting

    if key not in SETTINGS:
        raise unknown_setting("drill config", key)
    click.echo(display_value(key, load_config()))


@config.command(
    name="set",
    context_settings={"ignore_unknown_options": True},
    help=N_("Validate VALUE and write it to the config file.")
    + "\n\n\b\n"
    + N_(
        "Examples:\n"
        "  drill config set desired_retention 0.85\n"
        "  drill config set learning_steps 1m 10m 1h\n"
        '  drill config set relearning_steps ""        (no relearning steps)\n'
        "  drill config set day_starts_at 5\n"
        "  drill config set leech_action tag\n"
        "  drill config set ui.language zh"
    ),
)
@click.argument("key")
@click.argument("value", nargs=-1, required=True, type=click.UNPROCESSED)
def config_set(key: str, value: tuple[str, ...]) -> None:
    from drill.srs.config import config_path, display_value, set_value

    path = config_path(None)
    new = set_value(key, " ".join(value), path)
    click.echo(
        _("{key} = {value}  (written to {path})").format(key=key, value=display_value(key, new), path=path)
    )


@config.command(name="reset", help=N_("Remove KEY from the config file so its default applies again."))
@click.argument("key")
def config_reset(key: str) -> None:
    from drill.srs.config import config_path, display_value, reset_value

    new = reset_value(key, config_path(None))
    click.echo(_("{key} = {value}  (default)").format(key=key, value=display_value(key, new)))


@click.command(
    name="optimize",
    cls=DrillCommand,
    short_help=N_("Fit FSRS-6 weights to your review history."),
    help=N_(
        "Fit FSRS-6 weights to this learner's review history with fsrs-rs (the optimizer Anki runs) and "
        "save them for this learner (--user) in the progress database.\n\n"
        "fsrs-rs learns from grades given on a later study day than the card's previous one and needs 64 of "
        "them. As Anki does, the fit is kept only when it predicts your history better than the weights in "
        "use. --reset goes back to the config's weights (FSRS's defaults unless set)."
    ),
)
@store_options
@click.option("--dry-run", is_flag=True, help=N_("Fit and show the weights, but don't save them."))
@click.option("--reset", is_flag=True, help=N_("Remove this learner's fitted weights."))
def optimize(db_url: str | None, user_name: str | None, dry_run: bool, reset: bool) -> None:
    import sys

    from drill.srs import optimize as fsrs_fit
    from drill.srs.config import load_config
    from drill.store import open_store

    load_config()  # a broken config file is reported before a long fit, not after
    with open_store(db_url, user_name, readonly=dry_run) as store:
        if reset:
            store.save_learner_parameters(None)
            click.echo(_("Removed the fitted weights of {user}.").format(user=store.user))
            return
        total = store.grade_count()
        with click.progressbar(
            length=total, label=_("Reading {count} grades").format(count=total), file=sys.stderr
        ) as bar:
            items, total, cards = fsrs_fit.training_items(store.fit_history(), progress=bar.update)
        # Refused before "Fitting", which would promise a fit that cannot happen.
        fsrs_fit.require_enough(items, total)
        click.echo(
            _("Fitting FSRS-6 weights to {items} reviews with fsrs-rs...").format(items=len(items)), err=True
        )
        result = fsrs_fit.fit(
            items,
            total_reviews=total,
            cards=cards,
            current=store.config.parameters,
            relearning_steps=len(store.config.relearning_steps),
        )
        click.echo(
            _("Fitted on {items} reviews a study day or more apart ({grades} grades, {cards} cards).").format(
                items=result.items, grades=result.total_reviews, cards=result.cards
            )
        )
        click.echo("parameters = [" + ", ".join(f"{w:.4f}" for w in result.fitted) + "]")
        if result.kept_current:
            click.echo(
                _(
                    "The fit predicts your history no better than the weights in use (RMSE {current:.4f} vs "
                    "{fitted:.4f}): they stay."
                ).format(current=result.rmse_before, fitted=result.rmse_after)
            )
            return
        click.echo(
            _("Log loss {before:.4f} -> {after:.4f}, RMSE {rmse_before:.4f} -> {rmse_after:.4f}.").format(
                before=result.log_loss_before,
                after=result.log_loss_after,
                rmse_before=result.rmse_before,
                rmse_after=result.rmse_after,
            )
        )
        if dry_run:
            click.echo(_("Not saved (--dry-run)."))
            return
        store.save_learner_parameters(result.parameters)
        click.echo(
            _("Saved for {user} in {where}. Undo with: drill optimize --reset").format(
                user=store.user, where=store.where
            )
        )
