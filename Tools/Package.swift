// swift-tools-version: 6.1
import PackageDescription

// The development package: the `txkit` tool, the worked example and the
// benchmarks. It lives apart from the library package at the repository root
// so that an app depending on TransactionKit resolves GRDB and nothing else:
// SwiftPM resolves every dependency a package declares, whether or not the
// app uses the targets behind it, so the tools' dependencies must be
// declared here, not in ../Package.swift. The code generator is the
// exception: its targets (on swift-syntax and swift-argument-parser) are in
// ../Package.swift behind the `Txkit` trait, for the command plugin (see
// there); this package enables the trait.
let package = Package(
    name: "TransactionKitTools",
    platforms: [
        .macOS(.v15),
    ],
    products: [
        .executable(name: "txkit", targets: ["txkit"]),
        .executable(name: "txkit-bench", targets: ["txkit-bench"]),
        .executable(name: "txkit-torture", targets: ["txkit-torture"]),
    ],
    dependencies: [
        // With the `Postgres` trait: the worked example's async slice, `txkit
        // demo --postgres` and the PostgreSQL benchmarks use PostgresDB.
        // With the `Txkit` trait: the generator (TxkitGenerator) and its
        // commands (TxkitCommands), declared in the root package for the
        // command plugin; its sources stay in Sources/TxkitGenerator here.
        .package(name: "TransactionKit", path: "..", traits: ["Postgres", "Txkit"]),
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

        // The tool of this package: the demo and the generator's commands
        // (init, inventory, shim, mock, from the root package's
        // TxkitCommands). Links neither Testing nor XCTest.
        .executableTarget(
            name: "txkit",
            dependencies: [
                "Messaging",
                .product(name: "TxkitCommands", package: "TransactionKit"),
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
                .product(name: "GRDB", package: "GRDB.swift"),
                // Plain postgres-nio, the PostgreSQL baseline.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The raw sqlite3 C API, for the baseline.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `txkit-bench generator` times the code generator.
                .product(name: "TxkitGenerator", package: "TransactionKit"),
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
                "PostgresTestSupport",
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
        // The tool's own tests: `txkit demo --postgres`, run in the test
        // process against the server when one is given.
        .testTarget(
            name: "TxkitTests",
            dependencies: [
                "txkit",
                "Messaging",
                "PostgresTestSupport",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitPostgres", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),

        // The generator's golden fixture: legacy types of every shape the
        // generator must handle (GeneratorFixture/Legacy), and the shims,
        // wrappers and mocks `txkit` generated from them, compiled here and
        // checked byte for byte by TxkitGeneratorTests
        // (Fixtures/Generator/txkit.json).
        .target(
            name: "GeneratorFixture",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "GeneratorFixtureTests",
            dependencies: [
                "GeneratorFixture",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
        // `txkit shim --apply` end to end: a legacy consumer as written
        // (ApplyFixtureBefore) and the same consumer after --apply rewrote
        // it for two legacy types (ApplyFixture, with its generated shims;
        // Fixtures/Apply/txkit.json), tested on MockDB with the generated
        // mocks and on SQLiteDB with the generated wrappers.
        .target(
            name: "ApplyFixtureBefore",
            dependencies: [
                "GeneratorFixture",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
            ],
            path: "Fixtures/Apply/Before"
        ),
        .target(
            name: "ApplyFixture",
            dependencies: [
                "GeneratorFixture",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
            ],
            path: "Fixtures/Apply/After"
        ),
        .testTarget(
            name: "ApplyFixtureTests",
            dependencies: [
                "ApplyFixture",
                "ApplyFixtureBefore",
                "GeneratorFixture",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
        .testTarget(
            name: "TxkitGeneratorTests",
            dependencies: [
                .product(name: "TxkitGenerator", package: "TransactionKit"),
                .product(name: "TxkitCommands", package: "TransactionKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
