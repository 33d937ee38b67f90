"""Imports every command module so that each registers itself on the app."""
from judge.cli import exec_cmd, doctor_cmd, check_cmd, run_cmd, problems_cmd, audit_cmd, eval_cmd  # noqa: F401
