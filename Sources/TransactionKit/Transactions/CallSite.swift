/// The place in user code that called a TransactionKit API, from the
/// `#fileID` and `#line` defaults of every public entry point; misuse
/// messages name it.
package struct CallSite: Sendable, CustomStringConvertible {
    package let file: StaticString
    package let line: UInt

    package init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    package var description: String { "\(file):\(line)" }
}
