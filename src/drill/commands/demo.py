"""`drill demo`: the chapter's interactive demos in the terminal (list them, or open one by name).

Only click is imported at module level; the demos list (YAML) and textual load inside the command.
"""

from __future__ import annotations

import click

from drill.commands.options import content_option
from drill.errors import InputError
from drill.i18n import N_, _
from drill.i18n_click import DrillCommand


@click.command(
    cls=DrillCommand,
    short_help=N_("The chapter's interactive demos, with live controls."),
    help=N_(
        "The chapter's interactive demos: heatmaps, sliders and step-throughs, every number from the engine.\n\n"
        "Without NAME it lists them by section; `drill demo softmax` opens one. --list prints the list. "
        "Press ? in the app for every key."
    ),
)
@click.argument("name", required=False)
@click.option("--list", "list_only", is_flag=True, help=N_("Print the demos and exit."))
@content_option
def demo(name, list_only, content_path) -> None:
    from drill.content.demos import load_demos
    from drill.tui.demos import DEMO_CLASSES

    demos = load_demos()
    if list_only:
        for info in demos:
            built = "" if info.name in DEMO_CLASSES else "  " + _("(not in drill yet)")
            click.echo(f"{info.section:<5} {info.name:<18} {info.title}{built}")
        return
    if name is not None:
        known = [d.name for d in demos]
        if name not in known:
            raise InputError(_("no demo {name!r}; demos: {names}").format(name=name, names=", ".join(known)))
        if name not in DEMO_CLASSES:
            raise InputError(_("demo {name!r} is not in drill yet").format(name=name))
    from drill.tui.app import make_app

    app = make_app("demo", content_path=content_path, demo=name)
    app.run()
    if app.error is not None:
        raise app.error
