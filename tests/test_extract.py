import pytest

from judge.evaluate.extract import extract_all, extract_code, language_from_tag


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
