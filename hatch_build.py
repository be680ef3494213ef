"""drill's build outputs: the gettext catalogs (Babel) and the validated shipped content; the hatchling build
hook that makes them, and the maintainer's tool.

The catalogs are ``src/drill/locale/<catalog>/LC_MESSAGES/drill.po`` (``zh_CN``, ``en``), merged from the
template ``src/drill/locale/drill.pot``; the compiled ``.mo`` files are build outputs, never committed:

- a wheel (``pip install .``, ``python -m build``, ``.ci/run``): this hook compiles every ``.po`` into a
  temporary folder and force-includes the ``.mo`` files as ``drill/locale/<catalog>/LC_MESSAGES/drill.mo``;
- an editable install (``pip install -e .``) imports drill from ``src/``: the hook compiles the ``.mo`` files
  in place, beside their ``.po`` (ignored by git). After editing a ``.po`` in an editable checkout, run
  ``python hatch_build.py compile`` (tests/i18n checks that the compiled catalogs match their sources).

The shipped content (``data/``) is loaded and validated here as `drill check` loads it (every field rule and
reference between records) and written as ``drill/content/shipped-content.json`` (drill.content.cache: the
entry a first-ever start reads instead of parsing the YAML; keyed on the YAML's bytes and on the code that
builds the records, so a stale one is never used): into the wheel, or in place (``src/drill/content/``,
ignored by git) for an editable install. After editing ``data/`` in an editable checkout,
``python hatch_build.py content`` rebuilds it (until then drill parses the YAML).

Maintainer's commands (Babel is in the ``test`` extra)::

    python hatch_build.py extract   # src/drill -> drill.pot (keywords _, N_, ngettext; mapping in babel.cfg)
    python hatch_build.py update    # merge drill.pot into every .po (new msgids arrive untranslated)
    python hatch_build.py compile   # every .po -> .mo beside it
    python hatch_build.py content   # data/ -> src/drill/content/shipped-content.json
    python hatch_build.py check     # exit 1 if drill.pot is not what the source extracts, or a zh_CN
                                    # message is untranslated or fuzzy
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SOURCE = ROOT / "src" / "drill"
SHIPPED_CONTENT = Path("content") / "shipped-content.json"  # below drill/ (drill.content.cache.SHIPPED)
LOCALE = SOURCE / "locale"
TEMPLATE = LOCALE / "drill.pot"
MAPPING = ROOT / "babel.cfg"
DOMAIN = "drill"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
CATALOGS = ("zh_CN", "en")


def po_path(catalog: str, locale_dir: Path = LOCALE) -> Path:
    return locale_dir / catalog / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(source: Path = SOURCE):
    """A Babel Catalog of every message marked in ``source`` (no translations)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    catalog = Catalog(
        project="drill", domain=DOMAIN, charset="utf-8", copyright_holder="drill contributors", fuzzy=False
    )
    catalog.header_comment = (
        "# drill's own words: the template for src/drill/locale/*/LC_MESSAGES/drill.po (hatch_build.py)."
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(source), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        path = Path(source.name) / filename
        catalog.add(message, None, [(path.as_posix(), lineno)], auto_comments=comments, context=context)
    return catalog


def read_po(path: Path, locale: str | None = None):
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as handle:
        return babel_read_po(handle, locale=locale, domain=DOMAIN)


def write_po(path: Path, catalog, **options) -> None:
    from babel.messages.pofile import write_po as babel_write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        babel_write_po(handle, catalog, width=110, **options)


def compile_catalogs(locale_dir: Path = LOCALE, out_dir: Path | None = None) -> list[tuple[str, Path]]:
    """Compile every ``<catalog>/LC_MESSAGES/drill.po`` under ``locale_dir`` into ``out_dir`` (default: beside
    it). Returns (catalog, .mo path) pairs. Fuzzy entries are left out, as msgfmt does."""
    from babel.messages.mofile import write_mo

    out_dir = locale_dir if out_dir is None else out_dir
    compiled = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        catalog_name = po.parent.parent.name
        catalog = read_po(po, locale=catalog_name)
        # Babel's checks, as `pybabel compile` runs them (and `msgfmt -c` in .ci/run): a "%" that reads as a
        # %-placeholder ("{n}% if" -> "% i") earns a python-format flag at extraction, so drill's own words
        # put a "{n}%" before punctuation or at the end, never before a letter.
        errors = [(message.id, err) for message, errs in catalog.check() for err in errs]
        if errors:
            raise SystemExit(f"{po}: {errors[0][0]!r}: {errors[0][1]}")
        mo = out_dir / catalog_name / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        compiled.append((catalog_name, mo))
    return compiled


def build_content(root: Path = ROOT, target: Path | None = None) -> Path:
    """``root``/data loaded and validated from its YAML (drill.content.loader, no cache), written as the shipped
    entry of drill.content.cache at ``target`` (default: in place, beside drill/content/cache.py)."""
    sys.path.insert(0, str(root / "src"))
    from drill.content import cache, loader

    data = root / "data"
    pack_dirs = loader.find_packs(data)
    library = loader.load_content(data, cache=False)
    target = root / "src" / "drill" / SHIPPED_CONTENT if target is None else target
    return cache.write_shipped(target, pack_dirs, loader.engine_catalog(), library)


def update() -> None:
    """Merge the template into every catalog (Babel's update: obsolete entries are dropped)."""
    for name in CATALOGS:
        path = po_path(name)
        catalog = read_po(path, locale=name)
        catalog.update(
            read_po(TEMPLATE), no_fuzzy_matching=True
        )  # a fresh template each: update shares messages
        write_po(path, catalog, ignore_obsolete=True, omit_header=False)


def problems() -> list[str]:
    """What `check` reports: template drift and untranslated/fuzzy zh_CN messages."""
    found = []
    extracted = {message.id for message in extract() if message.id}
    committed = {message.id for message in read_po(TEMPLATE) if message.id}
    found += [
        f"not in drill.pot (run extract, update): {mid!r}" for mid in sorted(extracted - committed, key=str)
    ]
    found += [
        f"in drill.pot but gone from the source: {mid!r}" for mid in sorted(committed - extracted, key=str)
    ]
    for message in read_po(po_path("zh_CN"), locale="zh_CN"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            found.append(f"zh_CN: untranslated or fuzzy: {message.id!r}")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        write_po(TEMPLATE, extract(), omit_header=False, sort_by_file=True)
    elif command == "update":
        update()
    elif command == "compile":
        for name, mo in compile_catalogs():
            print(f"{name}: {mo.relative_to(ROOT)}")
    elif command == "content":
        print(build_content().relative_to(ROOT))
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # running as the maintainer's tool without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


class CatalogBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Compile the .po catalogs and validate the shipped content into the wheel (or in place, for an editable
    install)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        locale_dir = Path(self.root) / "src" / "drill" / "locale"
        if version == "editable":
            compile_catalogs(locale_dir)
            build_content(Path(self.root))
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="drill-mo-")
        for name, mo in compile_catalogs(locale_dir, Path(self._tmp.name)):
            build_data["force_include"][str(mo)] = f"drill/locale/{name}/LC_MESSAGES/{DOMAIN}.mo"
        shipped = build_content(Path(self.root), Path(self._tmp.name) / SHIPPED_CONTENT.name)
        build_data["force_include"][str(shipped)] = f"drill/{SHIPPED_CONTENT.as_posix()}"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
