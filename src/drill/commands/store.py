"""`drill backup` and `drill restore`: copies of the SQLite progress database made with the backup API."""

from __future__ import annotations

import click

from drill.commands.options import WholeNumber, db_option
from drill.i18n import N_, _
from drill.i18n_click import DrillCommand


def _sqlite_path(db_url: str | None, command: str):
    from drill.errors import StoreError
    from drill.store.engine import display_url, resolve_url, sqlite_file

    url = resolve_url(db_url)
    path = sqlite_file(url)
    if path is None:
        raise StoreError(
            _(
                "`drill {command}` works on SQLite files; {url} is not one (back up a server "
                "database with its own tools, e.g. pg_dump for PostgreSQL)"
            ).format(command=command, url=display_url(url))
        )
    if path.is_dir():
        raise StoreError(
            _("--db {url}: {path} is a folder, not a database file").format(url=display_url(url), path=path)
        )
    return path


@click.command(
    cls=DrillCommand,
    short_help=N_("Back up the progress database."),
    help=N_("Back up the progress database (SQLite's online backup API; safe while drill runs)."),
)
@db_option
@click.option(
    "--keep", type=WholeNumber(1, 1000), default=None, help=N_("How many backups to keep (default 10).")
)
def backup(db_url: str | None, keep: int | None) -> None:
    from drill.store.backup import KEEP, make_backup

    path = _sqlite_path(db_url, "backup")
    target = make_backup(path, keep=keep or KEEP)
    click.echo(_("backed up {path} to {target}").format(path=path, target=target))


@click.command(
    cls=DrillCommand,
    short_help=N_("Restore the progress database from a backup."),
    help=N_(
        "Restore the progress database from FILE (default: the latest backup).\n\n"
        "The current database is moved aside (never deleted). Close every drill using it first."
    ),
)
@db_option
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--list", "list_only", is_flag=True, help=N_("List the backups instead of restoring."))
def restore(db_url: str | None, file: str | None, list_only: bool) -> None:
    from pathlib import Path

    from drill.store.backup import backup_folder, list_backups
    from drill.store.backup import restore as do_restore

    path = _sqlite_path(db_url, "restore")
    if list_only:
        backups = list_backups(path)
        if not backups:
            click.echo(_("no backups of {path} in {folder}").format(path=path, folder=backup_folder()))
        for item in reversed(backups):
            click.echo(str(item))
        return
    used, aside = do_restore(path, Path(file) if file else None)
    click.echo(_("restored {path} from {backup}").format(path=path, backup=used))
    if aside is not None:
        click.echo(_("the previous database was kept as {path}").format(path=aside))
