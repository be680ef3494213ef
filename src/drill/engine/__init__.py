"""The attention engine: numpy float64 maths as traces of named steps (see docs/architecture.md, "Engine").

This package's __init__ imports nothing heavy, so `drill.engine.catalog` stays importable without numpy.
"""
