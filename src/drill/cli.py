"""The `drill` command line: a click group whose subcommands load lazily.

Each subcommand lives in ``drill.commands.<name>`` and imports its heavy dependencies (textual, numpy,
sqlalchemy) inside the command body, so ``drill --help`` stays fast. Errors a user can fix are
``DrillError``s: printed as one line on stderr with a non-zero exit, never as a traceback.
"""

from __future__ import annotations

import errno
import importlib
import os
import select
import stat
import sys

import click

from drill import __version__
from drill.errors import DrillError
from drill.i18n import N_, _, set_language, startup_language
from drill.i18n_click import VERSION_OPTION_HELP, DrillGroup, lang_option

# name -> "module:attribute"; the order is the order shown in --help.
COMMANDS: dict[str, str] = {
    "study": "drill.commands.study:study",
    "quiz": "drill.commands.quiz:quiz",
    "interview": "drill.commands.interview:interview",
    "calc": "drill.commands.calc:calc",
    "demo": "drill.commands.demo:demo",
    "report": "drill.commands.report:report",
    "export": "drill.commands.report:export",
    "code": "drill.commands.code:code",
    "plan": "drill.commands.plan:plan",
    "check": "drill.commands.check:check",
    "config": "drill.commands.srs:config",
    "backup": "drill.commands.store:backup",
    "restore": "drill.commands.store:restore",
    "cards": "drill.commands.cards:cards",
    "optimize": "drill.commands.srs:optimize",
}


class Refused(click.ClickException):
    """click's refusal of a command line (an unknown option, a bad value, a missing argument) as drill says
    every refusal: one line, ``drill: error: …``, exit 2, instead of click's usage, hint and error lines."""

    exit_code = DrillError.exit_code

    def show(self, file=None) -> None:
        _say_error(self.message)


def refusal(err: click.ClickException, command: str | None = None) -> Refused:
    """``err`` as one line naming the subcommand, with click's own message (which names the option and the
    value) and where help is; a value's control or bidi characters shown as visible stand-ins. ``command``
    is the command path to name when click's error does not carry its context ("drill quiz --count" with no
    value)."""
    from drill.content.control import find, visible

    message = " ".join(line.strip() for line in err.format_message().splitlines() if line.strip())
    if find(message) is not None:
        message = visible(message)
    if isinstance(err, click.UsageError):
        command = err.ctx.command_path if err.ctx is not None else command
        if command:
            where = command.partition(" ")[2]  # "drill cards unsuspend" -> "cards unsuspend"
            if where:
                message = f"{where}: {message}"
            message = _("{message} (see '{command} --help')").format(message=message, command=command)
    return Refused(message)


def _refuses(err: click.ClickException) -> bool:
    """Whether drill rewrites ``err`` (a group called without its command never gets here: DrillGroup shows
    its help, exit 0)."""
    return not isinstance(err, Refused | click.exceptions.NoArgsIsHelpError)


class LazyGroup(DrillGroup):
    """A group that imports a subcommand's module only when that subcommand is used or listed.

    Every refusal click makes of the command line, here or in any subcommand, is re-raised as ``Refused``
    (click's ``main`` shows it and exits with its code).
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.ClickException as err:
            if _refuses(err):
                raise refusal(err) from None
            raise

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            if _refuses(err):
                sub = ctx.invoked_subcommand
                raise refusal(err, f"{ctx.command_path} {sub}" if sub else ctx.command_path) from None
            raise
        except DrillError as err:
            _say_error(str(err))
            ctx.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo(_("drill: interrupted"), err=True)
            ctx.exit(130)
        except (OSError, MemoryError) as err:
            ctx.exit(_environment_failure(err))


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_(
        "Drill for Transformer interviews: spaced-repetition review, timed quizzes and the attention maths "
        "step by step, from the course chapter."
    ),
)
@click.version_option(__version__, prog_name="drill", help=VERSION_OPTION_HELP)
@lang_option
def cli() -> None:
    pass


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    set_language(startup_language(args))  # before click parses: --help and parse errors are translated too
    code: int | str | None = 0
    piped = _stdout_kind()
    try:
        cli.main(args=args, prog_name="drill")
    except SystemExit as done:
        code = done.code
        # click and rich meet a closed pipe themselves and exit 1 (rich first points stdout at the null device)
        if code == 1 and piped == "pipe" and (_stdout_kind() == "null" or _stdout_closed()):
            code = 0
    except (OSError, MemoryError) as err:  # outside a subcommand: --help into a full disk, say
        code = _environment_failure(err)
    try:  # what is still buffered goes out now, where a failure is one line, not at interpreter exit
        sys.stdout.flush()
    except (OSError, MemoryError) as err:
        failed = _environment_failure(err)
        code = failed if code in (0, None) else code
    sys.exit(code)


# --- the last line of defence: what the machine refuses (a full disk, a closed pipe, no memory) -------------


def _say_error(message: str) -> None:
    """``drill: error: <message>`` on stderr; nothing when stderr itself is gone. A value the message quotes
    (an option's, a path, a stored string) has its control and bidi characters shown as visible stand-ins."""
    from drill.content.control import find, visible

    if find(message) is not None:
        message = visible(message)
    try:
        click.echo(_("drill: error: {message}").format(message=message), err=True)
    except OSError:
        pass


def _environment_failure(err: OSError | MemoryError) -> int:
    """One line for an OSError or MemoryError no layer turned into a DrillError; the exit code to use.

    A closed standard output (``drill report | head -1``) is how a reader says it has read enough: drill
    stops quietly with exit 0, as other Unix tools do.
    """
    if isinstance(err, MemoryError):
        _say_error(_("out of memory (is an input file or value far larger than drill's limits?)"))
        return DrillError.exit_code
    if err.errno == errno.EPIPE and _stdout_closed():
        _silence_stdout()
        return 0
    problem = err.strerror or str(err) or type(err).__name__
    if err.filename is not None:
        path = os.fsdecode(err.filename)
        _say_error(f"{path!r}: {problem}")
    else:
        _say_error(_("cannot write the output: {problem}").format(problem=problem))
    return DrillError.exit_code


def _stdout_closed() -> bool:
    """Whether the reader of standard output has gone (a pipe whose other end is closed reports POLLERR)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _fd, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll (Windows) or no real stdout: assume it was stdout
        return True


def _stdout_kind() -> str:
    """ "pipe", "null" (the null device) or "other": what standard output is, to tell a closed pipe apart."""
    try:
        mode = os.fstat(sys.stdout.fileno())
        if stat.S_ISFIFO(mode.st_mode):
            return "pipe"
        null = os.stat(os.devnull)
        return "null" if stat.S_ISCHR(mode.st_mode) and mode.st_rdev == null.st_rdev else "other"
    except (AttributeError, OSError, ValueError):
        return "other"


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass
