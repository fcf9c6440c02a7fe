/// Why `swift package txkit` stopped; SwiftPM prints it.
struct TxkitPluginError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
