/// A write broke a constraint of the schema: a taken unique value, a missing
/// foreign key, a `NULL` in a `NOT NULL` column, a failed `CHECK`.
///
/// It is an error about the data, not a storage fault: the manager decides
/// what it means (a taken user name, a duplicate key) without importing
/// GRDB, and a mock throws the same value in a unit test on `MockDB`.
///
/// ```swift
/// do {
///     return try db.write { tx in try users.insertUser(named: name, tx) }
/// } catch let violation as DBConstraintViolation where violation.kind == .unique {
///     throw AccountError.nameTaken(name)
/// }
///
/// // In a unit test, the mock throws it:
/// users.insertUser.fails(with: DBConstraintViolation(kind: .unique, table: "user", columns: ["name"]))
/// ```
///
/// **Transaction semantics:** `write` throws it once the transaction is
/// rolled back, whether SQLite found the violation at a statement inside the
/// block or at `COMMIT` (a deferred foreign key). Inside the block, the
/// finder's own error (GRDB's `DatabaseError`) is what propagates; catch the
/// violation around `write`.
public struct DBConstraintViolation: Error, Sendable, CustomStringConvertible {
    /// Which kind of constraint.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `UNIQUE` constraint or unique index: the value is taken.
        case unique
        /// The primary key: a row with this key exists.
        case primaryKey
        /// A foreign key: the referenced row does not exist, or is still
        /// referenced.
        case foreignKey
        /// A `NOT NULL` column received `NULL`.
        case notNull
        /// A `CHECK` constraint.
        case check
        /// Another constraint (a trigger's `RAISE`, a rowid constraint, …).
        case other
    }

    /// Which kind of constraint was violated.
    public var kind: Kind
    /// The table, when the storage names it (SQLite does for unique, primary
    /// key and not-null constraints; not for foreign keys).
    public var table: String?
    /// The columns, when the storage names them, in the constraint's order.
    public var columns: [String]
    /// The constraint's name or expression, for a `CHECK` constraint.
    public var constraint: String?
    /// The database path, `in-memory`, or a mock's label.
    public var path: String
    /// The storage engine's own message.
    public var message: String
    /// The original error, when there was one.
    public var underlyingError: (any Error)?

    /// Creates a violation. Backends create them; mocks create them to
    /// stand for the storage in unit tests.
    ///
    /// - Parameters:
    ///   - kind: The kind of constraint.
    ///   - table: The table, if known.
    ///   - columns: The columns, if known.
    ///   - constraint: A `CHECK` constraint's name or expression, if known.
    ///   - path: The database, as errors name it; defaults to `"test double"`,
    ///     for a violation a mock stands in for.
    ///   - message: The storage's message; empty by default.
    ///   - underlyingError: The original error, if any.
    public init(
        kind: Kind,
        table: String? = nil,
        columns: [String] = [],
        constraint: String? = nil,
        path: String = "test double",
        message: String = "",
        underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.table = table
        self.columns = columns
        self.constraint = constraint
        self.path = path
        self.message = message
        self.underlyingError = underlyingError
    }

    /// One line: which constraint, where, and the storage's message.
    public var description: String {
        var target = table ?? ""
        if !columns.isEmpty {
            target += "(" + columns.joined(separator: ", ") + ")"
        }
        if let constraint {
            target += target.isEmpty ? constraint : " " + constraint
        }
        var text = "\(kind.summary) constraint violated"
        if !target.isEmpty {
            text += " on \(target)"
        }
        text += " in \(DBError.escaped(path))"
        if !message.isEmpty {
            text += " (\(DBError.escaped(message, backslashes: false)))"
        }
        return text + "; the write was rolled back"
    }
}

extension DBConstraintViolation.Kind {
    var summary: String {
        switch self {
        case .unique: "unique"
        case .primaryKey: "primary key"
        case .foreignKey: "foreign key"
        case .notNull: "not-null"
        case .check: "check"
        case .other: "a"
        }
    }
}
