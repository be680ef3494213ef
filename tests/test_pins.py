"""A dependency whose private API drill touches is pinned exactly (``==``) in pyproject.toml, with a comment
on its pin naming what drill touches (each private name, or the module that touches it): a private name can change in any release, so ``>=`` would lie.

The oracle is the source itself, read with ``ast``: every private name (``_x``, not dunder) of a third-party
package that src/drill reaches, in any of these ways:

- imported: ``import click._textwrap``, ``from click._compat import strip_ansi``, ``from pkg import _x``;
- read or assigned through a name bound to the package: ``rich._wrap.re_word = ...``, ``getattr(mod, "_x")``;
- overridden or used inside a subclass of a third-party class: a method or ``self._x`` that the base class (or
  an ``__init__`` in its MRO) defines (``def _size_updated`` on a ``Static``, ``self._bindings``);
- read on any other object (``ctx._protected_args``) when drill defines no such name itself and a third-party
  package the module imports does.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import importlib.util
import re
import sys
import tomllib
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

# One worker runs these tests, so the scan of the installed packages (cached per process) is made once.
pytestmark = pytest.mark.xdist_group("pins")

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "drill"
PYPROJECT = ROOT / "pyproject.toml"


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def third_party(top: str) -> bool:
    return top not in sys.stdlib_module_names and top not in ("drill", "__future__", "")


@cache
def distribution(top: str) -> str:
    """The distribution that installs the top-level package ``top`` (textual_plot -> textual-plot)."""
    dists = importlib.metadata.packages_distributions().get(top, [top])
    return canonical(dists[0])


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def package_private_names(top: str) -> frozenset[str]:
    """The private names the installed package ``top`` declares (def, class, (self.) assignment, annotation)."""
    spec = importlib.util.find_spec(top)
    if spec is None:
        return frozenset()
    roots = list(spec.submodule_search_locations or []) or [spec.origin]
    names: set[str] = set()
    for root in roots:
        path = Path(root)
        for f in path.rglob("*.py") if path.is_dir() else [path]:
            names.update(DECLARED.findall(f.read_text(encoding="utf-8", errors="replace")))
    return frozenset(filter(private, names))


DECLARED = re.compile(r"(?m)(?:^\s*(?:async\s+)?(?:def|class)\s+|\bself\.|^\s*)(_\w+)\s*[:=(]")


@cache
def mro_defines(origin: str, name: str) -> bool:
    """Whether the third-party class at dotted path ``origin`` (or a class it inherits) defines ``name``."""
    module, _, attr = origin.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return False
    if not isinstance(cls, type):
        return False
    for klass in cls.__mro__:
        if name in vars(klass) or name in file_private_names(
            getattr(sys.modules.get(klass.__module__), "__file__", None)
        ):
            return True  # a class attribute or method, or an attribute the class's own module assigns
    return False


@cache
def file_private_names(path: str | None) -> frozenset[str]:
    if not path or not path.endswith(".py"):
        return frozenset()
    return frozenset(DECLARED.findall(Path(path).read_text(encoding="utf-8", errors="replace")))


class Module:
    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.bound: dict[str, str] = {}  # local name -> the dotted third-party origin it is bound to
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.bound[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.bound[top] = top
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    self.bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        self.stdlib = {k for k, v in self.bound.items() if v.split(".")[0] in sys.stdlib_module_names}
        self.bound = {k: v for k, v in self.bound.items() if third_party(v.split(".")[0])}

    def tops(self) -> set[str]:
        return {origin.split(".")[0] for origin in self.bound.values()}


def attribute_uses(tree: ast.AST):
    """(node, object expression, attribute name) for ``x.attr`` and ``getattr/setattr/hasattr(x, "attr")``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node, node.value, node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            yield node, node.args[0], node.args[1].value


def drill_names(modules: list[Module]) -> set[str]:
    """Every name drill declares itself (functions, classes, variables, attributes it assigns, parameters)."""
    names: set[str] = set()
    for module in modules:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names


