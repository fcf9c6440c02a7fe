// swift-tools-version: 6.1
import PackageDescription

// An app as a team has it, using TransactionKit's command plugin:
// Scripts/check-plugin-consumer.sh runs `swift package txkit inventory` and
// `swift package --allow-writing-to-package-directory txkit shim … --apply`
// on a copy of it, then builds the copy. It depends on the repository's root
// package by path (the script points the copy at this checkout), with the
// `Txkit` trait that builds the generator the plugin runs.
let package = Package(
    name: "PluginConsumer",
    // TransactionKit's floor: an app at it can depend on the package.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        // `name:` because the folder is not named like the package.
        .package(name: "TransactionKit", path: "../../..", traits: ["Txkit"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "Orders",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "OrdersTests",
            dependencies: [
                "Orders",
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
