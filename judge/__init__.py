"""judge: a sandboxed judge for competitive-programming code."""
import logging

# A library logs; the application decides where to (`judge --verbose`, or the embedder's own
# logging configuration). Without one, nothing reaches stderr.
logging.getLogger("judge").addHandler(logging.NullHandler())

__version__ = "0.2.0"


class JudgeError(Exception):
    """A user-facing error: bad usage or bad input. The CLI prints it as one line and exits 2."""
