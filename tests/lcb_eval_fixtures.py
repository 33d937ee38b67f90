"""A LiveCodeBench-schema set for `judge eval`: three problems (two stdin, one LeetCode-style)
and completions written the way chat models write them, with the answer LiveCodeBench's own
pipeline gives each (lcb_runner/utils/extraction_utils.py extract_code with a chat style, then
lcb_runner/evaluation/compute_code_generation_metrics.py check_correctness, timeout 6), recorded
by running that pipeline on these rows."""
from __future__ import annotations

import json

STDIN_SUM = {
    "question_id": "abc900_a", "question_title": "Sum", "question_content": "Print the sum.",
    "platform": "atcoder", "contest_id": "abc900", "contest_date": "2024-09-01T00:00:00",
    "starter_code": "", "difficulty": "easy", "metadata": "{}",
    "public_test_cases": json.dumps([{"input": "3\n1 2 3\n", "output": "6\n",
                                      "testtype": "stdin"}]),
    "private_test_cases": json.dumps([{"input": "2\n10 -4\n", "output": "6\n",
                                       "testtype": "stdin"},
                                      {"input": "1\n7\n", "output": "7\n", "testtype": "stdin"}]),
}
STDIN_PREFIX_MAX = {
    "question_id": "abc900_b", "question_title": "Prefix maxima",
    "question_content": "Print the running maximum of the sequence, space separated.",
    "platform": "atcoder", "contest_id": "abc900", "contest_date": "2024-09-01T00:00:00",
    "starter_code": "", "difficulty": "medium", "metadata": "{}",
    "public_test_cases": json.dumps([{"input": "5\n1 3 2 5 4\n", "output": "1 3 3 5 5\n",
                                      "testtype": "stdin"}]),
    "private_test_cases": json.dumps([{"input": "3\n3 2 1\n", "output": "3 3 3\n",
                                       "testtype": "stdin"}]),
}
FUNCTIONAL_TWO_SUM = {
    "question_id": "3999", "question_title": "Two sum", "question_content": "Return indices.",
    "platform": "leetcode", "contest_id": "weekly-contest-900",
    "contest_date": "2024-09-02T00:00:00", "difficulty": "easy",
    "starter_code": "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> "
                    "List[int]:\n        ",
    "metadata": json.dumps({"func_name": "twoSum"}),
    "public_test_cases": json.dumps([{"input": "[2, 7, 11, 15]\n9", "output": "[0, 1]",
                                      "testtype": "functional"}]),
    "private_test_cases": json.dumps([{"input": "[3, 2, 4]\n6", "output": "[1, 2]",
                                       "testtype": "functional"}]),
}
PROBLEMS = [STDIN_SUM, STDIN_PREFIX_MAX, FUNCTIONAL_TWO_SUM]


def chat(code: str, tag: str = "python", before: str = "Here is my solution.",
         after: str = "It runs in linear time.") -> str:
    return f"{before}\n\n```{tag}\n{code}```\n\n{after}\n"


# (question_id, completion, LiveCodeBench passes)
GENERATIONS = [
    ("abc900_a", chat("n = int(input())\nprint(sum(map(int, input().split())))\n"), True),
    ("abc900_a", chat("input()\nprint(list(accumulate(map(int, input().split())))[-1])\n"),
     True),                                                    # the prelude imports accumulate
    ("abc900_a", chat("import sys\ndata = sys.stdin.read().split()\n"
                      "print(sum(map(int, data[1:])))\n", tag=""), True),     # untagged fence
    ("abc900_a", chat("total = 0\ndef add(v):\n    global total\n    total += v\ninput()\n"
                      "for v in input().split():\n    add(int(v))\nprint(total)\n"), False),
    ("abc900_a", chat("import numpy as np\ninput()\n"
                      "print(int(np.array(input().split(), dtype=np.int64).sum()))\n"), True),
    ("abc900_a", chat("data = open(0).read().split()\nprint(sum(map(int, data[1:])))\n"),
     False),                                                   # the worker's stdin is empty
    ("abc900_a", chat("n = int(input())\nprint(sum(map(int, input().split())))\n",
                      after="Use it as ```python main.py``` please."), False),   # LCB takes ""
    ("abc900_b", chat("def main():\n    input()\n    best = None\n    out = []\n"
                      "    for v in map(int, input().split()):\n"
                      "        best = v if best is None else max(best, v)\n"
                      "        out.append(best)\n    print(*out)\n\n"
                      "if __name__ == '__main__':\n    main()\n"), True),
    ("abc900_b", chat("import sys\nfor line in sys.stdin:\n    pass\nprint(1)\n"), False),
    ("abc900_b", chat("input()\nprint(*accumulate(map(int, input().split()), max))\n"
                      "import sys\nsys.exit(1)\n"), True),     # SystemExit ends the call
    ("abc900_b", "I think the answer is to keep the maximum.", False),          # no code
    ("3999", chat("class Solution:\n    def twoSum(self, nums: List[int], target: int) -> "
                  "List[int]:\n        seen = {}\n        for i, v in enumerate(nums):\n"
                  "            if target - v in seen:\n                return [seen[target - v], i]"
                  "\n            seen[v] = i\n"), True),
    ("3999", chat("class Solution:\n    def twoSum(self, nums, target):\n"
                  "        return (0, 1)\n"), False),           # a tuple: right on test 1 only
    ("3999", chat("class Solution:\n    def twoSum(self, nums, target):\n"
                  "        for i in range(len(nums)):\n            for j in range(i):\n"
                  "                if nums[i] + nums[j] == target:\n"
                  "                    return (j, i)\n"), True),   # outer tuple -> list
]
