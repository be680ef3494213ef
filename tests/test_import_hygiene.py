"""The cores never import textual or rich; `drill --help` imports neither textual, numpy nor sqlalchemy.

Each check runs in a fresh interpreter and looks at sys.modules (as Harlequin's import-hygiene test does).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

UI_MODULES = {"textual", "rich"}
HEAVY_MODULES = {"textual", "rich", "numpy", "sqlalchemy"}


def loaded_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("core", ["drill.content", "drill.engine", "drill.srs", "drill.store", "drill.judge"])
def test_cores_do_not_import_ui(core):
    import importlib
    import pkgutil

    package = importlib.import_module(core)
    modules = [core] + [f"{core}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
    code = "\n".join(f"import {m}" for m in modules)
    assert loaded_after(code) & UI_MODULES == set()


def test_help_is_light():
    """`drill --help` through the console script's entry point (drill.entry) and click's lazy group."""
    code = "from drill.entry import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
    assert loaded_after(code) & HEAVY_MODULES == set()
