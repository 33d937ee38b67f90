"""The command modules, each registering its command on the app when imported. A run of `judge`
imports only the module of the command it names: the others' imports (evaluation with its
datasets and Ray, the web service, rich's tables) would otherwise be paid by every command,
`judge exec` of an empty program included."""
from __future__ import annotations

import importlib

MODULES = {
    "audit": "audit_cmd",
    "check": "check_cmd",
    "doctor": "doctor_cmd",
    "eval": "eval_cmd",
    "exec": "exec_cmd",
    "problems": "problems_cmd",
    "run": "run_cmd",
    "serve": "serve_cmd",
}


def register(args: list[str]) -> str | None:
    """Imports the module of the command `args` name (the first word that is no option: the
    app's own options take no value) and returns its name, or imports every module when they
    name none of them (the help, or a mistyped name, lists every command) and returns None."""
    named = next((word for word in args if not word.startswith("-")), None)
    chosen = [MODULES[named]] if named in MODULES else list(MODULES.values())
    for module in chosen:
        importlib.import_module(f"judge.cli.{module}")
    return named if named in MODULES else None
