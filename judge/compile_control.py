"""The control compile of each language: a known-good program, compiled in the same compile
sandbox with the same limits as a submission whose compile the sandbox stopped (RF, TLE, MLE,
OLE, out of room, SE). When the control fails too, the stop is the judge's (its policy, limits
or toolchain cannot build anything here), and the compile is SE with that evidence; when the
control compiles, the stop was the source's doing, and the compile is CE
(docs/design/5-compilation-and-checkers.md §5.2, §6.5).

Each program is the smallest that goes through the language's whole build (its compiler, its
standard library's headers or modules, its linker), so that it fails where any program would,
and costs little: the control runs only after a compile has already been stopped."""
from __future__ import annotations

from judge.languages import Language

_CPP = '#include <cstdio>\n\nint main() {\n    std::puts("ok");\n    return 0;\n}\n'
_C = '#include <stdio.h>\n\nint main(void) {\n    puts("ok");\n    return 0;\n}\n'
_PYTHON = 'print("ok")\n'
_JAVA = ('public class Main {\n    public static void main(String[] args) {\n'
         '        System.out.println("ok");\n    }\n}\n')

CONTROL_SOURCES: dict[str, str] = {
    "cpp": _CPP,
    "c": _C,
    "python": _PYTHON,
    "pypy3": _PYTHON,
    "java": _JAVA,
    "junit": ("import org.junit.jupiter.api.Test;\n"
              "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
              "public class MainTest {\n    @Test\n    void adds() {\n"
              "        assertEquals(2, 1 + 1);\n    }\n}\n"),
    "kotlin": 'fun main() {\n    println("ok")\n}\n',
    "scala": 'object Main {\n  def main(args: Array[String]): Unit = println("ok")\n}\n',
    "csharp": ('using System;\n\nclass Program {\n    static void Main() {\n'
               '        Console.WriteLine("ok");\n    }\n}\n'),
    "rust": 'fn main() {\n    println!("ok");\n}\n',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("ok")\n}\n',
    "go_test": ('package main\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n'
                '\tif 1+1 != 2 {\n\t\tt.Fatal("1+1")\n\t}\n}\n'),
    "typescript": 'const word: string = "ok";\nconsole.log(word);\n',
    "haskell": 'main :: IO ()\nmain = putStrLn "ok"\n',
    "ocaml": 'let () = print_endline "ok"\n',
    "pascal": "begin\n  writeln('ok');\nend.\n",
    "d": 'import std.stdio;\n\nvoid main() {\n    writeln("ok");\n}\n',
    "d_ut": "unittest {\n    assert(1 + 1 == 2);\n}\n\nvoid main() {}\n",
    "verilog": 'module tb;\n  initial begin\n    $display("ok");\n    $finish;\n  end\nendmodule\n',
}

# The judge's own builds under other names (a custom checker or interactor is "checker" or
# "interactor", compiled by g++ with testlib's flags): the control of their compiler.
_BY_COMPILER = {"g++": _CPP, "gcc": _C, "javac": _JAVA}


def control_source(language: Language) -> str | None:
    """The known-good program of `language`'s build; None for a build the judge has none for
    (then a stopped compile has no control, and stays the source's: CE)."""
    if language.compile is None:
        return None
    return CONTROL_SOURCES.get(language.name) or _BY_COMPILER.get(language.compile[0])


__all__ = ["CONTROL_SOURCES", "control_source"]
