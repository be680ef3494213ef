"""Widgets whose resize doesn't ask for a second layout pass.

After a layout, Textual gives each resized widget its new virtual size through a reactive that requests another
full layout. For the study screen's leaves and plain containers (their virtual size is what that layout just
computed) the second pass changes nothing but costs a reflow, a repaint and a frame (~17 ms) on every reveal and
grade whose text has another height. ``layout=False`` is what Textual itself passes for widgets a scroll exposes;
scrollbars are still updated. (textual is pinned exactly; `_size_updated` is its hook for this.)
"""

from __future__ import annotations

from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.widgets import Static


class SettledStatic(Static):
    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledVertical(Vertical):
    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledScroll(VerticalScroll):
    """Keep its scrollbar's column reserved (``scrollbar-gutter: stable``), or a change in whether the
    scrollbar shows still asks for a layout of its own."""

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
