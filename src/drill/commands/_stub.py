"""Used by subcommands that are not built yet: say so and exit 2, never pretend."""

from drill.errors import NotBuiltError


def not_built(name: str) -> None:
    raise NotBuiltError(f"`drill {name}` is not built yet")
