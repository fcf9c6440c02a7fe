#if Txkit
/// One reason `txkit migrate` leaves a consumer as it is: where, why, and
/// what to do about it.
struct MigrationRefusal: Equatable, CustomStringConvertible {
    var location: SourceLocation
    /// What stops the migration, in a sentence.
    var reason: String
    /// What the user can do, in a sentence.
    var fix: String

    var description: String { "\(location): \(reason); \(fix)" }
}
#endif