@cache  # the scan of src/drill is read by several tests
def touched(src: Path = SRC) -> dict[str, dict[str, set[str]]]:
    """distribution -> private name -> the places (file:line) that touch it."""
    modules = [Module(p) for p in sorted(src.rglob("*.py"))]
    ours = drill_names(modules)
    everywhere = sorted(set().union(*(m.tops() for m in modules)))
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))

    for module in modules:

        def hit(top: str, name: str, node: ast.AST, path: Path = module.path) -> None:
            found[distribution(top)][name].add(f"{path.relative_to(src.parent)}:{getattr(node, 'lineno', 0)}")

        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if third_party(parts[0]):
                        for part in filter(private, parts[1:]):
                            hit(parts[0], part, node)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                parts = node.module.split(".")
                if third_party(parts[0]):
                    for part in filter(private, parts[1:] + [a.name for a in node.names]):
                        hit(parts[0], part, node)

        # subclasses of third-party classes: private names the base declares, overridden or used on self
        subclassed: dict[ast.ClassDef, list[str]] = {}
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef):
                bases = [
                    module.bound[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in module.bound
                ]
                bases += [
                    f"{module.bound[b.value.id]}.{b.attr}"
                    for b in node.bases
                    if isinstance(b, ast.Attribute)
                    and isinstance(b.value, ast.Name)
                    and b.value.id in module.bound
                ]
                if bases:
                    subclassed[node] = bases
        in_subclass: set[int] = set()
        for cls, bases in subclassed.items():
            for item in cls.body:
                names = []
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names = [item.name]
                elif isinstance(item, ast.Assign):
                    names = [t.id for t in item.targets if isinstance(t, ast.Name)]
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names = [item.target.id]
                for name in filter(private, names):
                    for base in bases:
                        if mro_defines(base, name):
                            hit(base.split(".")[0], name, item)
            for node, obj, name in attribute_uses(cls):
                if private(name) and isinstance(obj, ast.Name) and obj.id == "self":
                    in_subclass.add(id(node))
                    for base in bases:
                        if mro_defines(base, name):
                            hit(base.split(".")[0], name, node)

        for node, obj, name in attribute_uses(module.tree):
            if not private(name) or id(node) in in_subclass:
                continue
            if isinstance(obj, ast.Name) and obj.id in module.bound:  # click._textwrap, App._get_screen
                origin = module.bound[obj.id]
                hit(origin.split(".")[0], name, node)
            elif (
                isinstance(obj, ast.Attribute)
                and isinstance(obj.value, ast.Name)
                and obj.value.id in module.bound
            ):
                hit(module.bound[obj.value.id].split(".")[0], name, node)  # click._textwrap.TextWrapper._x
            elif name not in ours and not (isinstance(obj, ast.Name) and obj.id in module.stdlib):
                # ctx._protected_args, self.app._get_screen: a name drill never declares, from a package the
                # module imports or else from any package drill imports
                tops = [top for top in sorted(module.tops()) if name in package_private_names(top)]
                tops = tops or [top for top in everywhere if name in package_private_names(top)]
                for top in tops:
                    hit(top, name, node)
    return {dist: dict(names) for dist, names in found.items()}


def exact_pins(text: str) -> dict[str, str]:
    """distribution -> the pyproject text that pins it with ``==`` (its lines and the comment lines above them;
    a distribution pinned in several places, as fsrs and fsrs[optimizer], is pinned by all of them)."""
    data = tomllib.loads(text)
    specs = list(data["project"].get("dependencies", []))
    for extra in data["project"].get("optional-dependencies", {}).values():
        specs += extra
    pinned = {}
    lines = text.splitlines()
    for spec in specs:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*==\s*[\w.+!]+\s*(;.*)?", spec)
        if not m:
            continue
        for i, line in enumerate(lines):
            if f'"{spec}"' in line:
                above = []
                j = i - 1
                while j >= 0 and lines[j].strip().startswith("#"):
                    above.append(lines[j])
                    j -= 1
                dist = canonical(m.group(1))
                pinned[dist] = "\n".join(filter(None, [pinned.get(dist, ""), *reversed(above), line]))
                break
    return pinned


def problems(text: str, found: dict[str, dict[str, set[str]]]) -> list[str]:
    pins = exact_pins(text)
    out = []
    for dist, names in sorted(found.items()):
        places = sorted(p for ps in names.values() for p in ps)
        if dist not in pins:
            out.append(
                f"{dist} is not pinned with == but drill touches its private {sorted(names)} ({', '.join(places)})"
            )
            continue
        comment = pins[dist].partition("#")[2] if "#" in pins[dist] else ""
        missing = sorted(
            n
            for n, where in names.items()
            if n not in comment and not all(w.split(":")[0].removeprefix("drill/") in comment for w in where)
        )
        if missing:
            out.append(f"{dist}'s pin does not say in its comment that drill touches {missing}")
    return out


def stale(text: str, found: dict[str, dict[str, set[str]]], root: Path = ROOT) -> list[str]:
    """What an exact pin's comment names that is no longer so: a file it names that does not exist (under
    src/drill or the repository), a private name drill's source no longer touches (unless a test file the
    comment names touches it: a test-only pin)."""
    out = []
    for dist, pin in sorted(exact_pins(text).items()):
        comment = "\n".join(line.partition("#")[2] for line in pin.splitlines())
        files = re.findall(r"[\w/]+\.py\b", comment)
        for f in files:
            if not ((root / "src" / "drill" / f).is_file() or (root / f).is_file()):
                out.append(f"{dist}'s pin comment names {f}, which does not exist")
        tests_text = "".join(
            (root / f).read_text(encoding="utf-8")
            for f in files
            if f.startswith("tests/") and (root / f).is_file()
        )
        for name in sorted(set(filter(private, re.findall(r"(?<!\w)(_[A-Za-z]\w*)", comment)))):
            if name not in found.get(dist, {}) and f".{name}" not in tests_text:
                out.append(f"{dist}'s pin comment says drill touches {name}, which it no longer does")
    return out


def test_every_touched_private_api_is_pinned_exactly_with_a_comment():
    assert problems(PYPROJECT.read_text(encoding="utf-8"), touched()) == []


def test_no_pin_comment_names_what_is_no_longer_touched():
    assert stale(PYPROJECT.read_text(encoding="utf-8"), touched()) == []


def test_a_stale_pin_comment_is_refused(tmp_path):
    (tmp_path / "src" / "drill" / "tui").mkdir(parents=True)
    (tmp_path / "src" / "drill" / "tui" / "keys.py").write_text("")
    found = {"textual": {"_bindings": {"drill/tui/keys.py:89"}}}
    head = '[project]\nname = "x"\nversion = "0"\ndependencies = [\n'
    fine = head + '    "textual==8.2.8",  # DOMNode._bindings (tui/keys.py)\n]\n'
    assert stale(fine, found, tmp_path) == []
    gone_file = head + '    "textual==8.2.8",  # DOMNode._bindings (tui/widgets/settled.py)\n]\n'
    assert stale(gone_file, found, tmp_path) == [
        "textual's pin comment names tui/widgets/settled.py, which does not exist"
    ]
    gone_name = head + '    # App._get_screen\n    "textual==8.2.8",  # DOMNode._bindings (tui/keys.py)\n]\n'
    assert stale(gone_name, found, tmp_path) == [
        "textual's pin comment says drill touches _get_screen, which it no longer does"
    ]


def test_the_scan_finds_what_drill_is_known_to_touch():
    """The scanner itself: the names the issue lists are found (a scan that finds nothing passes trivially)."""
    found = touched()
    assert {"_textwrap", "_compat", "_protected_args"} <= set(found["click"])
    assert "_wrap" in found["rich"]
    assert "_bindings" in found["textual"]


def test_a_range_or_a_silent_pin_is_refused():
    found = {"click": {"_textwrap": {"drill/i18n_click.py:99"}}}
    head = '[project]\nname = "x"\nversion = "0"\ndependencies = [\n'
    assert problems(head + '    "click>=8.1",\n]\n', found)
    assert problems(head + '    "click==8.5.1",\n]\n', found)  # pinned, but the comment does not say why
    assert problems(head + '    "click==8.5.1",  # drill patches click._textwrap\n]\n', found) == []
    assert problems(head + '    # drill patches click._textwrap\n    "click==8.5.1",\n]\n', found) == []
