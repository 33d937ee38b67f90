"""Every language the judge runs, as data: one entry each (docs/languages.md explains the
fields, the time factors and how to add the next language). Commands are Codeforces' where
Codeforces has the language (the C++, Python and Java ones are the CF-Div2-Stepfun benchmark's
published commands), with SandboxFusion's differences in `sandboxfusion`."""
from __future__ import annotations

import json
import platform
import sys

from judge.languages.compatible import CSHARP_CONFIG, with_assert_listener, with_go_test_summary
from judge.languages.entry import java_class_name, scala_object_name
from judge.languages.profile import Family, Flavour, Language
from judge.languages.python_env import COMPATIBLE_ENVIRONMENT
from judge.languages.python_env import ENVIRONMENTS as PYTHON_ENVIRONMENTS
from judge.languages.runtime import NODE_MODULES, Library, Source, debian, debian_path, npm

CPP_FLAGS = ("-fno-asm", "-fsanitize=bounds", "-fno-sanitize-recover=bounds", "-static", "-O2",
             "-DONLINE_JUDGE")
CPP_HEADER_FLAGS = ("-std=c++20", *(f for f in CPP_FLAGS if f != "-static"))
# SandboxFusion's C++ (/run_code, /submit), where no benchmark fixes the command: linked by gold
# (binutils' other linker: the same program and the same link warnings and errors, in about half
# of GNU ld's time) and with the headers such code includes first precompiled; g++ uses a
# precompiled header only for the first #include (docs/languages.md).
RUN_CODE_HEADERS = ("bits/stdc++.h", "iostream", "algorithm", "vector", "string")

# Python has no build step in the benchmark's recipe; the compile step only parses the source so
# that a syntax error is a compile error (CE), the way online judges report it.
PYTHON_SYNTAX_CHECK = ("import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')")

# Every JVM language runs on the same JVM settings: the benchmark's Java ones.
JVM = ("java", "-XX:+UseSerialGC", "-Xmx544m", "-Xss64m")
# A JVM compiler (kotlinc, scalac) started as the Java program it is, not through its shell
# launcher, which would fork for `uname` and `dirname` on every compile.
JVM_COMPILER = ("java", "-XX:+UseSerialGC", "-Xmx1024m", "-Xss64m", "-XX:TieredStopAtLevel=1")
KOTLIN_HOME = "/usr/share/kotlin/kotlinc"
KOTLIN_COMPILER = (*JVM_COMPILER, "-cp", f"{KOTLIN_HOME}/lib/kotlin-preloader.jar",
                   "org.jetbrains.kotlin.preloading.Preloader", "-cp",
                   f"{KOTLIN_HOME}/lib/kotlin-compiler.jar",
                   "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler", "-kotlin-home", KOTLIN_HOME,
                   "-nowarn")
SCALA_LIB = "/usr/share/scala/lib"
JUNIT_CONSOLE = "/usr/share/java/junit-platform-console-standalone.jar"
# The compatible profile's libraries (judge/languages/runtime.py), named here by the flags and
# search paths of the languages that use them; the strict profile names none.
# C++: boost's headers (MultiPL-E's C++ includes <boost/any.hpp> first), searched after the
# precompiled headers and as system headers, as /usr/include is.
BOOST = debian("boost", "libboost-dev", "/usr/include/boost/any.hpp")
CPP_LIBRARY_FLAGS = ("-isystem", debian_path("/usr/include"))
# Java: javatuples on every program's class path (MultiPL-E's Java imports org.javatuples.*).
JAVATUPLES = debian("org.javatuples", "libjavatuples-java", "/usr/share/java/javatuples.jar")
JAVA_CLASS_PATH = f".:{JAVATUPLES.path}"
# Go: testify (SandboxFusion's go_test); Debian's Go libraries are a GOPATH, not a module cache.
TESTIFY = debian("github.com/stretchr/testify", "golang-github-stretchr-testify-dev",
                 "/usr/share/gocode/src/github.com/stretchr/testify")
GO_TEST_ENV = {"GO111MODULE": "off", "GOPATH": debian_path("/usr/share/gocode")}
# Node: SandboxFusion's npm packages, from judge/languages/node's lock file.
NODE_LIBRARIES = tuple(npm(name) for name in ("lodash", "js-md5", "random-seed", "seedrandom",
                                              "commander"))
NODE_ENV = {"NODE_PATH": str(NODE_MODULES)}
# Perl and Lua: the test modules of MultiPL-E's Perl and Lua.
PERL_LIBRARIES = (debian("Test::Deep", "libtest-deep-perl", "/usr/share/perl5/Test/Deep.pm"),
                  debian("Data::Compare", "libdata-compare-perl",
                         "/usr/share/perl5/Data/Compare.pm"))
