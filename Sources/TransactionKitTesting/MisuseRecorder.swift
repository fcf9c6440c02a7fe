import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Records a TransactionKit misuse as a failure of the running test.
///
/// The core calls this through a weak C symbol when it detects a programmer
/// error (an escaped or nested transaction, a `MockDB` transaction at the
/// bridge): linking `TransactionKitTesting` into a test binary is all it
/// takes. Under Swift Testing (a test runs on this task) it records an issue
/// at the caller's file and line; under XCTest it calls `XCTFail`, and
/// checks through an observer that a running test case took the failure.
/// A ``MisuseReportHandler`` bound to the task takes the report instead.
/// It returns `false` when no test took it (an exit test's child process,
/// a thread no test runs on): the core then stops the process, as in
/// production.
@_cdecl("transactionkit_record_misuse")
public func _transactionKitRecordMisuse(
    _ message: UnsafePointer<CChar>,
    _ fileID: UnsafePointer<CChar>,
    _ line: Int
) -> Bool {
    let message = String(cString: message)
    let fileID = String(cString: fileID)
    if let handler = MisuseReportHandler.current {
        handler(message)
        return true
    }
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(fileID: fileID, filePath: fileID, line: line, column: 1))
        return true
    }
    #if canImport(XCTest)
    return XCTestFailureWitness.fail(message, fileID: fileID, line: line)
    #else
    return false
    #endif
}

#if canImport(XCTest)
/// Calls `XCTFail` and reports whether a running XCTest test case recorded
/// it: XCTest tells its observers about a failure synchronously, and does
/// nothing when no test case runs.
final class XCTestFailureWitness: NSObject, XCTestObservation, @unchecked Sendable {
    // Written and read on the calling thread only, during `fail`.
    private var recorded = false

    static func fail(_ message: String, fileID: String, line: Int) -> Bool {
        let witness = XCTestFailureWitness()
        let center = XCTestObservationCenter.shared
        center.addTestObserver(witness)
        defer { center.removeTestObserver(witness) }
        XCTFail("\(fileID):\(line): \(message)")
        return witness.recorded
    }

    func testCase(
        _ testCase: XCTestCase,
        didFailWithDescription description: String,
        inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        recorded = true
    }
}
#endif
