"""The class or object a source names as its entry point, for languages whose compiler and
runtime must be told (Java's public class, Scala's object)."""
from __future__ import annotations

import re

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRINGS = re.compile(r'"(?:\\.|[^"\\\n])*"')


def _code(source: str) -> str:
    return _STRINGS.sub('""', _COMMENTS.sub(" ", source))


def java_class_name(source: str) -> str:
    """The class javac must be given: the public top-level class, else the one with main()."""
    code = _code(source)
    public = re.search(r"^\s*public\s+(?:(?:final|abstract|strictfp)\s+)*(?:class|interface|enum|record)\s+"
                       r"([A-Za-z_$][\w$]*)", code, re.M)
    if public:
        return public.group(1)
    classes = list(re.finditer(r"\b(?:class|record|enum)\s+([A-Za-z_$][\w$]*)", code))
    main = re.search(r"\bstatic\s+(?:public\s+)?void\s+main\s*\(", code)
    if main:
        enclosing = [m for m in classes if m.start() < main.start()]
        if enclosing:
            return enclosing[-1].group(1)
    return classes[0].group(1) if classes else "Main"


def scala_object_name(source: str) -> str:
    """The object the JVM starts: the one defining main or extending App, else the first."""
    code = _code(source)
    objects = list(re.finditer(r"\bobject\s+([A-Za-z_$][\w$]*)", code))
    for found in objects:
        rest = code[found.end():]
        following = re.search(r"\bobject\s", rest)
        body = rest[:following.start()] if following else rest
        if re.match(r"\s*extends\s+App\b", rest) or re.search(r"\bdef\s+main\s*\(", body):
            return found.group(1)
    return objects[0].group(1) if objects else "Main"
