"""Every language the judge runs, as data: one entry each (docs/languages.md explains the
fields, the time factors and how to add the next language). Commands are Codeforces' where
Codeforces has the language (the C++, Python and Java ones are the CF-Div2-Stepfun benchmark's
published commands), with SandboxFusion's differences in `compatible`."""
from __future__ import annotations

import json
import platform
import sys

from judge.languages.compatible import CSHARP_CONFIG, with_assert_listener, with_go_test_summary
from judge.languages.entry import java_class_name, scala_object_name
from judge.languages.language import Compatible, Family, Language, Profile
from judge.languages.python_env import COMPATIBLE_ENVIRONMENT
from judge.languages.python_env import ENVIRONMENTS as PYTHON_ENVIRONMENTS
from judge.languages.runtime import NODE_MODULES, Library, Source, debian, debian_path, npm
from judge.sandbox.policy import POLICIES

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


NATIVE, PYTHON, SCRIPT, JAVA = (POLICIES[name] for name in ("native", "python", "script", "java"))
NODE, MONO, GO, GHC = (POLICIES[name] for name in ("node", "mono", "go", "ghc"))
JVM_BUILD = POLICIES["jvm-build"]
JAVAC = ("javac", "-J-Xmx544m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC")


def _script(*, name: str, extension: str, interpreter: tuple[str, ...], source: str = "",
            **entry) -> Language:
    """An interpreted language: the source is the program, the "compile" at most checks it."""
    source = source or "code" + extension
    entry.setdefault("family", Family.SCRIPT)
    entry.setdefault("policy", SCRIPT)
    return Language(name=name, extensions=(extension,), source_name=source,
                    run=(*interpreter, source), artifacts=(source,), script=True, **entry)


def _native(*, name: str, source: str, compile: tuple[str, ...], **entry) -> Language:
    """A compiled language whose build writes code.exe, the program the run starts."""
    entry.setdefault("policy", NATIVE)
    return Language(name=name, family=Family.NATIVE, source_name=source, compile=compile,
                    run=("./code.exe",), artifacts=("code.exe",), **entry)


LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (
    _native(name="cpp",
            aliases=("c++", "cxx", "g++", "cc", "hpp", "h++", "cplusplus", "cpp11", "cpp14",
                     "cpp17", "cpp20", "cpp23", "c++11", "c++14", "c++17", "c++20", "c++23",
                     "gnu++17", "gnu++20"),
            extensions=(".cpp", ".cc", ".cxx", ".c++"), source="code.cpp",
            compile=("g++", "-std=c++20", *CPP_FLAGS, "-o", "code.exe", "code.cpp"),
            version_command=("g++", "--version"), packages=("g++",),
            precompiled_headers=("bits/stdc++.h",), header_flags=CPP_HEADER_FLAGS,
            probe="probe.cpp", sandboxfusion_names=("cpp",),
            compatible=Compatible(compile=("g++", "-std=c++20", *CPP_FLAGS, "-fuse-ld=gold",
                                           *CPP_LIBRARY_FLAGS, "-o", "code.exe", "code.cpp"),
                                  precompiled_headers=RUN_CODE_HEADERS, libraries=(BOOST,))),
    _native(name="c", aliases=("h", "gnu17", "c11", "c17"), extensions=(".c",), source="code.c",
            compile=("gcc", "-std=gnu17", *CPP_FLAGS, "-o", "code.exe", "code.c", "-lm"),
            version_command=("gcc", "--version"), packages=("gcc",), probe="probe.c",
            sandboxfusion_names=("c",)),
    Language(name="python", family=Family.SCRIPT,
             aliases=("py", "python3", "py3", "python3.10", "python3.11"), extensions=(".py",),
             source_name="code.py", compile=("python3", "-c", PYTHON_SYNTAX_CHECK, "code.py"),
             run=("python3", "code.py"), policy=PYTHON, compile_policy=PYTHON,
             artifacts=("code.py",), version_command=("python3", "--version"),
             packages=("python3",), script=True, probe="probe.py",
             sandboxfusion_names=("python", "python3"),
             compatible=Compatible(env=PYTHON_ENV, libraries=PYTHON_LIBRARIES)),
    Language(name="pypy3", family=Family.SCRIPT, aliases=("pypy",), source_name="code.py",
             compile=("pypy3", "-c", PYTHON_SYNTAX_CHECK, "code.py"), run=("pypy3", "code.py"),
             policy=PYTHON, compile_policy=PYTHON, artifacts=("code.py",),
             version_command=("pypy3", "--version"), packages=("pypy3",), script=True,
             probe="probe.py", sandboxfusion_names=("pypy3",)),
    Language(name="java", family=Family.JVM, aliases=("java17", "java8", "java11", "java21"),
             extensions=(".java",), source_name="{cls}.java",
             # javac's own JIT stops at C1: it runs briefly, and the classes it writes are
             # the same.
             compile=(*JAVAC, "{cls}.java"), run=(*JVM, "-DONLINE_JUDGE", "{cls}"), policy=JAVA,
             compile_policy=JAVA, artifacts=("*.class",), version_command=("javac", "-version"),
             packages=("openjdk-17-jdk-headless",), main_class=java_class_name,
             compiler_archive=True, probe="Probe.java", sandboxfusion_names=("java",),
             # Java tests in SandboxFusion's datasets (MultiPL-E) are `assert`s.
             compatible=Compatible(compile=(*JAVAC, "-cp", JAVA_CLASS_PATH, "{cls}.java"),
                                   run=(*JVM, "-ea", "-cp", JAVA_CLASS_PATH, "{cls}"),
                                   libraries=(JAVATUPLES,))),
    Language(name="kotlin", family=Family.JVM, aliases=("kt", "kotlin1.9"), extensions=(".kt",),
             source_name="code.kt",
             compile=(*KOTLIN_COMPILER, "code.kt", "-include-runtime", "-d", "code.jar"),
             run=(*JVM, "-DONLINE_JUDGE", "-jar", "code.jar"), policy=JAVA,
             compile_policy=JVM_BUILD, artifacts=("code.jar",),
             version_command=(*KOTLIN_COMPILER, "-version"), packages=("kotlin",),
             probe="probe.kt"),
    Language(name="kotlin_script", family=Family.JVM, aliases=("kts",), extensions=(".kts",),
             source_name="code.kts", run=(*KOTLIN_COMPILER, "-script", "code.kts"),
             policy=JAVA, artifacts=("code.kts",),
             version_command=(*KOTLIN_COMPILER, "-version"), packages=("kotlin",), script=True,
             sandboxfusion_names=("kotlin_script",), compatible_only=True),
    Language(name="scala", family=Family.JVM, aliases=("scala2",), extensions=(".scala",),
             source_name="code.scala",
             compile=(*JVM_COMPILER, "-cp", f"{SCALA_LIB}/scala-compiler.jar:"
                      f"{SCALA_LIB}/scala-library.jar:{SCALA_LIB}/scala-reflect.jar",
                      "scala.tools.nsc.Main", "-usejavacp", "-nowarn", "code.scala"),
             run=(*JVM, "-cp", f".:{SCALA_LIB}/scala-library.jar", "{cls}"), policy=JAVA,
             compile_policy=JVM_BUILD, artifacts=("*.class",),
             version_command=("scalac", "-version"), packages=("scala",),
             main_class=scala_object_name, probe="Probe.scala", sandboxfusion_names=("scala",)),
    Language(name="csharp", family=Family.MANAGED, aliases=("c#", "cs", "mono", "dotnet"),
             extensions=(".cs",), source_name="code.cs",
             compile=("mcs", "-o+", "-d:ONLINE_JUDGE", "-r:System.Numerics.dll", "-out:code.exe",
                      "code.cs"),
             run=("mono", "code.exe"), policy=MONO, compile_policy=MONO,
             artifacts=("code.exe",), version_command=("mcs", "--version"),
             packages=("mono-mcs", "mono-runtime"), probe="probe.cs",
             sandboxfusion_names=("csharp",),
             # SandboxFusion's `dotnet run` is a Debug build: DEBUG and TRACE defined, and a
             # failed Debug.Assert (MultiPL-E's C# tests) ends the program. Codeforces compiles
             # without DEBUG, so the strict profile keeps Debug.Assert compiled out.
             compatible=Compatible(
                 prepare=as_dotnet_debug_build,
                 compile=("mcs", "-o+", "-d:ONLINE_JUDGE", "-d:DEBUG", "-d:TRACE",
                          "-r:System.Numerics.dll", "-out:code.exe", "code.cs"),
                 support_files={"code.exe.config": CSHARP_CONFIG},
                 artifacts=("code.exe", "code.exe.config"))),
    _native(name="rust", aliases=("rs", "rust2021"), extensions=(".rs",), source="code.rs",
            compile=("rustc", "--edition=2021", "-O", "--cfg", "ONLINE_JUDGE", "-o", "code.exe",
                     "code.rs"),
            version_command=("rustc", "--version"), packages=("rustc",), probe="probe.rs",
            sandboxfusion_names=("rust",),
            compatible=Compatible(compile=("rustc", "code.rs", "-o", "code.exe"))),
    _native(name="go", aliases=("golang",), extensions=(".go",), source="code.go",
            compile=("go", "build", "-o", "code.exe", "code.go"), policy=GO,
            version_command=("go", "version"), packages=("golang-go",), probe="probe.go",
            sandboxfusion_names=("go",)),
    # `go test` builds the test binary and runs it from /tmp, where nothing may be executed:
    # the binary is built as the compile step instead (`go test -c`), then run with the flag
    # go test gives it, and a TestMain that prints go test's summary line.
    Language(name="go_test", family=Family.NATIVE, source_name="code_test.go",
             compile=("go", "test", "-c", "-o", "code.exe", "code_test.go"),
             run=("./code.exe", "-test.paniconexit0"), policy=GO, prepare=with_go_test_summary,
             artifacts=("code.exe",), version_command=("go", "version"), packages=("golang-go",),
             env=GO_TEST_ENV, sandboxfusion_names=("go_test",),
             compatible=Compatible(libraries=(TESTIFY,)), compatible_only=True),
    _script(name="javascript", aliases=("js", "node", "nodejs"), extension=".js",
            interpreter=("node",), packages=("nodejs",), version_command=("node", "--version"),
            policy=NODE, family=Family.MANAGED, probe="probe.js",
            sandboxfusion_names=("nodejs", "js"),
            compatible=Compatible(env=NODE_ENV, libraries=NODE_LIBRARIES)),
    Language(name="jest", family=Family.MANAGED, source_name="code.test.ts",
             # (braces doubled: commands are format strings)
             run=("node", JEST, "--ci", "--runInBand", "--config",
                  JEST_CONFIG.replace("{", "{{").replace("}", "}}")),
             policy=NODE, artifacts=("code.test.ts",),
             version_command=("node", JEST, "--version"), packages=("nodejs",),
             env={"FORCE_COLOR": "0"}, script=True,
             compatible=Compatible(libraries=NODE_LIBRARIES), compatible_only=True),
    Language(name="typescript", family=Family.MANAGED, aliases=("ts",), extensions=(".ts",),
             source_name="code.ts", compile=("node", "-e", TS_TRANSPILE, "code.ts"),
             run=("node", "code.js"), policy=NODE, compile_policy=NODE, artifacts=("code.js",),
             version_command=("tsc", "--version"), packages=("nodejs", "node-typescript"),
             probe="probe.ts", sandboxfusion_names=("ts", "typescript"),
             compatible=Compatible(env=NODE_ENV, libraries=NODE_LIBRARIES)),
    _script(name="php", aliases=("php8",), extension=".php", interpreter=("php",),
            packages=("php-cli",), version_command=("php", "--version"), probe="probe.php",
            sandboxfusion_names=("php",), compatible=Compatible(prepare=ensure_php_tag)),
    _script(name="ruby", aliases=("rb",), extension=".rb", interpreter=("ruby",),
            packages=("ruby",), version_command=("ruby", "--version"), probe="probe.rb",
            sandboxfusion_names=("ruby",)),
    _script(name="perl", aliases=("pl",), extension=".pl", interpreter=("perl",),
            packages=("perl",), version_command=("perl", "--version"), probe="probe.pl",
            sandboxfusion_names=("perl",),
            compatible=Compatible(env=PERL_ENV, libraries=PERL_LIBRARIES)),
    _script(name="lua", aliases=("lua5.4",), extension=".lua", interpreter=("lua5.4",),
            packages=("lua5.4",), version_command=("lua5.4", "-v"), probe="probe.lua",
            sandboxfusion_names=("lua",),
            compatible=Compatible(env=LUA_ENV, libraries=(LUAUNIT,))),
    _script(name="r", aliases=("rscript",), extension=".R", interpreter=("Rscript",),
            packages=("r-base-core",), version_command=("Rscript", "--version"),
            probe="probe.R", sandboxfusion_names=("R",)),
    _script(name="bash", aliases=("sh", "shell"), extension=".sh", interpreter=("bash",),
            packages=("bash",), version_command=("bash", "--version"), probe="probe.sh",
            sandboxfusion_names=("bash",)),
    _script(name="racket", aliases=("rkt", "scheme"), extension=".rkt", interpreter=("racket",),
            packages=("racket",), version_command=("racket", "--version"), probe="probe.rkt",
            sandboxfusion_names=("racket",)),
    _native(name="haskell", aliases=("hs", "ghc"), extensions=(".hs",), source="code.hs",
            compile=("ghc", "-O2", "-o", "code.exe", "code.hs"), policy=GHC,
            version_command=("ghc", "--version"), packages=("ghc",), probe="probe.hs"),
    _native(name="ocaml", aliases=("ml",), extensions=(".ml",), source="code.ml",
            compile=("ocamlopt", "-unsafe", "-inline", "100", "str.cmxa", "unix.cmxa", "-o",
                     "code.exe", "code.ml"),
            version_command=("ocamlopt", "-version"), packages=("ocaml-nox",), probe="probe.ml"),
    _native(name="pascal", aliases=("pas", "fpc", "freepascal", "delphi"), extensions=(".pas",),
            source="code.pas",
            compile=("fpc", "-O2", "-XS", "-Sgic", "-viwn", "-dONLINE_JUDGE", "-Cs67107839",
                     "-ocode.exe", "code.pas"),
            version_command=("fpc", "-iV"), packages=("fp-compiler",), probe="probe.pas"),
    _native(name="d", aliases=("dlang", "gdc"), extensions=(".d",), source="code.d",
            compile=("gdc", "-O2", "-frelease", "-o", "code.exe", "code.d"),
            version_command=("gdc", "--version"), packages=("gdc",), probe="probe.d"),
    _native(name="d_ut", source="code.d", compile=("gdc", "-funittest", "-o", "code.exe", "code.d"),
            version_command=("gdc", "--version"), packages=("gdc",),
            sandboxfusion_names=("D_ut",), compatible_only=True),
    Language(name="verilog", family=Family.SIMULATOR,
             aliases=("sv", "systemverilog", "iverilog"), extensions=(".sv", ".v"),
             source_name="code.sv",
             compile=("iverilog", "-Wall", "-Winfloop", "-Wno-timescale", "-g2012", "-s", "tb",
                      "-o", "code.vvp", "code.sv"),
             run=("vvp", "-n", "code.vvp"), policy=NATIVE, artifacts=("code.vvp",),
             version_command=("iverilog", "-V"), packages=("iverilog",),
             sandboxfusion_names=("verilog",)),
    _script(name="pytest", extension=".py",
            interpreter=("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            packages=("python3-pytest",), version_command=("python3", "-m", "pytest", "--version"),
            policy=PYTHON, source="test_code.py", sandboxfusion_names=("pytest",),
            compatible=Compatible(env=PYTHON_ENV, libraries=PYTHON_LIBRARIES),
            compatible_only=True),
    Language(name="junit", family=Family.JVM, source_name="{cls}.java",
             compile=(*JAVAC, "-cp", JUNIT_CONSOLE, "{cls}.java"),
             run=(*JVM, "-ea", "-jar", JUNIT_CONSOLE, "--disable-banner", "--class-path", ".",
                  "--scan-class-path"),
             policy=JAVA, compile_policy=JAVA, artifacts=("*.class",),
             version_command=("javac", "-version"), packages=("junit5",),
             main_class=java_class_name, sandboxfusion_names=("junit",), compatible_only=True),
)}

# The Debian packages of every language's libraries, which the runtime layer unpacks.
LIBRARY_PACKAGES = sorted({library.package for language in LANGUAGES.values()
                           for library in language.in_profile(Profile.COMPATIBLE).libraries
                           if library.source is Source.DEBIAN})
