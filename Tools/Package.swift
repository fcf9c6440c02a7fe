// swift-tools-version: 6.1
import PackageDescription

// The development package: the `txkit` tool, the worked example and the
// benchmarks. It lives apart from the library package at the repository root
// so that an app depending on TransactionKit resolves GRDB and nothing else:
// SwiftPM resolves every dependency a package declares, whether or not the
// app uses the targets behind it, so the tools' dependencies must be
// declared here, not in ../Package.swift. The code generator (`txkit`), its
// tests and fixtures are in ../Package.swift behind the `Txkit` trait; this
// package turns it on only with its own trait `GeneratorBenchmark` (off by
// default), for `txkit-bench generator`, which times the generator: the
// default build and the README's test command compile no swift-syntax.
let package = Package(
    name: "TransactionKitTools",
    // Above the library's floor (iOS 15, macOS 12, tvOS 15, watchOS 8): the
    // tools are never in an app's graph, run on a developer's Mac or on
    // Linux, and use Synchronization's `Atomic` (macOS 15).
    platforms: [
        .macOS(.v15),
    ],
    products: [
        .executable(name: "txkit-demo", targets: ["txkit-demo"]),
        .executable(name: "txkit-bench", targets: ["txkit-bench"]),
        .executable(name: "txkit-torture", targets: ["txkit-torture"]),
    ],
    traits: [
        .trait(
            name: "GeneratorBenchmark",
            description: "`txkit-bench generator`: links the code generator (swift-syntax) to time it."
        ),
    ],
    dependencies: [
        // With the `Postgres` trait: the worked example's async slice, `txkit
        // demo --postgres` and the PostgreSQL benchmarks use PostgresDB.
        // With the `Txkit` trait (under this package's `GeneratorBenchmark`):
        // the generator's module (`_TxkitGenerator`), which `txkit-bench
        // generator` times.
        .package(
            name: "TransactionKit",
            path: "..",
            traits: ["Postgres", .trait(name: "Txkit", condition: .when(traits: ["GeneratorBenchmark"]))]
        ),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The worked example: a small messaging app, its legacy data-access
        // layer, its managers, and both ways of making them testable.
        // snippet:begin package-example-targets
        .target(
            name: "Messaging",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // snippet:end package-example-targets

        // The README's main job: the messaging example end to end
        // (`txkit-demo`, on SQLite; `--postgres URL` on a server). Links
        // neither Testing nor XCTest.
        .executableTarget(
            name: "txkit-demo",
            dependencies: [
                "Messaging",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The crash torture (Guides/Reliability.md): kills writer processes
        // (children of this executable) at random moments and checks that no
        // acknowledged write is lost. Never shipped.
        .executableTarget(
            name: "txkit-torture",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                // `txkit-torture postgres`: the server killed under writes.
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The benchmarks (Benchmarks/README.md): TransactionKit side by side
        // with raw SQLite and plain GRDB, and MockDB. Never shipped.
        .executableTarget(
            name: "txkit-bench",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
                // SQLiteTemplate, for the fresh_test_db benchmark.
                .product(name: "TransactionKitSQLiteTesting", package: "TransactionKit"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                // PostgresTemplate, for the fresh_pg_db benchmark.
                .product(name: "TransactionKitPostgresTesting", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // Plain postgres-nio, the PostgreSQL baseline.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The raw sqlite3 C API, for the baseline.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `txkit-bench generator` times the code generator.
                .product(
                    name: "_TxkitGenerator",
                    package: "TransactionKit",
                    condition: .when(traits: ["GeneratorBenchmark"])
                ),
            ]
        ),

        // snippet:begin package-example-tests
        .testTarget(
            name: "MessagingTests",
            dependencies: [
                "Messaging",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitSQLiteTesting", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "TransactionKitPostgresTesting", package: "TransactionKit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // snippet:end package-example-tests

        // Fresh databases on the server of Scripts/with-postgres.sh, for the
        // integration tests of the async slice and of `txkit demo --postgres`.
        // Never shipped.
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PostgresTestSupport"
        ),
        // The demo's own tests: `txkit-demo --postgres`, run in the test
        // process against the server when one is given.
        .testTarget(
            name: "TxkitDemoTests",
            dependencies: [
                "txkit-demo",
                "Messaging",
                "PostgresTestSupport",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
