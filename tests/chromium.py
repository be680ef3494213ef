"""Headless Chromium for the tests that check what a browser draws (the HTML report's width, the screenshots'
Chinese): where it is, and a page's measurements read back. `.ci/run` installs Debian's chromium; the tests
that need it are skipped only where no binary exists."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def measured(page: Path, profile: Path, *flags: str):
    """Load ``page`` in headless Chromium and return the JSON its script left in ``<pre id="measure">`` once the
    page settled (``--dump-dom`` after a virtual-time budget); ``flags`` add to the usual ones (a window size)."""
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            f"--user-data-dir={profile}",
            *flags,
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'<pre id="measure">(.*?)</pre>', result.stdout, re.S)
    assert found, result.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))
