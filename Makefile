# Everything the project needs is installed from here; nothing by hand.
# The system interpreter: world-readable, so the unprivileged-mode tests can run it too.
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
VENV   ?= .venv
PY      = $(VENV)/bin/python
# The judge's build and tests; podman, runc and, for a store inside a container (overlay on
# overlay), fuse-overlayfs for the image (images/engine.sh).
APT_PACKAGES = build-essential libseccomp-dev python3-dev python3-venv bubblewrap chromium \
               podman runc fuse-overlayfs clang-format $(LANGUAGE_PACKAGES)
# Every language's toolchain: the `packages` of its entry in judge/languages/registry.py
# (tests/test_languages.py holds this list to them). About 1 GB to download, 3 GB installed.
# The libraries SandboxFusion's runtime adds are not among them: they are the runtime layer
# (runtime-layer, python-envs, node-envs below), which only the compatible profile sees.
LANGUAGE_PACKAGES = g++ gcc python3 pypy3 openjdk-17-jdk-headless kotlin scala mono-mcs \
                    mono-runtime rustc golang-go nodejs node-typescript php-cli ruby perl lua5.4 \
                    r-base-core bash racket ghc ocaml-nox fp-compiler gdc iverilog \
                    python3-pytest junit5
# podman's default ulimits (nofile 1048576) exceed what this kind of host allows and make every
# container fail to start; a drop-in file leaves the user's own containers.conf alone.
CONTAINERS_CONF = /etc/containers/containers.conf.d/50-judge.conf

.PHONY: setup system containers-conf venv runtime-layer python-envs node-envs native test test-fast lint sanitize bench image clean

setup: system containers-conf venv runtime-layer python-envs node-envs

# Installs missing Debian packages when run as root; otherwise only reports them. Container base
# images that leave out man pages lack man1, where openjdk's postinst links its own.
system:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "apt: installing$$missing"; \
	    mkdir -p /usr/share/man/man1; \
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

# Every C source and header, in native/'s folders (one per product: supervisor/, checkers/,
# probes/, shared/).
NATIVE_SOURCES := $(shell find native -name '*.[ch]')

