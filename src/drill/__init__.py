"""drill: a terminal app that drills a learner for Transformer interviews."""

__version__ = "0.1.0"
