"""judge: a sandboxed judge for competitive-programming code."""

__version__ = "0.1.0"


class JudgeError(Exception):
    """A user-facing error: bad usage or bad input. The CLI prints it as one line and exits 2."""
