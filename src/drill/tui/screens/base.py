"""What every mode's screen (study, quiz, calc, interview) shares: the app's options, typed access to the
`DrillApp`, and help / quit from its ``BINDINGS``; and, for the screens that load in the background (quiz,
interview), the one loading worker."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from textual import work
from textual.screen import Screen

from drill.errors import DrillError
from drill.i18n import N_
from drill.tui.keys import show_help
from drill.tui.options import AppOptions

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from drill.content.models import Library
    from drill.store.api import Store
    from drill.tui.app import DrillApp

Plan = TypeVar("Plan")  # what a screen makes of the content alone, before the store opens
Setup = TypeVar("Setup")  # what it makes of the plan and the open store


class ModeScreen(Screen[None]):
    HELP_TITLE = N_("drill — keys")
    PALETTE_GROUP = N_("drill")

    def __init__(self, options: AppOptions) -> None:
        super().__init__()
        self.options = options

    @property
    def drill_app(self) -> DrillApp:
        return cast("DrillApp", self.app)  # a mode screen only ever runs in a DrillApp

    def action_help(self) -> None:
        show_help(self)

    def action_quit(self) -> None:
        self.app.exit()


@dataclass
class Loaded(Generic[Setup]):
    """What the loading worker hands to the screen: its setup and the store (closed by the screen if it owns
    it, i.e. opened it here rather than being given one)."""

    setup: Setup
    store: Store
    owns_store: bool


class LoadingScreen(ModeScreen, Generic[Plan, Setup]):
    """A mode screen that asks its first question from the content while a thread worker opens the store and
    syncs the content into it (`prepare`: the screen's own use of the store). `plan` makes what the content
    alone tells (it may refuse the options with a `DrillError` before any database opens; it runs before the
    first paint, so it does only what that paint must show),
    `planned` shows what it can of it, `complete` (in the worker) makes the rest before the store opens. A
    `DrillError` ends the app with its one line; a store opened here is closed when preparing fails. The screen
    gets the result in `ready`, on the UI thread.

    Call `start_loading()` from ``on_mount``: with the content in its cache (or given), the plan is made and
    shown there, so the first paint has the first question; without (a first start builds the content from the
    chapter, seconds), the shell paints first and the worker does it all. Either way the store's imports
    (sqlalchemy) come after the first paint."""

    PARTIAL_CONTENT = False  # `cached_content`: whether the plan is made from a partial read

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.store: Store | None = None
        self._owns_store = False

    if TYPE_CHECKING:  # what each loading screen defines

        def plan(self, library: Library) -> Plan: ...

        def prepare(self, plan: Plan, store: Store) -> Setup: ...

        def ready(self, setup: Setup) -> Awaitable[None] | None: ...

    async def start_loading(self) -> None:
        library = self.options.library
        try:
            if library is None:
                library = self.cached_content()
            if library is None:  # to be built: the shell first
                self.call_after_refresh(self.load)
                return
            plan = self.plan(library)
            if self.options.store is None:  # the store takes a while to open (sqlalchemy): show what it can
                shown = self.planned(plan)
                if inspect.isawaitable(shown):
                    await shown
        except DrillError as err:  # the options, or drill.toml (time limits)
            self.drill_app.fail(err)
            return
        self.call_after_refresh(self.load, (library, plan))

    def cached_content(self) -> Library | None:
        """The content from its cache (milliseconds; None when it is to be built). With ``PARTIAL_CONTENT`` (a
        screen whose plan needs less than every card) a `PartialLibrary` (drill.content.cache: packs, quizzes,
        errata, each card's keys), which `load` completes in the worker before the store syncs it."""
        from drill.content.loader import load_cached_content

        return load_cached_content(self.options.content_path, partial=self.PARTIAL_CONTENT)

    @work(thread=True, exclusive=True, group="load")
    def load(self, given: tuple[Library, Plan] | None = None) -> None:
        """The content and its plan (unless `start_loading` made them), the rest of the plan, the store."""
        try:
            loaded = self._load(given)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        self.app.call_from_thread(self._loaded, loaded)

    def _load(self, given: tuple[Library, Plan] | None) -> Loaded[Setup]:
        if given is not None:
            library, plan = given
            library = self._completed(library)
        else:  # content to be built, behind the shell
            from drill.content import load_content

            library = load_content(self.options.content_path)  # (given content is planned in start_loading)
            plan = self.plan(library)
            if self.options.store is None:
                self.app.call_from_thread(self.planned, plan)
        plan = self.complete(plan)
        store, owns = self.options.store, False
        if store is None:
            from drill.store import open_store

            store, owns = open_store(self.options.db_url, self.options.user), True
        try:
            store.sync_content(library)
            return Loaded(self.prepare(plan, store), store, owns)
        except BaseException:
            if owns:
                store.close()
            raise

    def _completed(self, library: Library) -> Library:
        """Every record of a partial read (`cached_content`); the YAML when the cache refuses one."""
        from drill.content.cache import PartialLibrary

        if not isinstance(library, PartialLibrary):
            return library
        from drill.content import load_content
        from drill.content.loader import completed

        return completed(library) or load_content(self.options.content_path)

    def complete(self, plan: Plan) -> Plan:
        """In the worker, after `planned` and before the store opens: what the plan still needs that takes a
        while (the quiz's generated questions); a screen shows it itself (``app.call_from_thread``)."""
        return plan

    def planned(self, plan: Plan) -> Awaitable[None] | None:
        """On the UI thread, once the plan is made and before the store opens: a screen that can show its first
        question from the plan alone does it here (the quiz, the interview); `ready` follows when the store is
        open."""
        return None

    async def _loaded(self, loaded: Loaded[Setup]) -> None:
        self.store, self._owns_store = loaded.store, loaded.owns_store
        result = self.ready(loaded.setup)
        if inspect.isawaitable(result):
            await result

    def close_store(self) -> None:
        """Close the store if this screen opened it (call from ``on_unmount``)."""
        if self.store is not None and self._owns_store:
            self.store.close()
