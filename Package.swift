// swift-tools-version: 6.1
import PackageDescription

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
        .executable(name: "txkit", targets: ["txkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The core: no dependency at all.
        .target(name: "TransactionKit"),

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

        // The worked example: a small messaging app, its legacy data-access
        // layer, its managers, and both ways of making them testable.
        // snippet:begin package-example-targets
        .target(
            name: "Messaging",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // snippet:end package-example-targets

        // Fresh template-copied SQLite databases in Swift Testing (a trait)
        // and XCTest (a setUp helper); kept out of the production module,
        // which must not link Testing or XCTest.
        .target(
            name: "TransactionKitSQLiteTesting",
            dependencies: ["TransactionKit", "TransactionKitSQLite"]
        ),

        .executableTarget(
            name: "txkit",
            dependencies: [
                "Messaging",
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw sqlite3 C API, for the benchmarks' baseline.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
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
        // snippet:begin package-example-tests
        .testTarget(
            name: "MessagingTests",
            dependencies: [
                "Messaging",
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitSQLiteTesting",
                "TransactionKitTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // snippet:end package-example-tests
    ],
    swiftLanguageModes: [.v6]
)
