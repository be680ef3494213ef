"""The question templates of drill.content.generated: one or two per chapter section.

Their words are drill's own, in the UI language: each text is an English msgid with named placeholders,
translated with ``drill.i18n._`` when the question is drawn (the language is chosen before a quiz is built);
the zh_CN catalog holds the Chinese.

A template draws inputs with ``rng`` and returns a `Draft`: the stem, the engine's right value and three
``(mistake id, value)`` pairs, each value the named mistake's ``evaluate`` on the same inputs. Right values come
from the engine (attention traces, drill.engine.ops, drill.engine.sizes); nothing is computed here but the
choice of inputs. Stems name the attention weights P (never A–D, the option letters) and give sizes as numbers.

By concern: `base` (Draft, Template, the registry, the option formats, the small worked inputs) and the
templates by the chapter's parts — `basics` (7.1 – 7.8), `scores` (7.9 – 7.12), `code` (7.13, formula ↔
code), `heads` (7.14 – 7.18), `training` (7.19 – 7.23). Each template names the kind of work its question asks
(`WORKS`: concept, shape, formula, hand), which sets its time limit in `drill quiz`. Importing the package registers every template, in
the chapter's order (the order a seed's questions are drawn in).
"""

from __future__ import annotations

import importlib

from drill.content.quizgen.base import TEMPLATES, WORKS, Draft, Template, template, work_of

for _part in (
    "basics",
    "scores",
    "code",
    "heads",
    "training",
):  # registers the templates in the chapter's order
    importlib.import_module(f"drill.content.quizgen.{_part}")

from drill.content.quizgen.heads import _mask_row  # noqa: E402 - the mask questions' reading of a row

__all__ = ["TEMPLATES", "WORKS", "Draft", "Template", "_mask_row", "template", "work_of"]
