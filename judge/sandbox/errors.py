"""The sandbox's own failures, apart from the results of the programs it runs."""
from judge import JudgeError


class SandboxError(JudgeError):
    """The sandbox cannot be set up here (missing kernel feature, bad box, dead supervisor)."""
