"""The `datasets` library as every problem source uses it: imported once, quiet (no progress
bars or warnings drawn over the judge's own output on stderr), private (no "download count" request
to the network for a local file), a missing install a JudgeError."""
from __future__ import annotations

from judge import JudgeError


def import_datasets(what: str):
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - datasets is a dependency
        raise JudgeError(f"{what}: the `datasets` library is needed to load problems ({exc})") from None
    # Loading a local parquet or jsonl file would otherwise send a HEAD request to the datasets
    # library's S3 bucket: a lookup that tells a third party what the judge loads, and a stall
    # of up to 3 s on a machine with no route out.
    datasets.config.HF_UPDATE_DOWNLOAD_COUNTS = False
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    return datasets


__all__ = ["import_datasets"]
