"""What SandboxFusion's toolchains do that the ones here do not do by themselves, added to the
compatible profile's C# and go_test (docs/languages.md): a failed Debug.Assert ends a C# program
as in .NET's Debug build, and a test file's run ends with `go test`'s summary line."""
from __future__ import annotations

import re

# -- C#: SandboxFusion's `dotnet run` is a Debug build ------------------------------------------
# There DEBUG and TRACE are defined, and a failed Debug.Assert or Trace.Assert calls
# Environment.FailFast: the message and the stack on stderr, then the process aborts, which
# `dotnet run` reports as exit status 134. It is no exception, so no catch stops it; a program
# that removes the trace listeners (Trace.Listeners.Clear()) or turns the default one's
# AssertUiEnabled off silences its asserts, under .NET as here. Mono's DefaultTraceListener
# never ends the program (it writes the failure where nobody reads it), so the program's
# configuration file puts this one in its place, under the same name: a subclass of it that ends
# the process with _exit(134), running no exit hook, as FailFast runs none.
CSHARP_ASSERT_LISTENER = """
namespace JudgeCompatibleProfile
{
    public sealed class AssertListener : global::System.Diagnostics.DefaultTraceListener
    {
        [global::System.Runtime.InteropServices.DllImport("libc", EntryPoint = "_exit")]
        private static extern void Terminate(int status);

        public AssertListener() { AssertUiEnabled = true; }

        public override void Fail(string message, string detailMessage)
        {
            if (!AssertUiEnabled) { base.Fail(message, detailMessage); return; }
            var report = new global::System.Text.StringBuilder();
            report.Append("Process terminated. Assertion failed.\\n");
            foreach (var part in new[] { message, detailMessage })
                if (part != null && part.Trim().Length > 0)
                    report.Append(part.Trim()).Append('\\n');
            report.Append(new global::System.Diagnostics.StackTrace(1, true)).Append('\\n');
            var stderr = global::System.Console.Error;
            try { stderr.Write(report.ToString()); stderr.Flush(); } catch { }
            Terminate(134);
        }
    }
}
"""
# Read by Mono beside code.exe the first time the program reaches Trace's listeners (a failed
# assert, a Debug.WriteLine), never at start-up.
CSHARP_CONFIG = """<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <system.diagnostics>
    <trace>
      <listeners>
        <remove name="Default" />
        <add name="Default" type="JudgeCompatibleProfile.AssertListener, code" />
      </listeners>
    </trace>
  </system.diagnostics>
</configuration>
"""


def with_assert_listener(source: str) -> str:
    """The program with the listener after it: appended, so every line of the program keeps its
    number in the compiler's messages."""
    return source + "\n" + CSHARP_ASSERT_LISTENER


# -- go_test: `go test file_test.go`'s summary line --------------------------------------------
# `go test` runs the test binary and prints, after it, `ok  \tcommand-line-arguments\t0.004s`
# when it passed (and none of its output), or its output then `FAIL\tcommand-line-arguments\t...`
# and `FAIL`, exiting 1, when it did not; the binary's stderr goes to go test's stdout. A run
# here cannot start the binary as a child (no fork without a cgroup; go test's build cannot
# run in the run's sandbox), so the file gets a TestMain that does the same in the binary:
# stderr joined to stdout, the tests run, the summary printed. The difference: the binary's own
# `PASS` (and what the tests printed) stays before the `ok` line; and a test that panics or
# calls os.Exit ends the binary before the summary (exit status 2 with the panic, where go test
# adds its FAIL lines and exits 1).
GO_IMPORTS = ('; import (judge_fmt "fmt"; judge_os "os"; judge_syscall "syscall"; '
              'judge_testing "testing"; judge_time "time")')
GO_TEST_MAIN = """
func TestMain(m *judge_testing.M) {
	_ = judge_syscall.Dup3(1, 2, 0)
	start := judge_time.Now()
	code := m.Run()
	elapsed := judge_time.Since(start).Seconds()
	if code == 0 {
		judge_fmt.Printf("ok  \\tcommand-line-arguments\\t%.3fs\\n", elapsed)
	} else {
		judge_fmt.Printf("FAIL\\tcommand-line-arguments\\t%.3fs\\nFAIL\\n", elapsed)
		code = 1
	}
	judge_os.Exit(code)
}
"""
# What may come before a Go file's package clause: a byte-order mark, spaces, comments.
_GO_PREAMBLE = re.compile(r"\ufeff?(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_GO_PACKAGE = re.compile(r"package\s+\w+")
_GO_TEST_MAIN = re.compile(r"^func\s+TestMain\s*\(", re.M)


def with_go_test_summary(source: str) -> str:
    """The test file with the TestMain above: its imports on the package clause's line and the
    function after the file, so every line keeps its number in messages and stack traces. A file
    with its own TestMain (a second would not compile) or no package clause (which does not
    compile anyway) is left as it is."""
    preamble = _GO_PREAMBLE.match(source)
    clause = _GO_PACKAGE.match(source, preamble.end() if preamble else 0)
    if clause is None or _GO_TEST_MAIN.search(source):
        return source
    end = clause.end()
    return source[:end] + GO_IMPORTS + source[end:] + "\n" + GO_TEST_MAIN
