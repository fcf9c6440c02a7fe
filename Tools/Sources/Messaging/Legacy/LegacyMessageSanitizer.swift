/// Legacy text clean-up for message bodies. It never touches the database,
/// yet every method takes a ``LegacyTransaction``: it once read a table of
/// banned words, and the parameter stayed when the table went away.
///
/// Such classes are common in old code bases, and they are why a consumer
/// on `MockDB` still needs a mock for them: their only entry point demands a
/// transaction that only `SQLiteDB.shimOnlyBridge(_:)` can produce.
// snippet:begin legacy-sanitizer
package final class LegacyMessageSanitizer: Sendable {
    package init() {}

    /// Trims the ends, and collapses runs of spaces and blank lines.
    package func sanitize(_ body: String, transaction: LegacyTransaction) -> String {
        var lines: [String] = []
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let cleaned = words.joined(separator: " ")
            if cleaned.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(cleaned)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
// snippet:end legacy-sanitizer
