"""The learner's own editor for the code screen: ``$VISUAL``/``$EDITOR`` on the code, the app suspended while
it runs (the terminal is the editor's until it exits, as with ``git commit``)."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile


def edit_externally(app, code: str, task_name: str) -> str:
    """``code`` after the learner's editor has run on it (a temporary file, removed afterwards). Raises
    OSError (no such editor, unwritable temp folder) or UnicodeDecodeError (the file was saved in another
    encoding) for the screen to report."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.NamedTemporaryFile("w", suffix=f"_{task_name}.py", delete=False, encoding="utf-8") as f:
        f.write(code)
        path = f.name
    from textual.app import SuspendNotSupported

    try:
        try:
            with app.suspend():
                subprocess.run([*shlex.split(editor), path], check=False)
        except SuspendNotSupported:  # no terminal to hand over (headless): run it as it is
            subprocess.run([*shlex.split(editor), path], check=False, stdin=subprocess.DEVNULL)
        with open(path, encoding="utf-8") as f:
            return f.read()
    finally:
        os.unlink(path)
