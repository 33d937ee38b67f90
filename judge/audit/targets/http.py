"""A SandboxFusion-compatible HTTP endpoint: SandboxFusion itself, `judge serve`, or any service
with SandboxFusion's `/run_code`. The probe is sent as Python code; "1 s CPU, 256 MB" is
`run_timeout=1, memory_limit_MB=256` (SandboxFusion's run_timeout is its one time limit: a wall
clock there, CPU and wall in `judge serve`); the output and process limits are the server's own."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from judge.audit.targets.base import NO_OPTION, Answer, Said, Target, TargetLimits, clock, is_local_url

# What the audit keeps of a program's stdout: its head and its tail (progress lines and "done").
KEEP_BYTES = 32 * 1024
MiB = 1024 * 1024


def cut(text: str) -> str:
    if len(text) <= 2 * KEEP_BYTES:
        return text
    return text[:KEEP_BYTES] + "\n" + text[-KEEP_BYTES:]


def run_code_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/run_code") else url + "/run_code"


@dataclass
class HttpTarget(Target):
    url: str = ""
    language: str = "python"
    timeout_margin_s: float = 60.0     # beyond run_timeout, before the audit gives up on an answer

    def __post_init__(self) -> None:
        self.url = run_code_url(self.url)
        self.kind = self.kind or "sandboxfusion"
        self.local = is_local_url(self.url)

    def say(self, limits: TargetLimits) -> Said:
        asked = self.asked(limits)
        seconds = f"run_timeout={asked.cpu_s:g}"
        return Said({"cpu": seconds, "wall": f"{seconds} (the same option)",
                     "memory": f"memory_limit_MB={asked.memory_mb}",
                     "output": f"{NO_OPTION} (the server's own)",
                     "processes": f"{NO_OPTION} (the server's own)"}, wall_s=asked.cpu_s)

    def request(self, source: str, limits: TargetLimits) -> dict:
        asked = self.asked(limits)
        return {"code": source, "language": self.language, "run_timeout": asked.cpu_s,
                "compile_timeout": 10, "memory_limit_MB": asked.memory_mb}

    def run(self, source: str, argv: list[str], limits: TargetLimits) -> Answer:
        code = source.replace("ARGS = None", f"ARGS = {argv!r}", 1)
        body = json.dumps(self.request(code, limits)).encode()
        started = clock()
        try:
            request = urllib.request.Request(self.url, data=body,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=limits.wall_s * 4 + self.timeout_margin_s) as reply:
                data = json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode(errors="replace")
            return Answer(False, f"HTTP {exc.code}", "", 0, request_s=clock() - started,
                          error=f"HTTP {exc.code}: {detail}")
        except (OSError, ValueError) as exc:
            return Answer(False, "no answer", "", 0, request_s=clock() - started,
                          error=f"{type(exc).__name__}: {exc}")
        elapsed = clock() - started
        run = data.get("run_result") or {}
        stdout = run.get("stdout") or ""
        status = str(data.get("status"))
        if run.get("status") and run.get("status") != "Finished":
            status += f"/{run['status']}"
        elif run.get("return_code") not in (None, 0):
            status += f"/exit {run['return_code']}"
        memory_kb = run.get("memory_kb")
        return Answer(completed=data.get("status") == "Success", status=status, stdout=cut(stdout),
                      stdout_bytes=len(stdout.encode()), stderr=cut(run.get("stderr") or "")[:2000],
                      cpu_s=run.get("cpu_time"),
                      memory_mb=None if memory_kb is None else memory_kb / 1024,
                      wall_s=run.get("execution_time"), request_s=elapsed,
                      error="" if data.get("status") != "SandboxError" else str(data.get("message")))