# Clone, which Data::Compare needs, is compiled: it sits in the architecture's directory of
# Debian 12's perl (5.36).
PERL_ARCH = getattr(sys.implementation, "_multiarch", f"{platform.machine()}-linux-gnu")
PERL_ENV = {"PERL5LIB": f"{debian_path('/usr/share/perl5')}:"
                        f"{debian_path(f'/usr/lib/{PERL_ARCH}/perl5/5.36')}"}
LUAUNIT = debian("luaunit", "lua-unit", "/usr/share/lua/5.4/luaunit.lua")
LUA_ENV = {"LUA_PATH": f"{debian_path('/usr/share/lua/5.4')}/?.lua;;"}
# Python: the sandboxfusion environment, and its opt-in machine-learning one when installed.
SF_PYTHON = (PYTHON_ENVIRONMENTS[COMPATIBLE_ENVIRONMENT],
             PYTHON_ENVIRONMENTS["sandboxfusion-ml"])
PYTHON_LIBRARIES = tuple(Library(module, Source.PYPI, requirement, env.path / module,
                                 env.optional)
                         for env in SF_PYTHON
                         for module, requirement in env.providers())
PYTHON_ENV = {"PYTHONPATH": ":".join(str(env.path) for env in SF_PYTHON)}

# TypeScript is transpiled without type checking, as SandboxFusion's tsx does: a type error a
# model makes is not a compile error there, only what the JavaScript does counts.
TS_TRANSPILE = (
    "const ts = require('/usr/share/nodejs/typescript'); const fs = require('fs');"
    "const out = ts.transpileModule(fs.readFileSync('code.ts', 'utf8'), {{reportDiagnostics: true,"
    " compilerOptions: {{target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS,"
    " esModuleInterop: true}}}});"
    "const errors = out.diagnostics.filter(d => d.category === ts.DiagnosticCategory.Error);"
    "for (const d of errors) console.error(ts.flattenDiagnosticMessageText(d.messageText, '\\n'));"
    "if (errors.length) process.exit(1); fs.writeFileSync('code.js', out.outputText);")


# The namespaces a `dotnet new console` project imports implicitly (SandboxFusion runs C# so),
# less System.Net.Http, which Mono's compiler here does not reference.
IMPLICIT_USINGS = ("System", "System.Collections.Generic", "System.IO", "System.Linq",
                   "System.Threading", "System.Threading.Tasks")


def add_implicit_usings(source: str) -> str:
    """C# as SandboxFusion compiles it: the implicit usings first, after any #define and #undef
    lines (which must come before everything else); a using the code repeats is a warning."""
    lines = source.splitlines(keepends=True)
    head = 0
    while head < len(lines) and lines[head].lstrip().startswith(("#define", "#undef")):
        head += 1
    usings = " ".join(f"using {namespace};" for namespace in IMPLICIT_USINGS) + "\n"
    return "".join(lines[:head]) + usings + "".join(lines[head:])


def as_dotnet_debug_build(source: str) -> str:
    """C# as SandboxFusion's `dotnet run` builds it: the implicit usings, and the listener that
    makes a failed Debug.Assert end the program (judge/languages/compatible.py)."""
    return with_assert_listener(add_implicit_usings(source))


# SandboxFusion's jest runner: jest and babel from npm (judge/languages/node/package-lock.json),
# which `make setup` installs here; a TypeScript or JavaScript test file, transformed by babel
# as SandboxFusion's babel.config.js says.
NODE_RUNTIME = str(NODE_MODULES)
JEST = f"{NODE_RUNTIME}/jest/bin/jest.js"
JEST_CONFIG = json.dumps({
    "rootDir": ".", "modulePaths": [NODE_RUNTIME], "cacheDirectory": "/tmp/jest",
    "watchman": False,
    "transform": {r"\.[jt]sx?$": [f"{NODE_RUNTIME}/babel-jest", {"presets": [
        [f"{NODE_RUNTIME}/@babel/preset-env", {"targets": {"node": "current"}}],
        f"{NODE_RUNTIME}/@babel/preset-typescript"]}]}})


def ensure_php_tag(source: str) -> str:
    """SandboxFusion runs PHP code that lacks the opening tag as PHP, not as text to echo."""
    return source if source.lstrip().startswith("<?") else "<?php\n" + source


