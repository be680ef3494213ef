"""`drill config` (show and change the scheduling settings) and `drill optimize` (fit FSRS weights)."""

from __future__ import annotations

import click

from drill.commands.options import store_options


@click.group(name="config", invoke_without_command=True)
@click.pass_context
def config(ctx: click.Context) -> None:
    """Show the scheduling settings: value, default and where each comes from.

    The settings live in a TOML file (`drill config path`); change them with `drill config set KEY VALUE`.
    """
    if ctx.invoked_subcommand is None:
        _show()


def _show() -> None:
    from drill.srs.config import DEFAULT_CONFIG, SETTINGS, config_path, display_value, load_config

    path = config_path(None)
    current = load_config(path)
    exists = path.exists()
    click.echo(
        f"config file: {path}" + ("" if exists else " (not created yet: every setting is its default)")
    )
    rows = [
        (key, display_value(key, current), display_value(key, DEFAULT_CONFIG), current.source(key))
        for key in SETTINGS
    ]
    header = ("setting", "value", "default", "from")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
    click.echo(f"{header[0]:<{widths[0]}}  {header[1]:<{widths[1]}}  {header[2]:<{widths[2]}}  {header[3]}")
    for key, value, default, source in rows:
        click.echo(f"{key:<{widths[0]}}  {value:<{widths[1]}}  {default:<{widths[2]}}  {source}")


@config.command(name="path")
def config_path_command() -> None:
    """Print where the config file is (it may not exist yet)."""
    from drill.srs.config import config_path

    click.echo(str(config_path(None)))


@config.command(name="get")
@click.argument("key")
def config_get(key: str) -> None:
    """Print one setting's value."""
    from drill.srs.config import SETTINGS, display_value, load_config, unknown_setting

    if key not in SETTINGS:
        raise unknown_setting("drill config", key)
    click.echo(display_value(key, load_config()))


@config.command(name="set", context_settings={"ignore_unknown_options": True})
@click.argument("key")
@click.argument("value", nargs=-1, required=True, type=click.UNPROCESSED)
def config_set(key: str, value: tuple[str, ...]) -> None:
    """Validate VALUE and write it to the config file.

    \b
    Examples:
      drill config set desired_retention 0.85
      drill config set learning_steps 1m 10m 1h
      drill config set relearning_steps ""        (no relearning steps)
      drill config set day_starts_at 5
      drill config set leech_action tag
    """
    from drill.srs.config import config_path, display_value, set_value

    path = config_path(None)
    new = set_value(key, " ".join(value), path)
    click.echo(f"{key} = {display_value(key, new)}  (written to {path})")


@config.command(name="reset")
@click.argument("key")
def config_reset(key: str) -> None:
    """Remove KEY from the config file so its default applies again."""
    from drill.srs.config import config_path, display_value, reset_value

    new = reset_value(key, config_path(None))
    click.echo(f"{key} = {display_value(key, new)}  (default)")


@click.command(name="optimize")
@store_options
@click.option("--dry-run", is_flag=True, help="Fit and show the weights, but don't save them.")
def optimize(db_url: str | None, user_name: str | None, dry_run: bool) -> None:
    """Fit FSRS-6 weights to your own review history and save them in the config.

    Needs the optimizer extra (pip install 'drill[optimizer]') and at least 512 reviews made a day or
    more after the card's previous review.
    """
    from drill.srs import optimize as fsrs_fit
    from drill.srs.config import config_path, load_config, set_values

    path = config_path(None)
    load_config(path)  # a broken config file is reported before a long fit, not after
    missing = fsrs_fit.missing_modules()
    if missing:
        raise fsrs_fit.OptimizerMissing(
            f"`drill optimize` needs the optimizer extra ({', '.join(missing)} not installed): "
            f"{fsrs_fit.EXTRA_HINT}"
        )

    from drill.store import open_store

    with open_store(db_url, user_name, readonly=True) as store:
        records = store.review_logs()
    fsrs_fit.require_enough(records)  # before "Fitting…", which would promise a fit that cannot happen
    click.echo(f"Fitting FSRS-6 weights to {len(records)} grades (this can take a minute)...", err=True)
    result = fsrs_fit.fit_parameters(records)
    click.echo(
        f"Fitted on {result.countable_reviews} reviews a day or more apart "
        f"({result.total_reviews} grades, {result.cards} cards)."
    )
    if result.loss_before is not None and result.loss_after is not None:
        click.echo(
            f"Log loss: {result.loss_before:.4f} with FSRS's defaults -> {result.loss_after:.4f} fitted."
        )
    click.echo("parameters = [" + ", ".join(f"{w:.4f}" for w in result.parameters) + "]")
    if dry_run:
        click.echo("Not saved (--dry-run).")
        return
    set_values({"parameters": result.parameters}, path)
    click.echo(f"Saved to {path}. Undo with: drill config reset parameters")
