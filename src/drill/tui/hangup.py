"""SIGTERM or SIGHUP (the terminal closed) while a drill screen is up: the terminal is given back, then drill dies
by the signal as before (``DrillApp.run`` installs this around Textual's run). A terminal that hangs up without
a SIGHUP (one drill does not own as its controlling terminal) is watched for, and treated the same.

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
from collections.abc import Callable, Iterator

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
    stop = _watch_hangup(fd) if fd is not None else None
    try:
        yield
    finally:
        if stop is not None:
            stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _watch_hangup(fd: int) -> Callable[[], None]:
    """A terminal that is not drill's controlling one (a pseudo-terminal another program opened for it) sends no
    SIGHUP when its other end closes, and Textual's input thread then reads end-of-file in a loop (a core at
    100 %, for ever). A thread waits in poll() (no CPU meanwhile; only hang-up and errors are asked for, never
    input) and sends drill the SIGHUP a controlling terminal would. Returns what stops the watch."""
    import select
    import threading

    wake_r, wake_w = os.pipe()
    poller = select.poll()
    poller.register(fd, 0)  # POLLHUP / POLLERR are always reported
    poller.register(wake_r, select.POLLIN)

    def watch() -> None:
        while True:
            for which, events in poller.poll():
                if which == wake_r:
                    return
                if events & (select.POLLHUP | select.POLLERR):
                    os.kill(os.getpid(), signal.SIGHUP)
                    return
                if events & select.POLLNVAL:  # the terminal's descriptor was closed: nothing to watch
                    return

    watcher = threading.Thread(target=watch, name="drill-hangup", daemon=True)
    watcher.start()

    def stop() -> None:
        os.write(wake_w, b"x")
        watcher.join(timeout=1)
        os.close(wake_r)
        os.close(wake_w)

    return stop
