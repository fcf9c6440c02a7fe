#if Txkit
/// Text searches on the hot paths of the index and the plans, byte by
/// byte in UTF-8: Foundation's `contains(_:)` and `replacingOccurrences`
/// on a `String` go through `NSString` on Linux, where a profile of
/// `txkit-bench generator` found 15 % of its samples (Benchmarks/README.md).
/// A match of a whole UTF-8 string starts and ends on a scalar boundary of
/// valid UTF-8 text, so a replacement leaves valid text.
extension String {
    /// Whether `text` occurs in the string, byte for byte.
    func containsBytes(_ text: String) -> Bool {
        var haystack = self, needle = text
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in needle.isEmpty || Self.offset(of: needle, in: haystack, from: 0) != nil }
        }
    }

    /// The string with each occurrence of `text` replaced by `replacement`,
    /// found byte for byte from the start, a match resuming the search
    /// after itself, as Foundation's `replacingOccurrences(of:with:)`
    /// replaces an ASCII `text` (the generator's placeholders, such as
    /// `$tx`). An empty `text` replaces nothing.
    func replacingBytes(of text: String, with replacement: String) -> String {
        var haystack = self, needle = text, substitute = replacement
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard !needle.isEmpty, var match = Self.offset(of: needle, in: haystack, from: 0) else { return self }
                var result: [UInt8] = []
                result.reserveCapacity(haystack.count)
                var copied = 0
                substitute.withUTF8 { substitute in
                    while true {
                        result.append(contentsOf: haystack[copied..<match])
                        result.append(contentsOf: substitute)
                        copied = match + needle.count
                        guard let next = Self.offset(of: needle, in: haystack, from: copied) else { break }
                        match = next
                    }
                }
                result.append(contentsOf: haystack[copied...])
                return String(decoding: result, as: UTF8.self)
            }
        }
    }

    /// Where `needle` (not empty) first occurs in `haystack` at or after
    /// `start`, in bytes.
    private static func offset(
        of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        let first = needle[0], last = haystack.count - needle.count
        var position = start
        while position <= last {
            if haystack[position] == first {
                var matched = 1
                while matched < needle.count, haystack[position + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return position }
            }
            position += 1
        }
        return nil
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
