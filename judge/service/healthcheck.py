"""The container's health check: `python -m judge.service.healthcheck [URL]` exits 0 when the
server's /readyz says ready (URL default http://127.0.0.1:$JUDGE_SERVE_PORT, port 8080), 1
otherwise. Standard library and judge.config only, so the image needs no curl."""
from __future__ import annotations

import sys
import urllib.error
import urllib.request

from judge import config


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else f"http://127.0.0.1:{config.current().serve_port}"
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/readyz", timeout=5) as response:
            ready = response.status == 200
    except (urllib.error.URLError, OSError) as exc:
        print(f"judge serve is not ready at {url}: {exc}", file=sys.stderr)
        return 1
    return 0 if ready else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
