"""The modes' logic without textual: a study session (content + store + clock), a quiz run, a calc model.

Screens hold one of these and draw it; tests drive them directly.
"""
