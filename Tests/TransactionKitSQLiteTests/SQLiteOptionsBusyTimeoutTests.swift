import Dispatch
import Testing
import TransactionKitSQLite

/// `SQLiteDB.Options.busyTimeout`, a `DispatchTimeInterval`, as the
/// nanoseconds that the busy handler and the open's retries wait.
@Suite("SQLiteDB busy timeout")
struct SQLiteOptionsBusyTimeoutTests {
    @Test(arguments: [
        (DispatchTimeInterval.seconds(5), Int64(5_000_000_000)),
        (.milliseconds(200), 200_000_000),
        (.microseconds(7), 7_000),
        (.nanoseconds(9), 9),
        (.seconds(-1), 0),
        (.seconds(Int.max), Int64.max),
        (.never, Int64.max),
    ])
    func nanoseconds(of timeout: DispatchTimeInterval, are expected: Int64) {
        var options = SQLiteDB.Options()
        options.busyTimeout = timeout
        #expect(options.busyTimeoutNanoseconds == expected)
    }

    @Test func defaultsToFiveSeconds() {
        #expect(SQLiteDB.Options().busyTimeoutNanoseconds == 5_000_000_000)
    }
}
