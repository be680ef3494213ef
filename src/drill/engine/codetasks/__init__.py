"""`drill code` tasks: the learner writes a function, the engine grades it on hidden tests.

A `Task` names the function to write (``name``, its ``signature``), says what to compute in the chapter's
terms (``prompt``: drill's own words through the catalogs, Chinese or English; ``formula``: the chapter's
notation), gives ``starter`` code, a time ``budget_s``
for the timed mode and the reference solution (``solution()``, drill's own, in the style of the chapter's 7.13
code). ``cases(seed)`` builds the hidden tests: random shapes from the seed plus named edge cases, each tied to
the mistake (`drill.engine.mistakes`) it is there to catch; ``expected(*args)`` is the engine's answer.
Grading (`drill.engine.codetasks.grade`) compares a submission's outputs with it and names mistakes.

Pure numpy; no code from a content pack is ever executed (a pack can only name these tasks).
"""

from __future__ import annotations

from drill.engine.codetasks.model import Case, Output, Task
from drill.engine.codetasks.registry import TASKS, get_task

__all__ = ["Case", "Output", "Task", "TASKS", "get_task"]
