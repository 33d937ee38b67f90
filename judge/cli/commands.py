"""Imports every command module so that each registers itself on the app."""
from judge.cli import (  # noqa: F401
    audit_cmd,
    check_cmd,
    doctor_cmd,
    eval_cmd,
    exec_cmd,
    problems_cmd,
    run_cmd,
    serve_cmd,
)
