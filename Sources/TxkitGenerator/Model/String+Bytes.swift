#if Txkit
/// Text searches on the hot paths of the index and the plans, byte by
/// byte in UTF-8: Foundation's `contains(_:)` and `replacingOccurrences`
/// on a `String` go through `NSString` on Linux, where a profile of
/// `txkit-bench generator` found 15 % of its samples (Benchmarks/README.md).
extension String {
    /// Whether `text` occurs in the string, byte for byte.
    func containsBytes(_ text: String) -> Bool {
        var haystack = self, needle = text
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                var start = 0
                let last = haystack.count - needle.count
                while start <= last {
                    if haystack[start] == first {
                        var matched = 1
                        while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                        if matched == needle.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// A conformance as written in an inheritance clause without its
    /// `@unchecked` mark: `@unchecked Sendable` → `Sendable`.
    var withoutUncheckedMark: String {
        let trimmed = trimmingWhitespace
        guard trimmed.hasPrefix("@unchecked") else { return trimmed }
        return String(trimmed.dropFirst("@unchecked".count)).trimmingWhitespace
    }
}
#endif
