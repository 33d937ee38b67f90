"""What SandboxFusion's toolchains do that the ones here do not do by themselves, added to the
compatible profile (docs/languages.md): a failed Debug.Assert ends a C# program as in .NET's
Debug build."""
from __future__ import annotations

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

