"""SIGTERM or SIGHUP (the terminal closed) while a drill screen is up: the terminal is given back, then drill dies
by the signal as before (``DrillApp.run`` installs this around Textual's run).

Nothing is written on the way: every grade, answer and code attempt the screen acknowledged is already on
disk (each is saved before it is shown), and what is not acknowledged is not saved — the same as a kill.
Dying by the signal (not a clean exit) also ends a code run as it should: its supervisor dies with drill
(``PR_SET_PDEATHSIG``) and kills the learner's processes and removes the run folder (drill.runner._child).
Only the terminal needs drill: Textual leaves it in the alternate screen with mouse reporting and raw mode
on when the process is killed, so the modes Textual turned on are turned off here (plain escape sequences,
no Textual internals) and the terminal's settings from before the app are put back.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator

SIGNALS = (signal.SIGTERM, signal.SIGHUP)

# What Textual's Linux driver turns on, turned off: mouse reporting (1000/1003/1015/1006), bracketed paste,
# focus events, the Kitty keyboard protocol; then the main screen again, the cursor shown, line wrap on.
RESTORE = (
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?1004l\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?7h"
)


def _tty_state():
    """(the terminal's fd, its settings) before the app starts, or (None, None) off a terminal."""
    try:
        import termios

        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        if fd < 0 or not os.isatty(fd):
            return None, None
        return fd, termios.tcgetattr(fd)
    except (OSError, ValueError, ImportError):
        return None, None


@contextlib.contextmanager
def terminal_given_back() -> Iterator[None]:
    """While the app runs: SIGTERM / SIGHUP give the terminal back, then end drill by the same signal."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fd, attrs = _tty_state()
    out = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1

    def given_back(signum, _frame):
        if out >= 0 and os.isatty(out):
            try:
                os.write(out, RESTORE.encode())
            except OSError:  # the terminal is gone (SIGHUP): nothing to give back
                pass
        if fd is not None and attrs is not None:
            try:
                import termios

                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            except (OSError, termios.error):
                pass
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    previous = {sig: signal.signal(sig, given_back) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
