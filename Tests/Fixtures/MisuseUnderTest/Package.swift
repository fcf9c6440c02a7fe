// swift-tools-version: 6.1
import PackageDescription

// A test package that makes every programmer error on purpose, beside tests
// that pass. TransactionKitTestingTests runs it with `swift test` in a
// subprocess and checks the summary: each misuse fails its own test at its
// call site, the other tests pass, and both runners reach their summary.
let package = Package(
    name: "MisuseUnderTest",
    // TransactionKit's floor: an app at it can depend on the package.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        .package(name: "TransactionKit", path: "../../.."),
    ],
    targets: [
        .testTarget(
            name: "MisuseUnderTestTests",
            dependencies: [
                .product(name: "TransactionKit", package: "TransactionKit"),
                .product(name: "TransactionKitSQLite", package: "TransactionKit"),
                .product(name: "TransactionKitTesting", package: "TransactionKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
