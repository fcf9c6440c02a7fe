import GRDB
import TransactionKit
import TransactionKitSQLite

/// A schema declared once, from which tests get fresh, private, fully
/// migrated in-memory ``/TransactionKitSQLite/SQLiteDB`` values.
///
/// ```swift
/// enum TestDatabases {
///     static let app = SQLiteTemplate(migrator: AppSchema.migrator) { tx in
///         try UserFinder().insert(User(name: "alice"), tx)   // optional fixtures
///     }
/// }
///
/// @Test func sendingAMessageStoresIt() throws {
///     let db = try TestDatabases.app.makeDatabase()   // fresh, migrated, alice inside
///     try ComposeManager(db: db, messages: MessageFinder()).send(Draft(text: "hi"))
/// }
/// ```
///
/// The first ``makeDatabase()`` migrates a database and runs the fixtures
/// once (in one write transaction, after the migrations); every call then
/// returns a private copy of the result, without running migrations.
///
/// **Isolation:** each database is a separate in-memory SQLite database;
/// nothing one test writes is visible to another, in any order or
/// parallelism. The template itself is never handed out.
///
/// **Migrator changes:** `migrator` is an autoclosure, evaluated at every
/// call. A different list of migration identifiers (a migration added,
/// removed, renamed or reordered) gets a template of its own, kept beside
/// the others. Migrations are told apart by identifier only, like GRDB does.
///
/// **Transaction semantics:** those of ``/TransactionKitSQLite/SQLiteDB``.
///
/// **Threads:** `Sendable`; call ``makeDatabase()`` from any thread or task,
/// concurrently. Callers wait while a template is built.
///
/// **Lifetime:** templates live in memory as long as the `SQLiteTemplate`
/// (typically the test process); each database, as long as its `SQLiteDB`.
///
/// - Warning: The fixtures must not call ``makeDatabase()`` on the same
///   template (it would wait for itself forever). A migration whose body
///   depends on run-time state needs a distinct identifier per state.
public final class SQLiteTemplate: Sendable {
    /// The options of every database made from the template.
    public let options: SQLiteDB.Options

    private let migrator: @Sendable () -> DatabaseMigrator
    private let fixtures: (@Sendable (DBWriteTransaction) throws -> Void)?
    // The first makeDatabase() keeps an image of the migrated database's
    // bytes (sqlite3_serialize); every call loads a private copy of it into
    // an empty in-memory connection (sqlite3_deserialize). The image is
    // immutable, so copies are made concurrently, outside the lock, which
    // only guards the lookup of the image by the migrator's identifiers.
    private let state = LockedValue(State())

    private struct State {
        /// Built templates, per list of migration identifiers.
        var templates: [[String]: BuiltTemplate] = [:]
        /// How many templates were built so far.
        var buildCount = 0
    }

    /// A migrated, fixture-filled template: the image of its bytes. The
    /// connection it was captured from is closed once the image is taken.
    struct BuiltTemplate: Sendable {
        let image: SQLiteImage
    }

    /// Declares a template: nothing is migrated until the first
    /// ``makeDatabase()``.
    ///
    /// ```swift
    /// static let template = SQLiteTemplate(migrator: AppSchema.migrator)
    /// ```
    ///
    /// **Thread:** any; the initializer does no work.
    ///
    /// - Parameters:
    ///   - migrator: The schema. Evaluated at each ``makeDatabase()`` to
    ///     notice a changed list of migrations; keep it free of side effects.
    ///   - options: The options of the databases made from the template
    ///     (busy timeout; durability does not apply in memory).
    ///   - fixtures: Seed data, written once into the template inside one
    ///     write transaction, after the migrations. Use the same finders as
    ///     production code, or `SQLiteDB.shimOnlyBridge(_:)` for raw SQL.
    public init(
        migrator: @autoclosure @escaping @Sendable () -> DatabaseMigrator,
        options: SQLiteDB.Options = SQLiteDB.Options(),
        fixtures: (@Sendable (DBWriteTransaction) throws -> Void)? = nil
    ) {
        self.migrator = migrator
        self.options = options
        self.fixtures = fixtures
    }

