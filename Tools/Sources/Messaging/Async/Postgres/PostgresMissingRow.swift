/// A statement with `RETURNING` returned no row: the schema is not the one
/// ``MessagingPostgresSchema`` creates.
struct PostgresMissingRow: Error, CustomStringConvertible {
    let statement: String

    var description: String { "\(statement) returned no row" }
}
