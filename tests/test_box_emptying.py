"""A tmpfs box is emptied between runs whatever the last run left in it
(docs/design/3-isolation.md §3.3): a chain of nested directories deeper than Python's recursion
limit, names with any bytes, links pointing out of the box (never followed), directories the program
made unreadable, a FIFO, files a lingering descriptor holds open. A box that cannot be emptied costs
the slot a restart before the next run, never that run's result."""
from __future__ import annotations

import os
import textwrap

import pytest

from conftest import run, scaled
from judge.sandbox import Limits, box_files

LIMITS = Limits(time_limit_ms=scaled(20_000))

NEST = textwrap.dedent("""
    import os, sys
    made = 0
    try:
        for _ in range({depth}):
            os.mkdir("d")
            os.chdir("d")
            made += 1
    except OSError as exc:
        pass
    print(made)
""")

LITTER = textwrap.dedent("""
    import os
    os.mkdir(b"odd\\x01\\xff\\n name")
    open(b"odd\\x01\\xff\\n name/f\\x80", "w").write("x")
    os.mkdir("locked")
    os.mkdir("locked/inner")
    open("locked/inner/file", "w").write("x")
    os.chmod("locked/inner", 0)
    os.chmod("locked", 0)
    print("ok")
""")


def _one_line(sb, code: str) -> str:
    result, out, err = run(sb, ["python3", "-c", code], LIMITS)
    assert result.status == "OK", (result, err)
    return out.strip()


@pytest.mark.parametrize("depth", [3000, 20000])
def test_a_deep_directory_chain_is_emptied_and_the_next_run_succeeds(make_sandbox, depth):
    sb = make_sandbox(box=None, box_tmpfs_mb=16, policy="python")
    made = int(_one_line(sb, NEST.format(depth=depth)))
    assert made >= min(depth, 4000)         # the box holds at most 4096 files
    box = sb.empty_box()
    assert os.listdir(box) == []
    assert _one_line(sb, "print('next')") == "next"


def test_litter_of_every_kind_is_emptied_and_links_are_not_followed(make_sandbox, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("kept")
    sb = make_sandbox(box=None, box_tmpfs_mb=16, policy="python")
    assert _one_line(sb, LITTER) == "ok"
    box = sb.box_fd
    assert box is not None
    # As if the program had made them (its policy refuses symlink and mknod):
    for target, name in ((str(outside), "host-link"), ("/etc", "etc-link"), ("/", "root-link"),
                         ("..", "up"), (str(outside / "keep"), "locked-out")):
        os.symlink(target, name, dir_fd=box)
    os.mkfifo("fifo", dir_fd=box)
    held = os.open("held", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=box)   # still open
    os.write(held, b"x" * 1000)
    try:
        sb.empty_box()
    finally:
        os.close(held)
    assert os.listdir(sb.box_fd) == []
    assert (outside / "keep").read_text() == "kept"
    assert os.path.isdir("/etc") and os.listdir("/etc")
    assert _one_line(sb, "print('next')") == "next"


def test_a_box_that_cannot_be_emptied_is_replaced_before_the_next_run(make_sandbox, monkeypatch):
    sb = make_sandbox(box=None, box_tmpfs_mb=16, policy="python")
    assert _one_line(sb, "open('left', 'w').write('x'); print('ok')") == "ok"

    def cannot(box: int) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(box_files, "empty", cannot)
    box = sb.empty_box()
    assert os.listdir(box) == []             # a new tmpfs: what was left is gone
    assert _one_line(sb, "import os; print(sorted(os.listdir('.')))") == "[]"
