// swift-tools-version: 6.1
import PackageDescription

// The library package. An app that depends on its SQLite and testing
// products resolves GRDB and nothing else. The worked example, the demo, the
// benchmarks and the torture are a second package, Tools/, which an app never
// resolves.
//
// The code generator (`txkit init|inventory|shim|mock|convert`) and its command
// plugin are here, behind the `Txkit` trait, off by default: an app fetches
// this package by URL, and such a package cannot depend on another by path,
// so the plugin and the executable it runs must be targets of this package.
// Its tests and fixtures are here too: `swift test --traits Txkit`.
// swift-syntax and swift-argument-parser are used only when the trait is on;
// without it SwiftPM resolves neither, and the generator's targets compile to
// empty modules (their sources are under `#if Txkit`). An app that wants the
// plugin opts in:
//     .package(url: "…/TransactionKit", from: "…", traits: ["Txkit"])
// and runs `swift package txkit inventory`.
//
// The PostgreSQL backend is behind the `Postgres` trait, off by default:
// postgres-nio (and swift-log) are used only by targets that enable it,
// and SwiftPM neither resolves nor builds a dependency that only disabled
// traits use. A server app opts in:
//     .package(url: "…/TransactionKit", from: "…", traits: ["Postgres"])
// and this package's own PostgreSQL tests run with
//     Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'
let package = Package(
    name: "TransactionKit",
    // The floor: the apps that have legacy finders to migrate are old ones.
    // A newer API is used only behind `@available` / `#available`, which
    // the availability audit checks on Linux (Scripts/ci/availability.sh).
    platforms: [
        .macOS(.v12),
        .iOS(.v15),
        .tvOS(.v15),
        .watchOS(.v8),
    ],
    products: [
        .library(name: "TransactionKit", targets: ["TransactionKit"]),
        .library(name: "TransactionKitSQLite", targets: ["TransactionKitSQLite"]),
        .library(name: "TransactionKitTesting", targets: ["TransactionKitTesting"]),
        .library(name: "TransactionKitSQLiteTesting", targets: ["TransactionKitSQLiteTesting"]),
        .library(name: "TransactionKitPostgres", targets: ["TransactionKitPostgres"]),
        .library(name: "TransactionKitPostgresTesting", targets: ["TransactionKitPostgresTesting"]),
        // The generator, with the `Txkit` trait: `swift package txkit …`,
        // or the `txkit` executable for those who want a binary.
        .plugin(name: "TxkitPlugin", targets: ["TxkitPlugin"]),
        .executable(name: "txkit", targets: ["txkit"]),
        // Not API: for Tools/'s generator benchmark (`txkit-bench generator`)
        // only; everything else in the generator is `package`.
        .library(name: "_TxkitGenerator", targets: ["TxkitGenerator"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "Builds PostgresDB (TransactionKitPostgres) on postgres-nio."
        ),
        .trait(
            name: "Txkit",
            description: "Builds the txkit generator and its command plugin (swift package txkit …) on swift-syntax and swift-argument-parser."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The core: no dependency at all. Its one C helper finds out, only
        // when a misuse happens, whether TransactionKitTesting is linked to
        // record it as a test failure (see Misuse.swift), and holds the
        // atomics the core uses below iOS 18 (AtomicInt.swift).
        .target(name: "CTransactionKitMisuseHook"),
        .target(name: "TransactionKit", dependencies: ["CTransactionKitMisuseHook"]),

        // The production backend, on GRDB and the system SQLite.
        .target(
            name: "TransactionKitSQLite",
            dependencies: [
                "TransactionKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for the prepared transaction statements.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // MockDB and test helpers: TransactionKit only, never GRDB or SQLite.
        .target(
            name: "TransactionKitTesting",
            dependencies: ["TransactionKit"]
        ),

        // Fresh template-copied SQLite databases (SQLiteTemplate), bound to
        // each test in Swift Testing (a trait) and XCTest (a setUp helper);
        // kept out of the production module, which must not link Testing or
        // XCTest.
        .target(
            name: "TransactionKitSQLiteTesting",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for sqlite3_serialize/deserialize.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // The PostgreSQL backend. Without the `Postgres` trait its sources
        // compile to an empty module and nothing of postgres-nio is built.
        .target(
            name: "TransactionKitPostgres",
            dependencies: [
                "TransactionKit",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                // `ConnectionPoolError`, which PostgresClient throws when a
                // lease is cancelled or the pool is shut down.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
            ]
        ),

        // Fresh PostgreSQL databases per test, copied from a migrated
        // template (PostgresTemplate), bound to each test in Swift Testing
        // (a trait) and XCTest (a helper). Empty without the `Postgres` trait.
        .target(
            name: "TransactionKitPostgresTesting",
            dependencies: [
                "TransactionKit",
                "TransactionKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
            ]
        ),

        // The code generator behind `txkit init|inventory|shim|mock|convert`:
        // reads Swift sources with swift-syntax and writes shims, wrappers and
        // mocks, one folder per pipeline stage (Generator.swift names them).
        // Empty without the `Txkit` trait.
        .target(
            name: "TxkitGenerator",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["Txkit"])),
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["Txkit"])),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax", condition: .when(traits: ["Txkit"])),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: ["Txkit"])),
            ]
        ),
        // The generator's subcommands, on swift-argument-parser.
        .target(
            name: "TxkitCommands",
            dependencies: [
                "TxkitGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Txkit"])),
            ]
        ),
        // `txkit`, the executable the plugin runs and a user installs:
        // swift-syntax, swift-argument-parser and Foundation; never GRDB,
        // postgres-nio, Testing or XCTest (Scripts/check-generator-links.sh).
        .executableTarget(
            name: "txkit",
            dependencies: [
                "TxkitCommands",
                "TxkitGeneratorTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Txkit"])),
            ]
        ),
        // `swift package txkit …`: runs txkit on the package's source folders
        // (or an Xcode project's), with write access only for the commands
        // that write.
        .plugin(
            name: "TxkitPlugin",
            capability: .command(
                intent: .custom(
                    verb: "txkit",
                    description: "TransactionKit's generator: init, inventory, shim, mock, convert (add the Txkit trait)."
                )
            ),
            dependencies: ["txkit"],
            path: "Plugins/TxkitPlugin"
        ),

        // What the library's test targets share: the PostgreSQL server of
        // Scripts/with-postgres.sh, the integer stores the async tests run
        // on, the random generator, temporary directories, and what the
        // tests use at the floor instead of newer APIs (a stopwatch for
        // `ContinuousClock`, a flag for `Atomic<Bool>`, suite time limits
        // that Swift Testing has only from macOS 13 / iOS 16). A plain
        // target, not a product: never in an app's graph.
        .target(
            name: "TransactionKitTestSupport",
            dependencies: [
                "TransactionKit",
                "TransactionKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
            ],
            path: "Tests/TransactionKitTestSupport"
        ),

        .testTarget(
            name: "TransactionKitTests",
            dependencies: [
                "TransactionKitTestSupport",
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitTesting",
                // The AsyncDB behaviour suite's PostgreSQL case (trait `Postgres`).
                "TransactionKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Differential testing: random transaction programs run on MockDB
        // and SQLiteDB (and, with the `Postgres` trait, MockDB and
        // PostgresDB), their traces compared. Its generator and shrinker
        // are its own (SplitMix64), not a property-testing package: SwiftPM
        // resolves every dependency a package declares, even one only a
        // test target uses, and an app must resolve GRDB alone.
        .testTarget(
            name: "TransactionKitDifferentialTests",
            dependencies: [
                "TransactionKitTestSupport",
                "TransactionKit",
                "TransactionKitSQLite",
                "TransactionKitTesting",
                "TransactionKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TransactionKitSQLiteTests",
            dependencies: [
                "TransactionKitTestSupport",
                "TransactionKit",
                "TransactionKitSQLite",
                // SQLiteTemplate, for the template's own tests and fresh databases.
                "TransactionKitSQLiteTesting",
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
            dependencies: ["TransactionKitTestSupport", "TransactionKit", "TransactionKitTesting"]
        ),
        .testTarget(
            name: "TransactionKitPostgresTests",
            dependencies: [
                "TransactionKitTestSupport",
                "TransactionKit",
                "TransactionKitTesting",
                "TransactionKitPostgres",
                "TransactionKitPostgresTesting",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
            ]
        ),

        // The generator's tests (`swift test --traits Txkit`; empty without
        // the trait) and its fixtures, in Tests/Fixtures: the golden fixture
        // (legacy types of every shape and the shims, wrappers and mocks
        // generated from them, compiled and tested here), the `shim --apply`
        // fixture before and after, and, read as files, the convert
        // fixture, the plugin consumer and the real-world corpus.
        .testTarget(
            name: "TxkitGeneratorTests",
            dependencies: [
                "TxkitGenerator",
                "TxkitCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Txkit"])),
            ]
        ),
        // What the generator's tests and its fuzzer share: the repository's
        // paths, blocking work on a thread of its own.
        .target(
            name: "TxkitGeneratorTestSupport",
            path: "Tests/TxkitGeneratorTestSupport"
        ),
        // The generator fuzzer (`swift test --traits Txkit --filter
        // generatorFuzz`; Scripts/ci/fuzz.sh): random legacy GRDB apps, their
        // grammar, the harness that builds and runs them, and its oracles.
        // Its regression tests, minimal repros, are the generator's.
        .testTarget(
            name: "TxkitFuzzTests",
            dependencies: ["TxkitGenerator", "TxkitGeneratorTestSupport"]
        ),
        .target(
            name: "GeneratorFixture",
            dependencies: [
                "TransactionKit",
                "TransactionKitSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/Fixtures/Generator/Sources/GeneratorFixture"
        ),
        .testTarget(
            name: "GeneratorFixtureTests",
            dependencies: ["GeneratorFixture", "TransactionKit", "TransactionKitSQLite", "TransactionKitTesting"],
            path: "Tests/Fixtures/Generator/Tests/GeneratorFixtureTests"
        ),
        // `txkit shim --apply` end to end: a legacy consumer as written
        // (ApplyFixtureBefore) and the same consumer after --apply rewrote it
        // for two legacy types (ApplyFixture, with its generated shims),
        // tested on MockDB with the generated mocks and on SQLiteDB with the
        // generated wrappers.
        .target(
            name: "ApplyFixtureBefore",
            dependencies: ["GeneratorFixture", "TransactionKit", "TransactionKitSQLite"],
            path: "Tests/Fixtures/Apply/Before"
        ),
        .target(
            name: "ApplyFixture",
            dependencies: ["GeneratorFixture", "TransactionKit", "TransactionKitSQLite"],
            path: "Tests/Fixtures/Apply/After"
        ),
        .testTarget(
            name: "ApplyFixtureTests",
            dependencies: [
                "ApplyFixture", "ApplyFixtureBefore", "GeneratorFixture",
                "TransactionKit", "TransactionKitSQLite", "TransactionKitTesting",
            ],
            path: "Tests/Fixtures/Apply/Tests/ApplyFixtureTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
