#if Txkit
/// `txkit convert --apply` refused: places the conversion cannot rewrite.
package struct ConversionRefused: Error, CustomStringConvertible, Sendable {
    /// The legacy finder that was to be converted.
    package var legacy: String
    /// Each place, with the reason a person must look at it.
    package var blockers: [LegacyConversion.Blocker]

    /// Creates the refusal of `legacy`'s conversion.
    package init(legacy: String, blockers: [LegacyConversion.Blocker]) {
        self.legacy = legacy
        self.blockers = blockers
    }

    /// The finder, the count of places and each place, one a line.
    package var description: String {
        "txkit convert cannot convert \(legacy) without a person at \(blockers.count) place"
            + (blockers.count == 1 ? "" : "s") + "; nothing was written:\n"
            + blockers.map { "  \($0)" }.joined(separator: "\n")
    }
}
#endif
