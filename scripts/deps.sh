#!/bin/sh
# Installs the Debian packages the tests need, when they are missing.
need=""
[ -f /usr/include/cmocka.h ] || need="$need libcmocka-dev"
[ -z "$need" ] && exit 0
echo "deps: installing$need" >&2
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq >/dev/null && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
