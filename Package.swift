// swift-tools-version: 6.1
import PackageDescription

// The library package. Its only dependency is GRDB, so an app that depends
// on these products resolves GRDB and nothing else. The `txkit` tool, the
// worked example and the benchmarks are a second package, Tools/, because
// SwiftPM resolves every dependency a package declares (used or not) and
// the tools need swift-argument-parser and swift-syntax.
let package = Package(
    name: "TransactionKit",
    platforms: [
        .macOS(.v15),
        .iOS(.v18),
        .tvOS(.v18),
        .watchOS(.v11),
    ],
    products: [
        .library(name: "TransactionKit", targets: ["TransactionKit"]),
        .library(name: "TransactionKitSQLite", targets: ["TransactionKitSQLite"]),
        .library(name: "TransactionKitTesting", targets: ["TransactionKitTesting"]),
        .library(name: "TransactionKitSQLiteTesting", targets: ["TransactionKitSQLiteTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The core: no dependency at all. Its one C helper finds out, only
        // when a misuse happens, whether TransactionKitTesting is linked to
        // record it as a test failure (see Misuse.swift).
        .target(name: "CTransactionKitMisuseHook"),
        .target(name: "TransactionKit", dependencies: ["CTransactionKitMisuseHook"]),

        // The production backend, on GRDB and the system SQLite.
        .target(
            name: "TransactionKitSQLite",
            dependencies: [
                "TransactionKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for sqlite3_serialize/deserialize.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // MockDB and test helpers: TransactionKit only, never GRDB or SQLite.
        .target(
            name: "TransactionKitTesting",
            dependencies: ["TransactionKit"]
        ),

        // Fresh template-copied SQLite databases in Swift Testing (a trait)
        // and XCTest (a setUp helper); kept out of the production module,
        // which must not link Testing or XCTest.
        .target(
            name: "TransactionKitSQLiteTesting",
            dependencies: ["TransactionKit", "TransactionKitSQLite"]
        ),

        .testTarget(
            name: "TransactionKitTests",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TransactionKitSQLiteTests",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_busy_handler, to count a writer's busy waits.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TransactionKitSQLiteTestingTests",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitSQLiteTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TransactionKitTestingTests",
            dependencies: ["TransactionKit", "TransactionKitTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