    /// Returns a fresh, private, fully migrated in-memory database holding
    /// the fixtures.
    ///
    /// ```swift
    /// let db = try TestDatabases.app.makeDatabase()
    /// ```
    ///
    /// **Cost:** after the first call, close to opening an empty in-memory
    /// connection; SQLite then parses the schema at the database's first
    /// statement, as on any new connection. Both are a small fraction of
    /// running the migrations (figures in the Testing guide and
    /// Benchmarks/README.md, `fresh_test_db`).
    ///
    /// **Transaction semantics:** those of ``/TransactionKitSQLite/SQLiteDB``;
    /// the database is already committed at the migrator's last migration,
    /// with the fixtures.
    ///
    /// **Thread:** the calling thread. The first call, and the first call
    /// after the migrator's identifiers changed, migrates the template while
    /// concurrent callers wait.
    ///
    /// **Lifetime:** the database and its data are gone when the returned
    /// `SQLiteDB` is deallocated: there is nothing to clean up.
    ///
    /// - Warning: Do not call it from the template's own fixtures block.
    /// - Returns: A new in-memory `SQLiteDB` that shares nothing with any
    ///   other database.
    /// - Throws: ``/TransactionKit/DBError`` with path `in-memory`: `.migrationFailed` when a
    ///   migration fails, `.other` when the fixtures throw (the error is the
    ///   `underlyingError`), or an open error. A template that failed to
    ///   build is retried at the next call.
    public func makeDatabase() throws(DBError) -> SQLiteDB {
        let template = try builtTemplate()
        let path = "in-memory"
        do {
            let queue = try DatabaseQueue(configuration: options.grdbConfiguration(label: path))
            try queue.writeWithoutTransaction { db in try template.image.restore(into: db) }
            return SQLiteDB(writer: queue, path: path, isInMemory: true)
        } catch {
            throw SQLiteErrors.openError(from: error, path: path)
        }
    }

    /// Builds the template now, if it is not built yet for the current
    /// migrator, so that the first test does not pay for the migrations (or
    /// so that a broken migration is reported once, up front).
    ///
    /// ```swift
    /// try TestDatabases.app.prepare()
    /// ```
    ///
    /// **Thread:** the calling thread; concurrent callers wait for the build.
    ///
    /// - Throws: The errors of ``makeDatabase()``.
    public func prepare() throws(DBError) {
        _ = try builtTemplate()
    }

    // MARK: - Package

    /// The number of templates built so far (one per distinct migrator,
    /// unless a build failed and was retried).
    package var buildCount: Int {
        state.withLock { $0.buildCount }
    }

    /// The number of bytes of the current migrator's template image.
    package func imageByteCount() throws(DBError) -> Int {
        try builtTemplate().image.bytes.count
    }

    // MARK: - Building

    private func builtTemplate() throws(DBError) -> BuiltTemplate {
        let migrator = migrator()
        let identifiers = migrator.migrations
        let result = state.withLock { state -> Result<BuiltTemplate, DBError> in
            if let template = state.templates[identifiers] {
                return .success(template)
            }
            let built = Result { () throws(DBError) in try build(migrator) }
            if case let .success(template) = built {
                state.templates[identifiers] = template
                state.buildCount += 1
            }
            return built
        }
        return try result.get()
    }

    private func build(_ migrator: DatabaseMigrator) throws(DBError) -> BuiltTemplate {
        let db = try SQLiteDB.inMemory(migrator: migrator, options: options)
        if let fixtures {
            do {
                try db.write { tx in try fixtures(tx) }
            } catch {
                throw DBError(
                    kind: .other, operation: .write, path: db.path,
                    message: "the template's fixtures failed: \(error)",
                    underlyingError: error)
            }
        }
        guard let queue = db.writer as? DatabaseQueue else {
            preconditionFailure("SQLiteDB.inMemory is backed by a DatabaseQueue")
        }
        do {
            let image = try queue.writeWithoutTransaction { database in
                try SQLiteImage.serialize(database, migrationIdentifiers: migrator.migrations)
            }
            return BuiltTemplate(image: image)
        } catch {
            throw SQLiteErrors.other(error, path: db.path, operation: .open)
        }
    }
}
