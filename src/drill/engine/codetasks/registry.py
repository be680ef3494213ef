"""Every code task, by name (the CLI's TASK argument) in the chapter's order."""

from __future__ import annotations

from drill.engine.codetasks import basic, blocks, heads
from drill.engine.codetasks.model import Task
from drill.errors import InputError
from drill.i18n import _

TASKS: dict[str, Task] = {
    t.name: t for t in sorted(basic.TASKS + heads.TASKS + blocks.TASKS, key=lambda t: t.number)
}


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        message = _("no code task named {name!r}; tasks: {tasks}")
        raise InputError(message.format(name=name, tasks=", ".join(TASKS))) from None
