"""The cores never import textual, rich or click (any module, at any depth); tui/models never imports
textual; `drill --help` imports neither textual, numpy nor sqlalchemy.

Each check runs in a fresh interpreter and looks at sys.modules (as Harlequin's import-hygiene test does).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

UI_MODULES = {"textual", "rich", "click"}
HEAVY_MODULES = {"textual", "rich", "numpy", "sqlalchemy"}


def loaded_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def every_module(package: str) -> list[str]:
    """``package`` and every module below it, at any depth (pkgutil.walk_packages, not one level)."""
    import importlib
    import pkgutil

    root = importlib.import_module(package)
    return [package] + [m.name for m in pkgutil.walk_packages(root.__path__, prefix=f"{package}.")]


def test_every_module_is_walked():
    """The walk goes below the first level (drill.engine.examples.basics, drill.content.latex._box)."""
    assert "drill.engine.examples.basics" in every_module("drill.engine")
    assert "drill.content.latex._box" in every_module("drill.content")


@pytest.mark.parametrize("core", ["drill.content", "drill.engine", "drill.srs", "drill.store", "drill.judge"])
def test_cores_do_not_import_ui(core):
    modules = [m for m in every_module(core) if ".migrations" not in m]  # alembic scripts import alembic.op
    code = "\n".join(f"import {m}" for m in modules)
    assert loaded_after(code) & UI_MODULES == set()


def test_tui_models_do_not_import_textual():
    """The screens' models hold state and rules only: they import (and so load) no textual."""
    code = "\n".join(f"import {m}" for m in every_module("drill.tui.models"))
    assert "textual" not in loaded_after(code)


def test_help_is_light():
    """`drill --help` through the console script's entry point (drill.entry) and click's lazy group."""
    code = "from drill.entry import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
    assert loaded_after(code) & HEAVY_MODULES == set()
