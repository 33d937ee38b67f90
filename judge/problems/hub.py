"""The `datasets` library as every problem source uses it: imported once, quiet (no progress
bars or warnings drawn over the judge's own output on stderr), a missing install a JudgeError."""
from __future__ import annotations

from judge import JudgeError


def import_datasets(what: str):
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - datasets is a dependency
        raise JudgeError(f"{what}: the `datasets` library is needed to load problems ({exc})") from None
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    return datasets


__all__ = ["import_datasets"]
