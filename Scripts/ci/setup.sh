#!/usr/bin/env bash
# Installs what the project needs from Debian's packages, when missing:
# libsqlite3-dev (the system SQLite GRDB links); e2fsprogs (mkfs.ext4) and
# util-linux (losetup, blockdev) for the fault test that makes a storage
# device fail under a commit (cancelled, with the reason, where it cannot
# run); jq, which Scripts/check-corpus-apply.sh reads the corpus oracle with.
# PostgreSQL is installed by Scripts/with-postgres.sh when a stage needs it.
source "$(dirname "$0")/common.sh"

missing=""
for package in libsqlite3-dev e2fsprogs util-linux jq; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
fi
echo "setup: libsqlite3-dev, e2fsprogs, util-linux and jq are installed"
