"""click in the learner's language: drill's help texts and click's own words, translated when shown.

Help texts are written in English and marked with ``N_()`` (``@click.command(cls=DrillCommand,
help=N_("..."), short_help=N_("..."))``, ``click.option(..., help=N_("..."))``); ``DrillCommand`` and
``DrillGroup`` translate them with ``_()`` each time help is rendered, so the language chosen at startup
(``drill.i18n.startup_language``) applies whatever was imported before it. Give every command a
``short_help``: click shortens a long help by English words and sentences, which does not work for Chinese.

click's own words ("Usage:", "Options", "Show this message and exit.", its error messages) come from
``gettext.gettext`` bound inside each click module; ``install()`` rebinds them to drill's catalog, whose
template lists them below (``CLICK_MESSAGES``) so that Babel extracts them with drill's own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

from drill.i18n import N_, _, ngettext

HELP_OPTION_HELP = N_("Show this message and exit.")
VERSION_OPTION_HELP = N_("Show the version and exit.")

# click's words that a drill user meets (msgids exactly as click 8 writes them).
CLICK_MESSAGES = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("default: {default}"),
    N_("env var: {var}"),
    N_("required"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("No such command {name!r}."),
    N_("No such option: {name}"),
    N_("No such option {name!r}."),
    N_("Missing command."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing argument '{param_name}'."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("Option {name!r} does not take a value."),
    N_("Aborted!"),
)


def _click_plural_messages(n: int) -> tuple[str, ...]:  # pragma: no cover - never called
    """click's plural messages, written out so that Babel extracts them."""
    return (
        ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n),
        ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", n),
        ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", n),
        ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", n),
    )


def install() -> None:
    """Make click's own words go through drill's catalog (English stays English: the source strings), and
    click's help wrap Chinese by display width."""
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.types

    for module in (
        click.core,
        click.decorators,
        click.exceptions,
        click.formatting,
        click.parser,
        click.types,
    ):
        module._ = _
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext
    _install_cjk_wrapping()


def _install_cjk_wrapping() -> None:
    """click wraps help with a TextWrapper that counts characters and breaks only at spaces: a Chinese
    paragraph is one 100-column "word". Count columns (a CJK character takes two) and let every CJK
    character be a chunk of its own, with drill.tui.cjk's rules for punctuation. Text without CJK wraps
    exactly as before."""
    import click._textwrap
    import click.formatting
    from click._compat import strip_ansi

    from drill.i18n import text_width
    from drill.tui.cjk import WORD

    original = click._textwrap.TextWrapper
    if getattr(original, "drill_cjk", False):
        return

    def columns(text: str) -> int:
        return text_width(strip_ansi(text))

    class CJKTextWrapper(original):  # type: ignore[misc,valid-type]
        drill_cjk = True

        def _split(self, text: str) -> list[str]:
            return [unit for chunk in super()._split(text) for unit in (WORD.findall(chunk) or [chunk])]

    click._textwrap.TextWrapper = CJKTextWrapper
    click._textwrap.term_len = columns
    click.formatting.term_len = columns


install()


def translate_help(text: str) -> str:
    """A help text through ``_()``, piece by piece around click's ``\\b`` (no-rewrap) markers, which stay out
    of the catalogs: ``N_("Do this.") + "\\n\\n\\b\\n" + N_("Examples:\\n  drill ...")``."""
    pieces = []
    for piece in text.split("\b"):
        core = piece.strip()
        if core:
            start = piece.index(core)
            piece = piece[:start] + _(core) + piece[start + len(core) :]
        pieces.append(piece)
    return "\b".join(pieces)


class _Translating:
    """Mixin: a command whose help, short help and option helps are shown through ``_()``."""

    help: str | None
    short_help: str | None
    epilog: str | None
    params: list[click.Parameter]

    @contextlib.contextmanager
    def _translated(self, ctx: click.Context | None = None) -> Iterator[None]:
        saved = (self.help, self.short_help, self.epilog)
        params = self.get_params(ctx) if ctx is not None else self.params  # type: ignore[attr-defined]
        helps = [param.help for param in params if isinstance(param, click.Option)]
        try:
            self.help, self.short_help, self.epilog = (text and translate_help(text) for text in saved)
            for param in params:
                if isinstance(param, click.Option) and param.help:
                    param.help = _(param.help)
            yield
        finally:
            self.help, self.short_help, self.epilog = saved
            options = (param for param in params if isinstance(param, click.Option))
            for param, text in zip(options, helps, strict=True):
                param.help = text

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """click makes the help option with its help already through ``_()`` (in whatever language was set
        then); keep the English msgid, translated when shown like every other."""
        fresh = getattr(self, "_help_option", None) is None
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if fresh and option is not None:
            option.help = HELP_OPTION_HELP
        return option

    def get_help(self, ctx: click.Context) -> str:
        with self._translated(ctx):
            return super().get_help(ctx)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._translated():
            return super().get_short_help_str(limit)  # type: ignore[misc]


class DrillCommand(_Translating, click.Command):
    """A click command whose help is shown in the UI language."""


class DrillGroup(_Translating, click.Group):
    """A click group whose help (and its subcommands' default class) is in the UI language."""

    command_class = DrillCommand

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """A group called with nothing after it (`drill`, `drill cards`) was asked for help: shown on standard
        output with exit 0, as ``--help`` shows it (click would show it on stderr with exit 2)."""
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            _show_help(ctx)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        """Options but still no command (`drill --lang zh`): the help too. A wrong command stays a refusal."""
        if not ctx._protected_args and not self.invoke_without_command and not ctx.resilient_parsing:
            _show_help(ctx)
        return super().invoke(ctx)


def _show_help(ctx: click.Context) -> None:
    click.echo(ctx.get_help(), color=ctx.color)
    ctx.exit()


def lang_option(func):
    """The global ``--lang`` option: what ``drill.i18n.startup_language`` reads before click parses; here it
    is validated, documented in ``--help``, and applied for callers that invoke the group directly."""
    from drill.i18n import LANGUAGES, set_language

    def apply(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:
            set_language(value)

    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES),
        default=None,
        is_eager=True,
        expose_value=False,
        callback=apply,
        help=N_(
            "Language of drill's own words: zh or en (default: the ui.language setting, else the locale)."
        ),
    )(func)
