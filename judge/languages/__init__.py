"""Languages: how a submission is compiled and run. Every language is one entry of
`registry.LANGUAGES`; this module finds one by any of its names or by a file's extension."""
from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from judge import JudgeError, config
from judge.languages.entry import java_class_name, scala_object_name
from judge.languages.language import Compatible, Family, Language, Profile
from judge.languages.registry import LANGUAGES


@functools.cache
def _names() -> dict[str, str]:
    """Every spelling (lower case) of every language, to its canonical name."""
    names: dict[str, str] = {}
    for language in LANGUAGES.values():
        for spelling in (language.name, *language.aliases):
            key = spelling.lower()
            if names.setdefault(key, language.name) != language.name:
                raise AssertionError(f"{spelling!r} names both {names[key]} and {language.name}")
    return names


def canonical_name(name: str) -> str | None:
    """The canonical name of a language spelt `name` in any registered way; None if unknown."""
    return _names().get(name.strip().lower())


@functools.lru_cache(maxsize=16)
def _by_language(overrides: tuple[tuple[str, float], ...]) -> dict[str, float]:
    unknown = [name for name, _ in overrides if canonical_name(name) is None]
    if unknown:
        raise JudgeError(f"JUDGE_TIME_FACTORS: unknown language {unknown[0]!r}")
    return {canonical_name(name) or name: factor for name, factor in overrides}


def time_factor_overrides() -> dict[str, float]:
    """The per-language multipliers the configuration overrides (JUDGE_TIME_FACTORS=
    "python=3,java=2.5"); raises a JudgeError for a bad entry (commands call it first to fail
    before doing anything)."""
    return _by_language(config.current().time_factors)


def get_language(name: str, profile: Profile = Profile.STRICT) -> Language:
    """The profile of ``name`` (or an alias), with its time factor from JUDGE_TIME_FACTORS."""
    key = canonical_name(name)
    if key is None:
        known = ", ".join(n for n, lang in LANGUAGES.items() if not lang.compatible_only)
        raise JudgeError(f"unknown language {name!r} (known: {known})")
    language = LANGUAGES[key].in_profile(profile)
    factor = time_factor_overrides().get(key)
    return language if factor is None else replace(language, own_time_factor=factor)


def language_for_file(path: str | Path) -> Language:
    suffix = Path(path).suffix.lower()
    for lang in LANGUAGES.values():
        if suffix in (ext.lower() for ext in lang.extensions) and not lang.compatible_only:
            return get_language(lang.name)
    raise JudgeError(f"cannot tell the language of {path} from its extension; use --lang")


__all__ = ["LANGUAGES", "Compatible", "Family", "Language", "Profile", "canonical_name", "get_language",
           "java_class_name", "language_for_file", "scala_object_name", "time_factor_overrides"]
