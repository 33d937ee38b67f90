#!/bin/bash
# Builds the judge image (images/Containerfile) with the engine images/engine.sh resolves.
#
#   images/build.sh            what `make image` runs; prints the image name on the last line
#
# No registry is reachable from the machines this runs on, so the Debian 12 base is made here:
# mmdebstrap builds a minimal bookworm root from the host's own apt mirror and it is imported
# as $JUDGE_BASE_IMAGE, once (delete that image to rebuild it). The judge image is tagged with
# a hash of everything that goes into it, and is not rebuilt while that hash is unchanged.
#
# Environment: JUDGE_IMAGE (default localhost/judge), JUDGE_BASE_IMAGE (default
# localhost/judge-base:bookworm), JUDGE_ENGINE and JUDGE_STORAGE_DRIVER (images/engine.sh),
# JUDGE_MIRROR (default: the Debian mirror of the host's apt sources), PYTHON (default .venv's).
set -euo pipefail

die() { echo "images/build.sh: $*" >&2; exit 2; }
log() { echo "images/build.sh: $*" >&2; }

cd "$(dirname "$0")/.."
IMAGE=${JUDGE_IMAGE:-localhost/judge}
BASE=${JUDGE_BASE_IMAGE:-localhost/judge-base:bookworm}
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || die "$PYTHON is missing: run 'make setup' first"
# The engine with its runtime and storage options (images/engine.sh), the same for every call.
engine_words=$(images/engine.sh) || die "no container engine can run here: $engine_words"
mapfile -t ENGINE <<<"$engine_words"
log "engine: ${ENGINE[*]}"

image_exists() { "${ENGINE[@]}" image inspect "$1" >/dev/null 2>&1; }

# --- the base: a minimal Debian 12 from the host's mirror ------------------------------------
if ! image_exists "$BASE"; then
  command -v mmdebstrap >/dev/null || {
    [ "$(id -u)" = 0 ] || die "mmdebstrap is missing (apt-get install mmdebstrap as root)"
    log "installing mmdebstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
  }
  uris=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/{print $2}'
            cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '/^deb /{print $2}'; } \
          | grep -E '/debian(-security)?/?$' || true)
  mirror=${JUDGE_MIRROR:-$(echo "$uris" | grep -v security | head -1)}
  security=$(echo "$uris" | grep security | head -1)
  [ -n "$mirror" ] || die "no Debian mirror in the host's apt sources: set JUDGE_MIRROR"
  security=${security:-${mirror%/}-security}
  mkdir -p build/image
  tarball=build/image/base.tar
  log "building the base $BASE from $mirror (mmdebstrap, a few minutes)"
  # No documentation in the base (nor in what is installed on it later: the dpkg settings stay).
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --aptopt='Acquire::Languages "none"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    bookworm "$tarball" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main"
  "${ENGINE[@]}" import --change 'CMD ["/bin/bash"]' "$tarball" "$BASE" >/dev/null
  rm -f "$tarball"
fi

# --- the Python dependencies: pinned to the tested .venv, downloaded with the host's pip ------
wheels=images/wheels
mkdir -p "$wheels"
# The judge's own requirements are part of the key: a dependency added to pyproject.toml that the
# .venv already had would otherwise leave the old download in place, without it.
{ echo "# pyproject.toml $(sha256sum pyproject.toml | cut -c1-16)"
  "$PYTHON" -m judge.languages.install python-requirements | sed 's/^/# python-env /'
  "$PYTHON" -m pip freeze --all --exclude-editable | grep -v '^judge[= @]'; } > "$wheels/constraints.txt.new"
if ! cmp -s "$wheels/constraints.txt.new" "$wheels/constraints.txt"; then
  log "downloading the Python dependencies into $wheels"
  rm -f "$wheels"/*.whl "$wheels"/*.tar.gz "$wheels"/*.zip
  # (the host's extra file:// indexes that lack a package are reported per package: noise)
  "$PYTHON" -m pip download --quiet --dest "$wheels" --constraint "$wheels/constraints.txt.new" \
    . pip setuptools wheel 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2) \
    || die "pip download of the dependencies failed"
  # The Python environments (judge/languages/python_env.py): wheels for the image's CPython,
  # one requirement at a time (two environments may pin two versions of one package).
  "$PYTHON" -m judge.languages.install python-requirements | xargs -r -n 1 "$PYTHON" -m pip download --quiet \
    --dest "$wheels" --only-binary=:all: --no-deps 2> >(grep -v "is ignored: it is neither" >&2) \
    || die "pip download of the Python environments failed"
fi
mv "$wheels/constraints.txt.new" "$wheels/constraints.txt"

# --- the runtime layer's Node packages (jest, lodash...): pinned by the lock file, installed here ---
node=images/node
if ! cmp -s judge/languages/node/package-lock.json "$node/.installed"; then
  log "installing the runtime layer's Node packages into $node (npm ci)"
  rm -rf "$node" && mkdir -p "$node"
  cp judge/languages/node/package.json judge/languages/node/package-lock.json "$node/"
  npm ci --prefix "$node" --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci of the runtime layer's Node packages failed"
  cp judge/languages/node/package-lock.json "$node/.installed"
fi

# --- the judge image, tagged with a hash of its inputs ----------------------------------------
inputs=(pyproject.toml setup.py README.md LICENSE native judge images/Containerfile)
sources=$( { git ls-files -co --exclude-standard -- "${inputs[@]}" 2>/dev/null \
             || find "${inputs[@]}" -type f ! -path '*/__pycache__/*' ! -name '*.so' ! -path 'judge/_bin/*'; } \
           | sort | while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done)
key=$( { echo "$sources" | xargs sha256sum; cat "$wheels/constraints.txt"; "${ENGINE[@]}" image inspect --format '{{.Id}}' "$BASE"; } \
       | sha256sum | cut -c1-12)
if image_exists "$IMAGE:$key"; then
  log "$IMAGE:$key is up to date"
else
  log "building $IMAGE:$key"
  # The docker image format keeps the Containerfile's HEALTHCHECK (OCI has no health checks).
  FORMAT=()
  [ "$(basename "${ENGINE[0]}")" = podman ] && FORMAT=(--format docker)
  # The build's own network is the host's: an engine nested in a container (container-based
  # CI) often has no working bridge or NAT of its own, and apt-get then waits forever.
  "${ENGINE[@]}" build "${FORMAT[@]}" --network host --build-arg BASE="$BASE" -f images/Containerfile -t "$IMAGE:$key" .
fi
"${ENGINE[@]}" tag "$IMAGE:$key" "$IMAGE:latest"
# Images of earlier trees are each some hundred MB of their own layers.
for old in $("${ENGINE[@]}" images --format '{{.Repository}}:{{.Tag}}' "$IMAGE"); do
  case "$old" in "$IMAGE:$key"|"$IMAGE:latest") ;; *) "${ENGINE[@]}" rmi "$old" >/dev/null || true ;; esac
done
echo "$IMAGE:$key"
