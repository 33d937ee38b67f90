#!/bin/bash
# The container engine `make image` and the image tests use, resolved once so that every call
# (build, run, tag, volume, rmi) sees the same image store.
#
#   images/engine.sh     prints the engine's command words, one a line (exit 0),
#                        or one line saying why no engine can run here (exit 1)
#
# JUDGE_ENGINE picks podman or docker (default: podman if installed, else docker).
# podman runs with runc (crun cannot start containers on cgroup v1/hybrid hosts). Its overlay
# driver cannot stack on an overlay file system, which is where its store lives when this runs
# inside a container (container-based CI): then fuse-overlayfs does the mounting where it is
# installed (make setup installs it), else the vfs driver (full copies: slower, more disk).
# JUDGE_STORAGE_DRIVER overrides that choice. docker's daemon picks its own storage driver.
set -uo pipefail

ENGINE=${JUDGE_ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}
command -v "$ENGINE" >/dev/null || { echo "$ENGINE is not installed (make setup installs podman)"; exit 1; }

fs_type_of() {    # the file system a path is on, through its nearest existing ancestor
  local path=$1
  while [ ! -e "$path" ]; do path=$(dirname "$path"); done
  stat -f -c %T "$path"
}

words=("$ENGINE")
case "$(basename "$ENGINE")" in
  podman)
    words+=(--runtime runc)
    if [ "$(id -u)" = 0 ]; then store=/var/lib/containers/storage
    else store=${XDG_DATA_HOME:-$HOME/.local/share}/containers/storage; fi
    driver=${JUDGE_STORAGE_DRIVER:-}
    if [ -z "$driver" ] && [ "$(fs_type_of "$store")" = overlayfs ]; then
      if command -v fuse-overlayfs >/dev/null && [ -c /dev/fuse ]; then driver=fuse-overlayfs
      else driver=vfs; fi
    fi
    case "$driver" in
      "") ;;
      fuse-overlayfs) words+=(--storage-driver overlay
                              --storage-opt "overlay.mount_program=$(command -v fuse-overlayfs)") ;;
      *) words+=(--storage-driver "$driver") ;;
    esac
    ;;
  docker) ;;
  *) echo "JUDGE_ENGINE=$ENGINE: the image is built with podman or docker"; exit 1 ;;
esac

if ! failure=$("${words[@]}" info 2>&1 >/dev/null); then
  echo "'${words[*]} info' fails: $(echo "$failure" | grep -v '^$' | tail -1)"
  exit 1
fi
printf '%s\n' "${words[@]}"