def _script(name: str, aliases: tuple[str, ...], extension: str, interpreter: tuple[str, ...],
            packages: tuple[str, ...], version: tuple[str, ...], policy: str = "script",
            family: Family = Family.SCRIPT, source: str = "", **extra) -> Language:
    """An interpreted language: the source is the program."""
    source = source or "code" + extension
    return Language(name, family, aliases, (extension,), source, None, (*interpreter, source),
                    policy, time_factor=2.0, artifacts=(source,), version_command=version,
                    packages=packages, script=True, **extra)


LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (
    Language("cpp", Family.NATIVE,
             ("c++", "cxx", "g++", "cc", "hpp", "h++", "cplusplus", "cpp11", "cpp14", "cpp17",
              "cpp20", "cpp23", "c++11", "c++14", "c++17", "c++20", "c++23", "gnu++17",
              "gnu++20"),
             (".cpp", ".cc", ".cxx", ".c++"), "code.cpp",
             ("g++", "-std=c++20", *CPP_FLAGS, "-o", "code.exe", "code.cpp"),
             ("./code.exe",), "native", artifacts=("code.exe",),
             version_command=("g++", "--version"), packages=("g++",),
             precompiled_headers=("bits/stdc++.h",), header_flags=CPP_HEADER_FLAGS,
             sandboxfusion={"compile": ("g++", "-std=c++20", *CPP_FLAGS, "-fuse-ld=gold",
                                        *CPP_LIBRARY_FLAGS, "-o", "code.exe", "code.cpp"),
                            "precompiled_headers": RUN_CODE_HEADERS, "libraries": (BOOST,)}),
    Language("c", Family.NATIVE, ("h", "gnu17", "c11", "c17"), (".c",), "code.c",
             ("gcc", "-std=gnu17", *CPP_FLAGS, "-o", "code.exe", "code.c", "-lm"),
             ("./code.exe",), "native", artifacts=("code.exe",),
             version_command=("gcc", "--version"), packages=("gcc",)),
    Language("python", Family.SCRIPT, ("py", "python3", "py3", "python3.10", "python3.11"),
             (".py",), "code.py", ("python3", "-c", PYTHON_SYNTAX_CHECK, "code.py"),
             ("python3", "code.py"), "python", compile_policy="python", time_factor=2.0,
             artifacts=("code.py",), version_command=("python3", "--version"),
             packages=("python3",), script=True,
             sandboxfusion={"env": PYTHON_ENV, "libraries": PYTHON_LIBRARIES}),
    Language("pypy3", Family.SCRIPT, ("pypy",), (), "code.py",
             ("pypy3", "-c", PYTHON_SYNTAX_CHECK, "code.py"),
             ("pypy3", "code.py"), "python", compile_policy="python", time_factor=2.0,
             artifacts=("code.py",), version_command=("pypy3", "--version"),
             packages=("pypy3",), script=True),
    Language("java", Family.JVM, ("java17", "java8", "java11", "java21"), (".java",),
             "{cls}.java",
             # javac's own JIT stops at C1: it runs briefly, and the classes it writes are
             # the same.
             ("javac", "-J-Xmx544m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
              "{cls}.java"),
             (*JVM, "-DONLINE_JUDGE", "{cls}"), "java", compile_policy="java",
             time_factor=2.0, artifacts=("*.class",), version_command=("javac", "-version"),
             packages=("openjdk-17-jdk-headless",), main_class=java_class_name,
             compiler_archive=True,
             # Java tests in SandboxFusion's datasets (MultiPL-E) are `assert`s.
             sandboxfusion={"compile": ("javac", "-J-Xmx544m", "-J-XX:TieredStopAtLevel=1",
                                        "-J-XX:+UseSerialGC", "-cp", JAVA_CLASS_PATH,
                                        "{cls}.java"),
                            "run": (*JVM, "-ea", "-cp", JAVA_CLASS_PATH, "{cls}"),
                            "libraries": (JAVATUPLES,)}),
    Language("kotlin", Family.JVM, ("kt", "kotlin1.9"), (".kt",), "code.kt",
             (*KOTLIN_COMPILER, "code.kt", "-include-runtime", "-d", "code.jar"),
             (*JVM, "-DONLINE_JUDGE", "-jar", "code.jar"), "java", compile_policy="jvm-build",
             time_factor=2.0, artifacts=("code.jar",),
             version_command=(*KOTLIN_COMPILER, "-version"), packages=("kotlin",)),
    Language("kotlin_script", Family.JVM, ("kts",), (".kts",), "code.kts", None,
             (*KOTLIN_COMPILER, "-script", "code.kts"), "java", time_factor=2.0,
             artifacts=("code.kts",), version_command=(*KOTLIN_COMPILER, "-version"),
             packages=("kotlin",), script=True, sandboxfusion_only=True),
    Language("scala", Family.JVM, ("scala2",), (".scala",), "code.scala",
             (*JVM_COMPILER, "-cp", f"{SCALA_LIB}/scala-compiler.jar:{SCALA_LIB}/scala-library.jar:"
              f"{SCALA_LIB}/scala-reflect.jar", "scala.tools.nsc.Main", "-usejavacp",
              "-nowarn", "code.scala"),
             (*JVM, "-cp", f".:{SCALA_LIB}/scala-library.jar", "{cls}"), "java",
             compile_policy="jvm-build", time_factor=2.0, artifacts=("*.class",),
             version_command=("scalac", "-version"), packages=("scala",),
             main_class=scala_object_name),
    Language("csharp", Family.MANAGED, ("c#", "cs", "mono", "dotnet"), (".cs",), "code.cs",
             ("mcs", "-o+", "-d:ONLINE_JUDGE", "-r:System.Numerics.dll", "-out:code.exe",
              "code.cs"),
             ("mono", "code.exe"), "mono", compile_policy="mono", time_factor=2.0,
             artifacts=("code.exe",), version_command=("mcs", "--version"),
             packages=("mono-mcs", "mono-runtime"),
             # SandboxFusion's `dotnet run` is a Debug build: DEBUG and TRACE defined, and a
             # failed Debug.Assert (MultiPL-E's C# tests) ends the program. Codeforces compiles
             # without DEBUG, so the strict profile keeps Debug.Assert compiled out.
             sandboxfusion={"prepare": as_dotnet_debug_build,
                            "compile": ("mcs", "-o+", "-d:ONLINE_JUDGE", "-d:DEBUG", "-d:TRACE",
                                        "-r:System.Numerics.dll", "-out:code.exe", "code.cs"),
                            "support_files": {"code.exe.config": CSHARP_CONFIG},
                            "artifacts": ("code.exe", "code.exe.config")}),
    Language("rust", Family.NATIVE, ("rs", "rust2021"), (".rs",), "code.rs",
             ("rustc", "--edition=2021", "-O", "--cfg", "ONLINE_JUDGE", "-o", "code.exe",
              "code.rs"),
             ("./code.exe",), "native", artifacts=("code.exe",),
             version_command=("rustc", "--version"), packages=("rustc",),
             sandboxfusion={"compile": ("rustc", "code.rs", "-o", "code.exe")}),
    Language("go", Family.NATIVE, ("golang",), (".go",), "code.go",
             ("go", "build", "-o", "code.exe", "code.go"),
             ("./code.exe",), "go", artifacts=("code.exe",),
             version_command=("go", "version"), packages=("golang-go",)),
    # `go test` builds the test binary and runs it from /tmp, where nothing may be executed:
    # the binary is built as the compile step instead (`go test -c`), then run with the flag
    # go test gives it, and a TestMain that prints go test's summary line.
    Language("go_test", Family.NATIVE, (), (), "code_test.go",
             ("go", "test", "-c", "-o", "code.exe", "code_test.go"),
             ("./code.exe", "-test.paniconexit0"), "go", prepare=with_go_test_summary,
             artifacts=("code.exe",), version_command=("go", "version"), packages=("golang-go",),
             env=GO_TEST_ENV, sandboxfusion={"libraries": (TESTIFY,)}, sandboxfusion_only=True),
    _script("javascript", ("js", "node", "nodejs"), ".js", ("node",),
            ("nodejs",), ("node", "--version"), policy="node", family=Family.MANAGED,
            sandboxfusion={"env": NODE_ENV, "libraries": NODE_LIBRARIES}),
    Language("jest", Family.MANAGED, (), (), "code.test.ts", None,
             # (braces doubled: commands are format strings)
             ("node", JEST, "--ci", "--runInBand", "--config",
              JEST_CONFIG.replace("{", "{{").replace("}", "}}")),
             "node", time_factor=2.0, artifacts=("code.test.ts",),
             version_command=("node", JEST, "--version"), packages=("nodejs",),
             env={"FORCE_COLOR": "0"}, script=True, sandboxfusion={"libraries": NODE_LIBRARIES},
             sandboxfusion_only=True),
    Language("typescript", Family.MANAGED, ("ts",), (".ts",), "code.ts",
             ("node", "-e", TS_TRANSPILE, "code.ts"), ("node", "code.js"), "node",
             compile_policy="node", time_factor=2.0, artifacts=("code.js",),
             version_command=("tsc", "--version"), packages=("nodejs", "node-typescript"),
             sandboxfusion={"env": NODE_ENV, "libraries": NODE_LIBRARIES}),
    _script("php", ("php8",), ".php", ("php",), ("php-cli",), ("php", "--version"),
            sandboxfusion={"prepare": ensure_php_tag}),
    _script("ruby", ("rb",), ".rb", ("ruby",), ("ruby",), ("ruby", "--version")),
    _script("perl", ("pl",), ".pl", ("perl",), ("perl",), ("perl", "--version"),
            sandboxfusion={"env": PERL_ENV, "libraries": PERL_LIBRARIES}),
    _script("lua", ("lua5.4",), ".lua", ("lua5.4",), ("lua5.4",), ("lua5.4", "-v"),
            sandboxfusion={"env": LUA_ENV, "libraries": (LUAUNIT,)}),
    _script("r", ("rscript",), ".R", ("Rscript",), ("r-base-core",), ("Rscript", "--version")),
    _script("bash", ("sh", "shell"), ".sh", ("bash",), ("bash",), ("bash", "--version")),
    _script("racket", ("rkt", "scheme"), ".rkt", ("racket",), ("racket",),
            ("racket", "--version")),
    Language("haskell", Family.NATIVE, ("hs", "ghc"), (".hs",), "code.hs",
             ("ghc", "-O2", "-o", "code.exe", "code.hs"), ("./code.exe",), "ghc",
             artifacts=("code.exe",), version_command=("ghc", "--version"), packages=("ghc",)),
    Language("ocaml", Family.NATIVE, ("ml",), (".ml",), "code.ml",
             ("ocamlopt", "-unsafe", "-inline", "100", "str.cmxa", "unix.cmxa", "-o",
              "code.exe", "code.ml"), ("./code.exe",), "native", artifacts=("code.exe",),
             version_command=("ocamlopt", "-version"), packages=("ocaml-nox",)),
    Language("pascal", Family.NATIVE, ("pas", "fpc", "freepascal", "delphi"), (".pas",),
             "code.pas",
             ("fpc", "-O2", "-XS", "-Sgic", "-viwn", "-dONLINE_JUDGE", "-Cs67107839",
              "-ocode.exe", "code.pas"), ("./code.exe",), "native", artifacts=("code.exe",),
             version_command=("fpc", "-iV"), packages=("fp-compiler",)),
    Language("d", Family.NATIVE, ("dlang", "gdc"), (".d",), "code.d",
             ("gdc", "-O2", "-frelease", "-o", "code.exe", "code.d"), ("./code.exe",), "native",
             artifacts=("code.exe",), version_command=("gdc", "--version"), packages=("gdc",)),
    Language("d_ut", Family.NATIVE, (), (), "code.d",
             ("gdc", "-funittest", "-o", "code.exe", "code.d"), ("./code.exe",), "native",
             artifacts=("code.exe",), version_command=("gdc", "--version"), packages=("gdc",),
             sandboxfusion_only=True),
    Language("verilog", Family.SIMULATOR, ("sv", "systemverilog", "iverilog"), (".sv", ".v"),
             "code.sv",
             ("iverilog", "-Wall", "-Winfloop", "-Wno-timescale", "-g2012", "-s", "tb", "-o",
              "code.vvp", "code.sv"), ("vvp", "-n", "code.vvp"), "native",
             artifacts=("code.vvp",), version_command=("iverilog", "-V"),
             packages=("iverilog",)),
    _script("pytest", (), ".py", ("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            ("python3-pytest",), ("python3", "-m", "pytest", "--version"), policy="python",
            source="test_code.py", sandboxfusion={"env": PYTHON_ENV, "libraries": PYTHON_LIBRARIES},
            sandboxfusion_only=True),
    Language("junit", Family.JVM, (), (), "{cls}.java",
             ("javac", "-J-Xmx544m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-cp",
              JUNIT_CONSOLE, "{cls}.java"),
             (*JVM, "-ea", "-jar", JUNIT_CONSOLE, "--disable-banner", "--class-path", ".",
              "--scan-class-path"),
             "java", compile_policy="java", time_factor=2.0, artifacts=("*.class",),
             version_command=("javac", "-version"), packages=("junit5",),
             main_class=java_class_name, sandboxfusion_only=True),
)}

# The Debian packages of every language's libraries, which the runtime layer unpacks.
LIBRARY_PACKAGES = sorted({library.package for language in LANGUAGES.values()
                           for library in language.flavoured(Flavour.SANDBOXFUSION).libraries
                           if library.source is Source.DEBIAN})
