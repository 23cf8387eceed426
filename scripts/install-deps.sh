#!/bin/sh
# Installs what building and testing rtipc needs, from Debian's packages,
# when it is missing. Safe to run again: it installs nothing that is present.
set -eu

need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in "$@"; do
    have_pkg "$pkg" || need="$need $pkg"
done
[ -z "$need" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "rtipc: missing Debian packages:$need" >&2
    echo "rtipc: run as root, or install them with: sudo apt-get install$need" >&2
    exit 1
fi
echo "rtipc: installing$need" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $need >/dev/null
