"""Widgets shared by drill's screens."""
