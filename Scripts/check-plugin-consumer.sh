#!/usr/bin/env bash
# The command plugin as an app uses it: a copy of Tests/Fixtures/PluginConsumer
# (an app with a legacy finder on GRDB's Database), pointed at this checkout
# by path with the `Txkit` trait, runs
#   swift package txkit inventory                       (no permission asked)
#   swift package txkit init --dry-run                  (proposes Database)
#   swift package txkit shim … --apply --dry-run        (writes nothing)
#   swift package --allow-writing-to-package-directory txkit shim … --apply --verify
#   swift package txkit shim --all --check, then inventory (100 %)
# and then builds and tests the app.
# Usage: Scripts/check-plugin-consumer.sh [WORK_DIR]   (default: a temporary
# folder, removed afterwards; a given one is kept, with its build, for
# Scripts/check-generator-links.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${1:-}" ]; then
    work="$1"
    rm -rf "$work/PluginConsumer"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
app="$work/PluginConsumer"
mkdir -p "$app"
(cd "$root/Tests/Fixtures/PluginConsumer" && tar cf - --exclude=.build --exclude=.swiftpm .) | (cd "$app" && tar xf -)
# The fixture names the checkout as ../../..; the copy names it absolutely.
sed -i "s#path: \"../../..\"#path: \"$root\"#" "$app/Package.swift"
grep -q "path: \"$root\"" "$app/Package.swift"
cd "$app"

fingerprint() { find Sources Tests txkit.json -type f -print0 | sort -z | xargs -0 sha256sum; }

echo "== swift package txkit inventory"
swift package txkit inventory | tee "$work/inventory.log"
grep -q '^OrderManager  *LegacyOrderFinder  *direct$' "$work/inventory.log"
grep -q '^0 of 1 uses migrated' "$work/inventory.log"

echo "== swift package txkit init --dry-run"
swift package txkit init --dry-run | tee "$work/init.log"
grep -q '"type": "Database"' "$work/init.log"
grep -q '"sources": \["Sources/Orders"\]' "$work/init.log"

echo "== swift package txkit shim … --apply --dry-run (writes nothing)"
before=$(fingerprint)
swift package txkit shim --consumer OrderManager --legacy LegacyOrderFinder --apply --dry-run
[ "$before" = "$(fingerprint)" ] || { echo "error: --dry-run changed files" >&2; exit 1; }

echo "== swift package --allow-writing-to-package-directory txkit shim … --apply --verify"
# --verify's swift build runs in the plugin's work folder: in the package's
# .build it waited forever for the lock of the swift package running it.
timeout 1800 swift package --allow-writing-to-package-directory txkit shim --consumer OrderManager --legacy LegacyOrderFinder --apply --verify
grep -q 'OrderManager.Shims.LegacyOrderFinder' Sources/Orders/OrderManager.swift
test -f Sources/Orders/Shortcuts/OrderManager/OrderManager_LegacyOrderFinderWrapper.swift
test -f Tests/OrdersTests/Mocks/OrderManager_LegacyOrderFinderMock.swift

echo "== swift package txkit shim --all --check, inventory"
swift package txkit shim --all --check
swift package txkit inventory | tee "$work/inventory-after.log"
grep -q '^1 of 1 uses migrated (100 %)' "$work/inventory-after.log"

echo "== the app builds and its tests pass after --apply"
swift build --build-tests
swift test --skip-build
echo "plugin consumer: inventory, init, shim --apply through the plugin; the app builds and passes its tests"
