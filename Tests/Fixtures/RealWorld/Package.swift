// swift-tools-version: 6.1
import PackageDescription

// The real-world corpus of `txkit` (README.md beside this file): three small
// apps whose data-access code has the shapes public Swift apps use, each with
// its legacy layer, its managers and a test target for generated mocks.
// `oracle.json` says, for every manager → legacy pair, what `txkit shim`,
// `txkit inventory` and `txkit shim --apply` must produce.
let package = Package(
    name: "RealWorldCorpus",
    // TransactionKit's floor: an app at it can depend on the package.
    platforms: [
        .macOS(.v12),
        .iOS(.v15),
        .tvOS(.v15),
        .watchOS(.v8),
    ],
    dependencies: [
        .package(name: "TransactionKit", path: "../../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // A messaging app with two legacy transaction types (read, and a
        // write subclass), static and instance finders, extensions in other
        // files, a shared superclass, overloads and nested result types.
        .target(
            name: "Chatter",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["txkit.json"]
        ),
        // An app whose legacy layer passes GRDB's `Database` itself:
        // static fetchers, optional database parameters, singletons.
        .target(
            name: "Relay",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["txkit.json"]
        ),
        // A Core Data-shaped app: the legacy transaction is a context
        // object (`ManagedContext`, a stand-in for NSManagedObjectContext).
        .target(
            name: "Shelf",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["txkit.json"]
        ),
        .testTarget(
            name: "ChatterTests",
            dependencies: [
                "Chatter",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
        .testTarget(
            name: "RelayTests",
            dependencies: [
                "Relay",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
        .testTarget(
            name: "ShelfTests",
            dependencies: [
                "Shelf",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
