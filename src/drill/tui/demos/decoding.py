"""train-vs-inference (7.22): "run training" lights every position in one forward pass; "run inference"
generates the chapter's I / love / AI one token per pass (enter), counting forward passes, with the KV cache
on or off (drill.engine.demos.generation_passes)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo

# The chapter's example sequence (7.22), word for word.
SEQUENCE = ("<BOS>", "I", "love", "AI")
MODES = (N_("run training"), N_("run inference"))


class TrainVsInference(Demo):
    name = "train-vs-inference"
    enter_control = "generated"

    def make_controls(self) -> list[Control]:
        return [
            Control("mode", N_("Mode"), 0, 1, choices=tuple(_(m) for m in MODES)),
            Control("generated", N_("generated"), 0, len(SEQUENCE) - 1),
            Control("cache", N_("KV cache"), 0, 1, choices=(_("off"), _("on")), value=1),
        ]

    def setting(self) -> tuple[str, int, bool]:
        mode = ("train", "infer")[self.control("mode").index]
        return mode, int(self.control("generated").value), bool(self.control("cache").index)

    def numbers(self) -> dict:
        from drill.engine.demos import generation_passes

        mode, generated, cache = self.setting()
        return generation_passes(1, len(SEQUENCE) - 1, mode, generated, cache)

    def view(self) -> RenderableType:
        mode, generated, cache = self.setting()
        n = self.numbers()
        tokens = Text()
        lit = len(SEQUENCE) if mode == "train" else 1 + generated
        for i, token in enumerate(SEQUENCE):
            if i:
                tokens.append("  ")
            tokens.append(f" {token} ", style="bold reverse" if i < lit else "dim")
        lines = [tokens, Text("")]
        if mode == "train":
            lines.append(
                Text(_("teacher forcing: the causal mask lets one forward pass predict every position"))
            )
        else:
            lines.append(Text(_("enter generates the next token: one forward pass each")))
        lines.append(Text(_("forward passes: {n}").format(n=int(n["passes"])), style="bold"))
        if mode == "infer":
            per_pass = ", ".join(str(int(p)) for p in n["positions"]) or "—"
            lines.append(Text(_("positions computed per pass: {list}").format(list=per_pass)))
            lines.append(
                Text(
                    _("K/V rows computed in all: {n} (KV cache {state})").format(
                        n=int(n["kv_rows"]), state=_("on") if cache else _("off")
                    )
                )
            )
        return Group(*lines)
