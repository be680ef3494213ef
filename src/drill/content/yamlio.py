"""Safe, strict YAML reading that remembers where every value came from.

Only the YAML core types are accepted (strings, numbers, booleans, null, lists, mappings). Any other tag
(``!!python/object/apply:…``, ``!custom``) is rejected before anything is constructed, so nothing is ever
executed. Duplicate mapping keys, aliases (``*name``: no use in content, and the door to "billion laughs"),
merge keys, non-UTF-8 bytes, empty files and control characters other than newline and tab are errors that
name the file, the line and the field.

The node tree is composed by libyaml when available (``CSafeLoader``) and turned into plain Python values by a
small walker here, which records ``path -> line`` for the validator's messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from drill.content import control
from drill.content.latex import too_deep
from drill.errors import ContentError

try:  # libyaml parses ~10x faster than the pure-Python parser
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader


Path_ = tuple  # a path into the document: ("cards", 3, "answer")
MAX_DEPTH = 50  # content nests 4 levels deep; this bounds the walker's recursion on hostile input
# Size caps, so that a hostile or mistaken file is a message, not a stalled study session or a MemoryError:
MAX_FILE_BYTES = (
    10 * 2**20
)  # one content file (the shipped questions.yaml: ~53 KB); refused before reading it whole
MAX_FIELD_CHARS = 100_000  # one text field (the chapter itself is ~40,000 characters)

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {
    _STR,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


def format_path(path: Path_) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


@dataclass
class Document:
    """A parsed YAML file: its value and the 1-based line of every key and value, by path."""

    file: Path
    data: object
    value_lines: dict = field(default_factory=dict)
    key_lines: dict = field(default_factory=dict)

    def line(self, path: Path_) -> int:
        """The line of the key naming ``path`` if there is one, else of its value, else of the nearest parent."""
        path = tuple(path)
        while True:
            if path in self.key_lines:
                return self.key_lines[path]
            if path in self.value_lines:
                return self.value_lines[path]
            if not path:
                return 1
            path = path[:-1]

    def error(self, path: Path_, problem: str, *, line: int | None = None) -> ContentError:
        where = format_path(tuple(path))
        return ContentError(f"{self.file}:{line or self.line(path)}: {where}: {problem}")


def _file_error(file: Path, line: int | None, problem: str) -> ContentError:
    return ContentError(f"{file}:{line}: {problem}" if line else f"{file}: {problem}")


def _decode(file: Path, raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise _file_error(
            file, line, f"column {col}: not valid UTF-8 (byte 0x{raw[err.start]:02x}); save the file as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")


def read_yaml(file: str | Path) -> Document:
    """Read, decode, parse and convert one YAML file; raise ContentError naming file, line and field."""
    file = Path(file)
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)  # never more: a 8 GB file must not be read whole
    except OSError as err:
        raise _file_error(file, None, f"cannot read: {err.strerror or err}") from None
    except MemoryError:  # pragma: no cover - MAX_FILE_BYTES is far below any machine's memory
        raise _file_error(file, None, "out of memory while reading it") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _file_error(
            file,
            None,
            f"larger than {MAX_FILE_BYTES // 2**20} MB, the limit for a content file; split the pack",
        )
    return parse_yaml(_decode(file, raw), file)


def parse_yaml(text: str, file: Path) -> Document:
    bad = control.find_in_file(text)
    if bad:
        raise _control_char_error(text, file, bad.start())
    node = _compose(text, file)
    if node is None:
        raise _file_error(file, None, "file is empty (no YAML document)")
    doc = Document(file, None)
    doc.data = _Walker(doc).convert(node, ())
    return doc


def _compose(text: str, file: Path):
    loader = _BaseLoader(text)
    try:
        return loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = " ".join(p for p in (err.context, err.problem) if p)
        line = mark.line + 1 if mark else None
        if mark is not None:
            problem += f" (column {mark.column + 1})"
        raise _file_error(file, line, f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as err:  # reader errors carry no mark of the MarkedYAMLError kind
        raise _file_error(file, None, f"YAML error: {err}") from None
    finally:
        loader.dispose()


def _control_char_error(text: str, file: Path, offset: int) -> ContentError:
    """Name the line and, when the rest of the file parses, the field holding a raw control character."""
    line = text.count("\n", 0, offset) + 1
    what = f"control character {control.describe(text[offset])} is not allowed (only newline and tab are)"
    try:
        node = _BaseLoader(control.blank_in_file(text)).get_single_node()
    except yaml.YAMLError:
        node = None
    path = _path_at(node, offset, ()) if node is not None else None
    if path is not None:
        return ContentError(f"{file}:{line}: {format_path(path)}: {what}")
    return _file_error(file, line, what)


def _path_at(node, offset: int, path: Path_):
    """The path of the deepest node whose source span contains ``offset``."""
    if len(path) > MAX_DEPTH:
        return path
    if not (node.start_mark.index <= offset < max(node.end_mark.index, node.start_mark.index + 1)):
        return None
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
            for child in (value_node, key_node):
                found = _path_at(child, offset, path + (key,))
                if found is not None:
                    return found
    elif isinstance(node, yaml.SequenceNode):
        for i, child in enumerate(node.value):
            found = _path_at(child, offset, path + (i,))
            if found is not None:
                return found
    return path


class _Walker:
    """Node tree -> plain Python values, recording lines and refusing everything that is not plain data."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.seen: set[int] = set()
        self.constructor = _BaseLoader("")  # only its scalar constructors are used

    def fail(self, node, path: Path_, problem: str) -> ContentError:
        return self.doc.error(path, problem, line=node.start_mark.line + 1)

    def convert(self, node, path: Path_):
        self.doc.value_lines[path] = node.start_mark.line + 1
        if len(path) > MAX_DEPTH:
            raise self.fail(node, path[:3] + ("…",), f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.seen:
            raise self.fail(node, path, "YAML aliases (*name) are not allowed in content")
        self.seen.add(id(node))
        if node.tag not in (_SEQ, _MAP):
            raise self.fail(node, path, f"YAML tag {node.tag!r} is not allowed (plain data only)")
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(child, path + (i,)) for i, child in enumerate(node.value)]
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, path, "mapping keys must be plain scalars (no merge keys)")
            key = self.scalar(key_node, path)
            if isinstance(key, float | bool) or key is None:
                raise self.fail(key_node, path, f"mapping key {key_node.value!r} must be a name or a number")
            if key in out:
                first = self.doc.key_lines[path + (key,)]
                raise self.fail(key_node, path + (key,), f"duplicate key {key!r} (first at line {first})")
            self.doc.key_lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = self.convert(value_node, path + (key,))
        return out

    def scalar(self, node, path: Path_):
        """A string (free of control characters), int, float, bool or None; any other tag is refused."""
        tag = node.tag
        if tag == _STR:
            bad = control.find(node.value)
            if bad:
                problem = f"control character {control.describe(bad.group())} is not allowed (only newline and tab are)"
                raise self.fail(node, path, problem)
            if len(node.value) > MAX_FIELD_CHARS:
                problem = (
                    f"{len(node.value):,} characters is over the limit of {MAX_FIELD_CHARS:,} for one field"
                )
                raise self.fail(node, path, problem)
            deep = too_deep(node.value)
            if deep:
                raise self.fail(node, path, deep)
            return node.value
        if tag in _SCALAR_TAGS:
            try:
                return self.constructor.yaml_constructors[tag](self.constructor, node)
            except ValueError:  # Python's int-from-text limit (4,300 digits) and the like
                shown = node.value if len(node.value) <= 20 else node.value[:12] + "…"
                raise self.fail(
                    node, path, f"the number {shown} ({len(node.value):,} characters) is too long"
                ) from None
        if tag == "tag:yaml.org,2002:timestamp":
            raise self.fail(node, path, f"{node.value!r} reads as a date; quote it to make it text")
        raise self.fail(node, path, f"YAML tag {tag!r} is not allowed (plain data only)")
