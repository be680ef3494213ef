"""Records whose fields are declared once: rule, default and help in the dataclass itself.

A record is a frozen dataclass. Every field that comes from outside (a YAML content file, the TOML config, the
command line, the content cache) carries its `Rule` in the field's metadata, written with `declare`::

    @dataclass(frozen=True, kw_only=True)
    class Card:
        id: str = declare(Text(pattern=ITEM_ID))
        bank: int | None = declare(Integer(1, 999), default=None)

`read(Card, mapping, errors)` is the one reader: it refuses unknown keys, reports missing required fields and
checks each value by its rule; `errors` (an `Errors`) turns each problem into the caller's exception, so content
errors name the file, line and field and config errors the file, key and what is allowed. `dump(record)` gives
the plain values (for JSON or TOML) and `read(..., trusted=False)` takes them back through the same rules, so a
cache is re-validated, not trusted. Adding a field is one line in its dataclass (docs/architecture.md).

Imported at start-up (the content models and the config use it): standard library only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import MISSING
from functools import cache
from typing import Any

FieldPath = tuple  # a path below a record: ("options", "A"), ("steps", 2)


class Invalid(ValueError):
    """A value breaks its rule: ``problem`` at ``at`` (the path below the field: a list index, a mapping key)."""

    def __init__(self, problem: str, at: FieldPath = ()) -> None:
        super().__init__(problem)
        self.problem, self.at = problem, tuple(at)


class Rule:
    """What one field accepts. Subclasses override `check` (and `dump` / `parse` / `show` when needed)."""

    allowed: str = ""  # what is allowed, for messages and `drill config`

    def check(self, value: Any) -> Any:
        """A plain value (from YAML, TOML or JSON) -> the field's value; `Invalid` if it breaks the rule."""
        return value

    def dump(self, value: Any) -> Any:
        """The field's value -> a plain value that `check` accepts back."""
        return list(value) if isinstance(value, tuple) else value

    def parse(self, text: str) -> Any:
        """Command-line text -> the field's value."""
        return self.check(text)

    def show(self, value: Any) -> str:
        """The value as a person would type it."""
        return str(value)


@dataclasses.dataclass(frozen=True)
class Spec:
    """One declared field: its rule, the key it has in a file, and how it is filled when absent."""

    name: str
    key: str
    rule: Rule
    default: Any
    fill: Callable[[dict[str, Any]], Any] | None
    given: bool  # set by the code that builds the record (not read from a content or config file)
    help: str

    @property
    def required(self) -> bool:
        return self.default is MISSING and self.fill is None and not self.given


def declare(
    rule: Rule,
    *,
    default: Any = MISSING,
    key: str | None = None,
    fill: Callable[[dict[str, Any]], Any] | None = None,
    given: bool = False,
    help: str = "",
) -> Any:
    """A dataclass field read by `rule`.

    ``default``: the value when the key is absent or null (else the field is required); ``fill``: computes that
    value from the fields read before it instead; ``key``: its name in a file when it is not the field's name;
    ``given``: supplied by the builder (the pack a card belongs to), so not allowed in a file but checked when
    read back from a cache.
    """
    metadata = {"spec": (rule, key, fill, given, help)}
    if default is MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@cache
def specs(cls: type) -> tuple[Spec, ...]:
    """The declared fields of a record class, in declaration order."""
    out = []
    for f in dataclasses.fields(cls):
        if "spec" not in f.metadata:
            continue
        rule, key, fill, given, help_ = f.metadata["spec"]
        out.append(Spec(f.name, key or f.name, rule, f.default, fill, given, help_))
    return tuple(out)


class Errors:
    """Turns a reading problem into the caller's exception (returned; the reader raises it).

    Subclasses override `invalid`, and the others when their messages say more (content names the record).
    """

    def invalid(self, path: FieldPath, problem: str, spec: Spec | None, values: dict[str, Any]) -> Exception:
        raise NotImplementedError

    def not_mapping(self, value: Any) -> Exception:
        return self.invalid((), f"expected a mapping, got {type(value).__name__}", None, {})

    def unknown(self, key: Any, known: list[str]) -> Exception:
        return self.invalid((key,), f"unknown field {key!r}", None, {})

    def missing(self, spec: Spec, values: dict[str, Any]) -> Exception:
        return self.invalid((spec.key,), f"required field {spec.key!r} is missing", spec, values)


def read(
    cls: type,
    data: Any,
    errors: Errors,
    *,
    given: Mapping[str, Any] | None = None,
    extra: tuple[str, ...] = (),
    trusted: bool = True,
) -> Any:
    """Check ``data`` (a mapping) against ``cls``'s declarations and build the record.

    ``given``: the values of the ``given`` fields (when reading a file); ``extra``: other keys the mapping may
    hold (read by the caller); ``trusted=False``: the mapping is a dump (a cache), given fields included.
    A record class may define ``check_record(values)`` for rules across fields; it raises `Invalid` with a
    path from the record.
    """
    if not isinstance(data, dict):
        raise errors.not_mapping(data)
    fields = specs(cls)
    from_data = [s for s in fields if not (s.given and trusted)]
    known = [s.key for s in from_data] + list(extra)
    for key in data:
        if key not in known:
            raise errors.unknown(key, known)
    values: dict[str, Any] = {}
    for spec in fields:
        if spec.given and trusted:
            values[spec.name] = (given or {}).get(spec.name, spec.default)
            if values[spec.name] is MISSING:
                raise TypeError(f"{cls.__name__}.{spec.name} must be given")
            continue
        raw = data.get(spec.key)
        if raw is None:
            if spec.key not in data and spec.required:
                raise errors.missing(spec, values)
            if spec.default is MISSING and spec.fill is None:
                raise errors.invalid((spec.key,), "required field is empty", spec, values)
            values[spec.name] = spec.fill(values) if spec.fill else spec.default
            continue
        try:
            values[spec.name] = spec.rule.check(raw)
        except Invalid as err:
            raise errors.invalid((spec.key, *err.at), err.problem, spec, values) from None
    check_record = getattr(cls, "check_record", None)
    if check_record is not None:
        try:
            check_record(values)
        except Invalid as err:
            raise errors.invalid(err.at, err.problem, None, values) from None
    return cls(**values)


def dump(record: Any) -> dict[str, Any]:
    """The declared fields of ``record`` as plain values, by key (what `read(..., trusted=False)` takes back).

    A value equal to its field's default is written as None (read back as the default).
    """
    out = {}
    for spec in specs(type(record)):
        value = getattr(record, spec.name)
        out[spec.key] = (
            None if spec.default is not MISSING and value == spec.default else spec.rule.dump(value)
        )
    return out


__all__ = ["Errors", "Invalid", "Rule", "Spec", "declare", "dump", "read", "specs"]
