# Everything the project needs is installed from here; nothing by hand.
# The system interpreter: world-readable, so the unprivileged-mode tests can run it too.
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
VENV   ?= .venv
PY      = $(VENV)/bin/python
APT_PACKAGES = build-essential libseccomp-dev libcap-dev openjdk-17-jdk-headless \
               python3-dev python3-venv bubblewrap chromium podman runc
# podman's default ulimits (nofile 1048576) exceed what this kind of host allows and make every
# container fail to start; a drop-in file leaves the user's own containers.conf alone.
CONTAINERS_CONF = /etc/containers/containers.conf.d/50-judge.conf

.PHONY: setup system containers-conf venv native test test-fast lint bench image clean

setup: system containers-conf venv

# Installs missing Debian packages when run as root; otherwise only reports them.
system:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "apt: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing system packages (run 'make setup' as root):$$missing" >&2; exit 1; fi; \
	fi

containers-conf: system
	@if [ "$$(id -u)" = 0 ] && command -v podman >/dev/null && [ ! -f $(CONTAINERS_CONF) ]; then \
	  mkdir -p $(dir $(CONTAINERS_CONF)); \
	  printf '%s\n' "# Written by judge's make setup: the default ulimits cannot be set on this host." \
	    '[containers]' 'default_ulimits = []' > $(CONTAINERS_CONF); \
	  echo "wrote $(CONTAINERS_CONF)"; \
	fi

$(VENV)/.installed: pyproject.toml setup.py native/*.c native/*.h native/*.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel cffi
	$(PY) -m pip install -q -e '.[test,lint]'
	touch $@

venv: $(VENV)/.installed

native: venv
	$(PY) setup.py -q build_ext --inplace

# The whole suite in the default cgroup mode (JUDGE_CGROUP, else auto), then the sandbox,
# hostile and grading suites again in the no-cgroup mode, which hosts without cgroups get.
test: setup
	$(PY) -m pytest -q tests
	JUDGE_CGROUP=none $(PY) -m pytest -q tests/test_sandbox_limits.py \
	  tests/test_sandbox_hostile.py tests/test_grading.py

# The edit-test loop: everything but the slow, Java and browser tests (markers in tests/conftest.py).
test-fast: setup
	$(PY) -m pytest -q -x -m "not slow and not java and not browser" tests

# ruff (style, imports, likely bugs) and mypy (types) over the package and the tests; CI runs it.
lint: venv
	$(PY) -m ruff check judge tests problems
	$(PY) -m mypy

bench: setup
	$(PY) -m tests.bench

# The judge image with podman (docker when podman is absent); see docs/containers.md.
image: setup
	images/build.sh

clean:
	rm -rf $(VENV) build *.egg-info judge/_native*.so judge/_bin images/wheels
