/// The place in user code that called a TransactionKit API.
///
/// Misuse messages name a call site so that the developer can jump straight
/// to the offending line. It is built from `#fileID` and `#line` default
/// arguments at every public entry point.
package struct CallSite: Sendable, CustomStringConvertible {
    package let file: StaticString
    package let line: UInt

    package init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    package var description: String { "\(file):\(line)" }
}
