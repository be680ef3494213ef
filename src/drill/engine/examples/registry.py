"""The named examples: each is registered once, by `@example(name, section=..., summary=...)` on its builder.

`EXAMPLES` keeps registration order (the order of `drill calc --list`); `build_example` stamps the example's
name and section on the trace it builds, so a builder never repeats them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from drill.engine.trace import Trace
from drill.errors import InputError
from drill.i18n import _


@dataclass(frozen=True)
class Example:
    name: str
    section: str  # where the chapter teaches it, e.g. "7.12"
    summary: str  # one line for `drill calc --list`
    build: Callable[[], Trace]


EXAMPLES: dict[str, Example] = {}


def example(name: str, *, section: str, summary: str) -> Callable[[Callable[[], Trace]], Callable[[], Trace]]:
    """Register the decorated builder as the example ``name``."""

    def register(build: Callable[[], Trace]) -> Callable[[], Trace]:
        if name in EXAMPLES:
            raise ValueError(f"example {name!r} is registered twice")
        EXAMPLES[name] = Example(name, section, summary, build)
        return build

    return register


def build_example(name: str) -> Trace:
    """The named example's trace; InputError for an unknown name (listing the known ones)."""
    found = EXAMPLES.get(name)
    if found is None:
        message = _("unknown example {name!r}; choose one of: {names}")
        raise InputError(message.format(name=name, names=", ".join(EXAMPLES)))
    return replace(found.build(), example=name, section=found.section)
