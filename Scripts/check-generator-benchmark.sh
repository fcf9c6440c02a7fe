#!/usr/bin/env bash
# Type-checks `txkit-bench generator` (Tools/Sources/txkit-bench, the files
# under `#if GeneratorBenchmark`) against the generator module of the root
# package's build (Txkit trait), as the tools package compiles them with its
# trait `GeneratorBenchmark`. CI builds the tools package without that
# trait, so that it compiles no swift-syntax; this keeps the benchmark in
# step with the generator's API for a second's work.
#
#   Scripts/check-generator-benchmark.sh [BUILD_PATH]   (default: .build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-.build}
modules="$build/debug/Modules"
shims="$build/checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include"
for needed in "$modules/TxkitGenerator.swiftmodule" "$modules/ArgumentParser.swiftmodule" "$shims/module.modulemap"; do
    [ -e "$needed" ] || { echo "error: $needed is missing: build the root package first (swift build --traits Txkit)" >&2; exit 1; }
done
bench=Tools/Sources/txkit-bench
swiftc -typecheck -parse-as-library -swift-version 6 -D GeneratorBenchmark \
    -I "$modules" -Xcc -fmodule-map-file="$shims/module.modulemap" -Xcc -I"$shims" \
    "$bench/GeneratorBenchmarkCommand.swift" "$bench/GeneratorCorpus.swift" "$bench/RealSourcesInventory.swift"
echo "generator benchmark: type-checks against $modules/TxkitGenerator.swiftmodule"