$(VENV)/.installed: pyproject.toml setup.py $(NATIVE_SOURCES) native/*.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel cffi
	$(PY) -m pip install -q -e '.[test,lint,ray]'
	touch $@

venv: $(VENV)/.installed

# The runtime layer's Debian libraries (boost, javatuples, testify, Test::Deep, luaunit) and
# what they need, unpacked into /usr/local/lib/judge/debian (judge/languages/runtime.py; sizes
# and times in docs/runtime-layer.md). Only the compatible profile's flags and paths name them.
runtime-layer: system venv
	@if [ "$$(id -u)" = 0 ]; then $(PY) -m judge.languages.install debian; \
	else $(PY) -m judge.languages.install debian-missing; fi

# The modules Python programs may import beyond the standard library, per benchmark (numpy for
# LiveCodeBench) and for the compatible profile (SandboxFusion's scientific stack), from PyPI
# wheels into /usr/local/lib/judge/python
# (judge/languages/python_env.py). The heavy optional ones only when named:
# make setup PYTHON_EXTRAS=sandboxfusion-ml (PyTorch, CPU).
PYTHON_EXTRAS ?=
python-envs: venv
	@if [ "$$(id -u)" = 0 ]; then \
	  $(PY) -m judge.languages.install python $(addprefix --with=,$(PYTHON_EXTRAS)); \
	else $(PY) -m judge.languages.install python-missing $(addprefix --with=,$(PYTHON_EXTRAS)); fi

# The runtime layer's Node packages: SandboxFusion's jest runner (jest, babel) and the libraries
# its JavaScript imports (lodash...), pinned by judge/languages/node's lock file, into
# /usr/local/lib/judge/node (judge/languages/runtime.py). Without
# npm, or not as root, only said: jest is then unavailable, JavaScript's compatible profile too.
NODE_RUNTIME = /usr/local/lib/judge/node
node-envs: system
	@if ! cmp -s judge/languages/node/package-lock.json $(NODE_RUNTIME)/.installed; then \
	  if [ "$$(id -u)" = 0 ] && command -v npm >/dev/null; then \
	    echo "npm: installing the runtime layer's Node packages into $(NODE_RUNTIME)"; \
	    rm -rf $(NODE_RUNTIME) && mkdir -p $(NODE_RUNTIME) && \
	    cp judge/languages/node/package.json judge/languages/node/package-lock.json $(NODE_RUNTIME)/ && \
	    npm ci --prefix $(NODE_RUNTIME) --no-audit --no-fund --loglevel=error >/dev/null && \
	    cp judge/languages/node/package-lock.json $(NODE_RUNTIME)/.installed; \
	  else echo "the runtime layer's Node packages are not installed in $(NODE_RUNTIME) (make setup as root, with npm)" >&2; fi; \
	fi

native: venv
	$(PY) setup.py -q build_ext --inplace

# The whole suite in the default cgroup mode (JUDGE_CGROUP, else auto), then the sandbox,
# hostile and grading suites again in the no-cgroup mode, which hosts without cgroups get.
test: setup
	$(PY) -m pytest -q -rs --durations=15 tests
	JUDGE_CGROUP=none $(PY) -m pytest -q tests/test_sandbox_limits.py \
	  tests/test_sandbox_hostile.py tests/test_grading.py tests/test_languages.py

# The edit-test loop: everything but the slow, Java and browser tests (markers in tests/conftest.py).
test-fast: setup
	$(PY) -m pytest -q -x -m "not slow and not java and not browser" tests

# ruff (style, imports, likely bugs) and mypy (types) over the package and the tests, and
# clang-format (.clang-format) over native/; CI runs it.
lint: system venv
	$(PY) -m ruff check judge tests problems
	$(PY) -m mypy
	clang-format --style=file --dry-run --Werror $(NATIVE_SOURCES)

# ASan and UBSan on the executables: the supervisor and judge-check are built with both into
# SANITIZE_DIR, then the sandbox, hostile and protocol suites run against that supervisor
# (JUDGE_SUPERVISOR), in the default cgroup mode and in the no-cgroup one, and the checker
# binary's tests against that judge-check (JUDGE_CHECK). ASan works in every part of the
# supervisor, the sandbox's init inside the namespaces included, so no part falls back to UBSan
# alone. The judged programs carry no sanitizer: each run execs a program of its own with the
# environment its request names, so neither the runtime nor ASAN_OPTIONS follows it.
# A report made as a supervisor exits (a leak) fails no test, so the supervisor's stderr goes to
# SANITIZE_DIR/reports.log through a wrapper (opened on the host, it stays valid inside the
# namespaces), and any report there fails the target.
SANITIZE_DIR   ?= build/sanitize
SANITIZE_FLAGS  = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
SANITIZE_ENV    = ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
                  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                  JUDGE_SUPERVISOR=$(abspath $(SANITIZE_DIR))/judge-supervisor-logged \
                  JUDGE_CHECK=$(abspath $(SANITIZE_DIR))/judge-check
SANITIZE_SUITES = tests/test_sandbox_limits.py tests/test_sandbox_hostile.py tests/test_protocol.py

sanitize: native
	rm -rf $(SANITIZE_DIR)
	$(PY) native/build_native.py --bin-dir $(SANITIZE_DIR) --extra-cflags "$(SANITIZE_FLAGS)"
	printf '%s\n' '#!/bin/sh' \
	  'exec "$$(dirname "$$0")/judge-supervisor" "$$@" 2>>"$$(dirname "$$0")/reports.log"' \
	  > $(SANITIZE_DIR)/judge-supervisor-logged
	chmod +x $(SANITIZE_DIR)/judge-supervisor-logged
	$(SANITIZE_ENV) $(PY) -m pytest -q $(SANITIZE_SUITES)
	$(SANITIZE_ENV) JUDGE_CGROUP=none $(PY) -m pytest -q $(SANITIZE_SUITES)
	$(SANITIZE_ENV) $(PY) -m pytest -q tests/test_checkers.py -k binary
	@if grep -qE "Sanitizer|runtime error" $(SANITIZE_DIR)/reports.log 2>/dev/null; then \
	  cat $(SANITIZE_DIR)/reports.log; echo "sanitizer reports above" >&2; exit 1; fi

bench: setup
	$(PY) -m tests.bench

# The judge image with the engine images/engine.sh picks (JUDGE_ENGINE); see docs/containers.md.
image: setup
	images/build.sh

clean:
	rm -rf $(VENV) build *.egg-info judge/_native*.so judge/_bin images/wheels images/node
