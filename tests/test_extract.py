import pytest

from judge.evaluate.extract import (
    extract_all,
    extract_code,
    extract_livecodebench,
    language_from_tag,
    take_code,
    wanted_language,
)
from judge.problems.rules import RULES


def test_last_block_wins_with_prose_around():
    text = (
        "Let me think.\n\n```python\nprint('draft')\n```\n\nThat is wrong; here is the fix:\n\n"
        "```cpp\n#include <cstdio>\nint main() { puts(\"ok\"); }\n```\n\nThis runs in O(1).\n"
    )
    code, tag = extract_code(text)
    assert tag == "cpp"
    assert code == '#include <cstdio>\nint main() { puts("ok"); }\n'
    assert [b.tag for b in extract_all(text)] == ["python", "cpp"]


@pytest.mark.parametrize("opening,closing,tag", [
    ("```cpp", "```", "cpp"), ("```c++", "```", "c++"), ("```Python", "```", "python"),
    ("```py", "```", "py"), ("```java", "```", "java"), ("```", "```", None),
    ("~~~python", "~~~", "python"), ("````cpp", "````", "cpp"), ("```cpp", "`````", "cpp"),
    ('```python title="sol.py"', "```", "python"), ("```{python}", "```", "python"),
    ("```cpp   ", "```   ", "cpp"),
])
def test_tags(opening, closing, tag):
    text = f"intro\n{opening}\nx = 1\n{closing}\noutro"
    block = extract_code(text)
    assert block is not None
    assert block.tag == tag and block.code == "x = 1\n"


def test_no_code_block_is_none():
    assert extract_code("") is None
    assert extract_code("I cannot solve this problem.") is None
    assert extract_code("Use `printf` and ``x``, inline only.") is None
    assert extract_code("```\n\n   \n```") is None                 # only an empty block


def test_unclosed_final_fence_runs_to_end():
    text = "Here:\n```java\npublic class Main {\n  public static void main(String[] a) {}\n}"
    code, tag = extract_code(text)
    assert tag == "java"
    assert code == "public class Main {\n  public static void main(String[] a) {}\n}\n"
    # A closed block followed by a truncated one: the truncated one is the last.
    text2 = "```py\nfirst()\n```\nthen\n```py\nsecond()\n"
    assert extract_code(text2).code == "second()\n"


def test_crlf_and_cr_normalised():
    text = "Answer:\r\n```cpp\r\nint main(){\r\n  return 0;\r\n}\r\n```\r\nDone.\r\n"
    code, tag = extract_code(text)
    assert code == "int main(){\n  return 0;\n}\n" and tag == "cpp"
    assert "\r" not in code


def test_indented_fence_strips_its_indentation():
    text = ("1. First step:\n\n    ```python\n    def f():\n        return 1\n    print(f())\n"
            "    ```\n2. Done")
    code, tag = extract_code(text)
    assert tag == "python"
    assert code == "def f():\n    return 1\nprint(f())\n"


def test_closing_fence_rules():
    # A closing fence must use the same character and at least as many of them.
    text = "````markdown\n```cpp\nint x;\n```\n````\n"
    code, tag = extract_code(text)
    assert tag == "markdown" and code == "```cpp\nint x;\n```\n"
    text2 = "~~~\na\n```\nb\n~~~\n"
    assert extract_code(text2).code == "a\n```\nb\n"
    # A line with text after the backticks does not close a block (it is code).
    text3 = "```\nx\n``` not a fence\ny\n```\n"
    assert extract_code(text3).code == "x\n``` not a fence\ny\n"


def test_inline_triple_backticks_are_not_fences():
    text = "Wrap code in ```cpp``` fences.\n```\ncode()\n```"
    assert extract_code(text).code == "code()\n"


def test_empty_last_block_is_skipped():
    text = "```python\nreal()\n```\nand\n```\n```\n"
    assert extract_code(text).code == "real()\n"


def test_think_section_and_final_answer():
    text = ("<think>\nmaybe\n```python\nwrong()\n```\n</think>\nFinal:\n```python\n"
            "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n```")
    assert extract_code(text).code.startswith("import sys\n")


@pytest.mark.parametrize("tag,lang", [
    ("cpp", "cpp"), ("c++", "cpp"), ("C++17", "cpp"), ("cxx", "cpp"), ("cc", "cpp"),
    ("python", "python"), ("py", "python"), ("Python3", "python"), ("java", "java"),
    ("c", "c"), ("rust", "rust"), (None, None), ("", None), ("text", None), ("markdown", None),
])
def test_language_from_tag(tag, lang):
    assert language_from_tag(tag) == lang


# ---------------------------------------------------------------- LiveCodeBench's own rule
# lcb_runner/utils/extraction_utils.py extract_code (any chat style): the lines between the last
# two lines containing ```; the answers below were recorded from that function.
LCB_EXTRACTION = [
    ("Here:\n```python\nprint(1)\n```\n", "print(1)"),
    ("```\nprint(2)\n```", "print(2)"),                                  # no tag: still Python
    ("```cpp\nint main(){}\n```\n", "int main(){}"),                     # the tag is ignored
    ("```python\nprint(1)\n```\ntext\n```python\nprint(2)\n```\n", "print(2)"),
    ("```python\nprint(1)\n```\nUse ```x``` like this\n", ""),           # prose with ``` counts
    ("```python\nprint(1)\n", ""),                                       # one fence: no code
    ("print(1)", ""),
    ("  ```py\n  print(3)\n  ```\n", "  print(3)"),                      # never dedented
    ("~~~python\nprint(4)\n~~~\n", ""),                                  # tildes are no fence
]


@pytest.mark.parametrize("completion,code", LCB_EXTRACTION)
def test_livecodebench_extraction_is_its_own_extract_code(completion, code):
    block = extract_livecodebench(completion)
    assert (block.code if block else "") == code


def test_each_benchmark_extracts_and_names_the_language_by_its_own_rule():
    untagged = "```\nprint(2)\n```"
    lcb, cf = RULES["livecodebench"], RULES["codeforces"]
    assert wanted_language(lcb, None, take_code(untagged, lcb).tag, None) == "python"
    assert wanted_language(cf, None, take_code(untagged, cf).tag, None) is None   # UNGRADABLE
    assert wanted_language(cf, None, None, "cpp") == "cpp"                        # --lang
    assert wanted_language(lcb, None, "cpp", None) == "python"    # LiveCodeBench ignores tags
    assert wanted_language(lcb, "java", "cpp", "cpp") == "java"   # the row's own language wins
