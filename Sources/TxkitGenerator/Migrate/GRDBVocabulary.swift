#if Txkit
/// What `txkit migrate` knows of GRDB's API without reading GRDB: the types
/// whose values hold a database, the names only GRDB declares, and the
/// result types of its record and request methods. A consumer's code that
/// names one of these is legacy data access.
enum GRDBVocabulary {
    /// GRDB types whose values open transactions (a consumer's database
    /// handle), and whether they can write.
    static let handleTypes: [String: Bool] = [
        "DatabaseQueue": true, "DatabasePool": true, "DatabaseWriter": true, "AnyDatabaseWriter": true,
        "DatabaseReader": false, "AnyDatabaseReader": false, "DatabaseSnapshot": false,
        "DatabaseSnapshotPool": false,
    ]

    /// Handle methods that run a closure in a transaction, by name: whether
    /// the transaction writes. `inTransaction` and `writeWithoutTransaction`
    /// are handled apart.
    static let blockMethods: [String: Bool] = [
        "read": false, "unsafeRead": false, "unsafeReentrantRead": false,
        "write": true, "inDatabase": true, "inTransaction": true,
    ]

    /// Type names that only GRDB declares (distinctive ones: not `Index`,
    /// `ID` or `Element`, which apps declare too). A consumer that still
    /// names one after migration would not be free of GRDB.
    static let typeNames: Set<String> = [
        "AnyDatabaseReader", "AnyDatabaseWriter", "AnyFetchRequest", "Association", "AssociationAggregate",
        "BelongsToAssociation", "Column", "ColumnAssignment", "ColumnDefinition", "ColumnExpression",
        "CommonTableExpression", "Configuration", "ConflictResolution", "Database", "DatabaseCollation",
        "DatabaseCursor", "DatabaseError", "DatabaseEvent", "DatabaseFunction", "DatabaseMigrator",
        "DatabasePool", "DatabaseQueue", "DatabaseReader", "DatabaseRegion", "DatabaseRegionObservation",
        "DatabaseSnapshot", "DatabaseSnapshotPool", "DatabaseValue", "DatabaseValueConvertible",
        "DatabaseWriter", "FetchRequest", "FetchableRecord", "HasManyAssociation", "HasManyThroughAssociation",
        "HasOneAssociation", "HasOneThroughAssociation", "InsertionSuccess", "MutablePersistableRecord",
        "PersistableRecord", "PersistenceError", "QueryInterfaceRequest", "RecordCursor", "RecordError",
        "ResultCode", "Row", "RowCursor", "RowDecodingError", "SQL", "SQLExpression", "SQLLiteral",
        "SQLOrdering", "SQLRequest", "SQLSelectable", "SQLSubquery", "Statement", "StatementArguments",
        "TableAlias", "TableDefinition", "TableRecord", "TransactionCompletion", "TransactionObserver",
        "ValueObservation", "DatabaseValueCursor", "FastDatabaseValueCursor", "TableRequest",
    ]

    /// Free functions only GRDB declares (SQL aggregates and helpers).
    static let functionNames: Set<String> = [
        "databaseQuestionMarks", "sum", "total", "average", "length", "julianDay", "dateTime", "coalesce",
    ]

    /// Request-building methods of the query interface: the request keeps
    /// the record type it fetches.
    static let requestMethods: Set<String> = [
        "all", "none", "filter", "order", "reversed", "unordered", "limit", "including", "joining",
        "select", "annotated", "group", "having", "distinct", "forKey", "aliased", "matching", "with",
        "withStableOrder", "orderByPrimaryKey", "filter(key:)", "filter(id:)", "filter(keys:)", "filter(ids:)",
    ]

    /// Static fetches of a record or value type `T`, and their results.
    static func staticFetchResult(_ method: String, of type: String) -> String? {
        switch method {
        case "fetchOne": "\(type)?"
        case "fetchAll": "[\(type)]"
        case "fetchSet": "Set<\(type)>"
        case "fetchCount": "Int"
        case "exists": "Bool"
        case "deleteOne": "Bool"
        case "deleteAll": "Int"
        case "updateAll": "Int"
        default: nil
        }
    }

    /// Fetches of a request of `T`.
    static func requestFetchResult(_ method: String, of type: String) -> String? {
        switch method {
        case "fetchOne": "\(type)?"
        case "fetchAll": "[\(type)]"
        case "fetchSet": "Set<\(type)>"
        case "fetchCount": "Int"
        case "isEmpty": "Bool"
        case "deleteAll": "Int"
        case "updateAll": "Int"
        default: nil
        }
    }

    /// Persistence methods of a record value of type `T`: the result, and
    /// whether the method is `mutating` on a `MutablePersistableRecord`
    /// (`insert` sets the id), so that a `var` receiver is written back.
    static func recordMethodResult(_ method: String, of type: String) -> (result: String, mayMutate: Bool)? {
        switch method {
        case "insert", "save", "upsert": ("Void", true)
        case "update", "updateChanges": (method == "update" ? "Void" : "Bool", true)
        case "inserted", "saved": (type, false)
        case "insertAndFetch", "upsertAndFetch": (type, false)
        case "delete": ("Bool", false)
        case "exists": ("Bool", false)
        default: nil
        }
    }

    /// Members of GRDB's `Database` a consumer reads, and their types.
    static let databaseProperties: [String: String] = [
        "changesCount": "Int", "totalChangesCount": "Int", "lastInsertedRowID": "Int64",
        "isInsideTransaction": "Bool", "transactionDate": "Date",
    ]

    /// Methods of GRDB's `Database`, and their results.
    static let databaseMethods: [String: String] = [
        "execute": "Void", "tableExists": "Bool", "columns": "[ColumnInfo]",
    ]

    /// Names whose call writes: the legacy code that uses them needs a
    /// write transaction.
    static let writingMethods: Set<String> = [
        "insert", "inserted", "insertAndFetch", "save", "saved", "update", "updateChanges", "upsert",
        "upsertAndFetch", "delete", "deleteOne", "deleteAll", "updateAll", "execute", "inSavepoint",
        "create", "alter", "drop",
    ]

    /// Protocols that make a type a GRDB record.
    static let recordProtocols: Set<String> = [
        "FetchableRecord", "PersistableRecord", "MutablePersistableRecord", "TableRecord", "EncodableRecord",
    ]

    /// Value types GRDB fetches directly (`Int.fetchOne(db, sql:)`).
    static let fetchableValueTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
        "Float", "Bool", "String", "Date", "Data", "URL", "UUID", "Decimal",
    ]
}
#endif
