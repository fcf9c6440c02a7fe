#!/usr/bin/env bash
# Measures what a fresh database costs a test, in a debug build (the build
# `swift test` uses): MockDB, SQLiteDB.inMemory with the example's migrator,
# and a file SQLiteDB in a new directory. Each case creates a database, runs
# one manager call on it, and drops it. Prints means; asserts nothing.
#
# Usage: Scripts/measure-test-databases.sh [iterations]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations="${1:-200}"

# The example lives in the tools package.
cd Tools
swift build --target Messaging >/dev/null
swift build --target TransactionKitTesting >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grdb_sqlite=$(dirname "$(find .build/checkouts/GRDB.swift -name module.modulemap -path '*GRDBSQLite*' | head -1)")

cat > "$work/main.swift" <<'SWIFT'
import Foundation
import Messaging
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

struct InstantUsers: AccountManager_LegacyUserFinderShim {
    func user(id: Int64, _ tx: DBReadTransaction) throws -> User? { nil }
    func user(named name: String, _ tx: DBReadTransaction) throws -> User? { nil }
    func insertUser(named name: String, _ tx: DBWriteTransaction) throws -> User { User(id: 1, name: name) }
    func setBlocked(_ isBlocked: Bool, userID: Int64, _ tx: DBWriteTransaction) throws {}
}

struct Silent: MessageNotifying {
    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {}
}

func measure(_ label: String, _ iterations: Int, _ body: () throws -> Void) rethrows {
    try body()  // warm-up
    let clock = ContinuousClock()
    let elapsed = try clock.measure { for _ in 0..<iterations { try body() } }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perRun = String(format: "%9.3f", seconds * 1000 / Double(iterations))
    print("\(label.padding(toLength: 46, withPad: " ", startingAt: 0))\(perRun) ms per test database (\(iterations) runs)")
}

let iterations = Int(CommandLine.arguments[1])!
let temporary = FileManager.default.temporaryDirectory

try measure("MockDB + mocked finder", iterations) {
    _ = try AccountManager(db: MockDB(), users: InstantUsers()).register(name: "Alice")
}
try measure("SQLiteDB.inMemory + migrator + live wiring", iterations) {
    let db = try SQLiteDB.inMemory(migrator: MessagingSchema.migrator)
    _ = try MessagingServices.live(db: db, notifier: Silent()).accounts.register(name: "Alice")
}
try measure("file SQLiteDB (WAL) + migrator + live wiring", max(1, iterations / 4)) {
    let directory = temporary.appendingPathComponent("measure-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = try SQLiteDB(path: directory.appendingPathComponent("db.sqlite").path, migrator: MessagingSchema.migrator)
    _ = try MessagingServices.live(db: db, notifier: Silent()).accounts.register(name: "Alice")
}
SWIFT

swiftc -Onone -I "$bin/Modules" -I "$grdb_sqlite" \
    -Xcc -fmodule-map-file="$bin/CTransactionKitMisuseHook.build/module.modulemap" "$work/main.swift" -o "$work/measure" \
    "$bin"/CTransactionKitMisuseHook.build/*.o "$bin"/TransactionKit.build/*.o "$bin"/TransactionKitSQLite.build/*.o "$bin"/TransactionKitTesting.build/*.o \
    "$bin"/Messaging.build/*.o "$bin"/GRDB.build/*.o -lsqlite3
"$work/measure" "$iterations"
