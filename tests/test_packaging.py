"""The wheel ships the content: data/ at the repository's top level lands inside the package as drill/data,
so a non-editable `pip install .` finds it (the loader's default). Builds a wheel; installs nothing."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# One worker runs the three tests, so the wheel (a module fixture) is built once, not once per worker.
pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pytest.importorskip(
        "hatchling", reason="the build backend (hatchling) is needed to build without network"
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.glob("drill-*.whl")
    return built


def test_wheel_contains_the_content(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for data_file in sorted((ROOT / "data").glob("*.yaml")):
        assert f"drill/data/{data_file.name}" in names
    assert "drill/data/questions.yaml" in names
    assert "drill/content/loader.py" in names


def test_wheel_content_is_byte_identical_to_the_repository(wheel):
    """Every file of data/ (the YAML and the chapter the pack is drawn from) ships unchanged."""
    shipped = sorted(p for p in (ROOT / "data").rglob("*") if p.is_file())
    assert ROOT / "data" / "transformer-chapter-7.md" in shipped
    with zipfile.ZipFile(wheel) as zf:
        for path in shipped:
            name = "drill/data/" + path.relative_to(ROOT / "data").as_posix()
            assert zf.read(name) == path.read_bytes(), name


def test_wheel_ships_the_compiled_catalogs_not_their_sources(wheel):
    """hatch_build.py compiles src/drill/locale/*/LC_MESSAGES/drill.po into the wheel (the .mo are not in git)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for po in sorted((ROOT / "src" / "drill" / "locale").glob("*/LC_MESSAGES/drill.po")):
        catalog = po.parent.parent.name
        assert f"drill/locale/{catalog}/LC_MESSAGES/drill.mo" in names
    assert {"drill/locale/zh_CN/LC_MESSAGES/drill.mo", "drill/locale/en/LC_MESSAGES/drill.mo"} <= names
    assert not [name for name in names if name.endswith((".po", ".pot"))]


def test_installed_layout_speaks_chinese(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = "import sys; sys.path.insert(0, sys.argv[1]); from drill.cli import main; main(['--lang', 'zh', '--help'])"
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(site)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("用法: drill")


def test_installed_layout_finds_the_packaged_data(wheel, tmp_path):
    """Unpack the wheel (what pip install does) and load content from it with no repository around."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from drill.content import load_content; from drill.content.loader import default_content_path;"
        "lib = load_content(); print(default_content_path()); print(len(lib.cards))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(site)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    path, count = out.stdout.split()
    assert Path(path) == site / "drill" / "data"
    assert int(count) > 0


def test_installed_layout_starts_from_the_content_validated_at_build_time(wheel, tmp_path):
    """The build hook validates data/ into drill/content/shipped-content.json (drill.content.cache): an
    installed drill's first start (no user cache) reads its content from there, never parsing the YAML."""
    assert "drill/content/shipped-content.json" in set(zipfile.ZipFile(wheel).namelist())
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from drill.content import load_content;"
        "lib = load_content(); print(len(lib.cards), 'yaml' in sys.modules, lib.packs[0].path)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(site)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    count, yaml_imported, path = out.stdout.split()
    assert int(count) > 0 and yaml_imported == "False"
    assert Path(path) == site / "drill" / "data"
