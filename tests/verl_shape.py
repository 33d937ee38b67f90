"""verl's sandbox reward (`verl/utils/reward_score/sandbox_fusion`) as it calls a judge, written
from its description so that neither the suite nor `make bench` needs verl: one `/run_code` per
test, a wait of `compile_timeout + run_timeout + 10 s` for each answer, only a 504 retried (3
tries, 1 s then 2 s apart), anything else that is not a verdict a failed test. A sample scores
1.0 when every test passed, else 0.0. Programs that double their input, in each way a sample
ends: right, wrong, spinning past its limit (tle), crashing (re)."""
from __future__ import annotations

import time

import requests

VERL_TRIES, VERL_API_TIMEOUT_S = 3, 10
PROGRAMS = {
    ("python", "right"): "print(int(input()) * 2)",
    ("python", "wrong"): "print(int(input()) * 2 + 1)",
    ("python", "tle"): "while True:\n    pass",
    ("python", "re"): "raise SystemExit(3)",
    ("cpp", "right"): '#include <cstdio>\nint main(){int n;scanf("%d",&n);printf("%d\\n",2*n);}',
    ("cpp", "wrong"): '#include <cstdio>\nint main(){int n;scanf("%d",&n);printf("%d\\n",2*n+1);}',
    ("cpp", "tle"): "int main(){volatile long x=0;for(;;)x++;}",
    ("cpp", "re"): "#include <cstdlib>\nint main(){std::abort();}",
}


def verl_test(url: str, code: str, language: str, stdin: str, expected: str,
              timeout_s: int) -> str:
    """One test as verl's call_sandbox_api and _process_single_case treat it."""
    body = {"compile_timeout": timeout_s, "run_timeout": timeout_s, "code": code, "stdin": stdin,
            "memory_limit_MB": 1024, "language": language, "files": {}, "fetch_files": []}
    for attempt in range(VERL_TRIES):
        try:
            answer = requests.post(url, json=body, timeout=2 * timeout_s + VERL_API_TIMEOUT_S)
        except requests.RequestException:
            return "api_error"
        if answer.status_code == 504:
            if attempt < VERL_TRIES - 1:
                time.sleep(attempt + 1)
            continue
        if answer.status_code != 200:
            return "api_error"
        status = answer.json()["status"]
        if status == "SandboxError":
            return "sandbox_error"
        if status == "Success":
            stdout = answer.json()["run_result"]["stdout"]
            return "passed" if stdout.rstrip("\n") == expected.rstrip("\n") else "failed"
        return "failed"
    return "api_error"


def verl_score(results: list[str]) -> float:
    return 1.0 if all(r == "passed" for r in results) else 0.0
