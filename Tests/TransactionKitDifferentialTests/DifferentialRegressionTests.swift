import Testing

/// Programs on which `MockDB` and `SQLiteDB` once disagreed, as the
/// differential run printed them (shrunk), kept as regular tests.
@Suite("DB differential regressions")
struct DifferentialRegressionTests {
    @Test func anEmptyProgramLeavesTheSameTrace() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: []))
    }

    /// Printed by the run against a bug planted in `MockDB` (a key-value
    /// removal applied at once, so not rolled back), then pasted as is.
    @Test func mismatchSeed74786b6974646966Program10() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: [
            .write([.set("prefs", "", .int(0))], .returns(0)),
            .writeOrRollBack([.remove("prefs", "")], commit: false),
        ]))
    }

    /// Found by the run: an observer naming "message" and "MESSAGE" heard
    /// one of the two, picked by `Set` order (CommitObservers now reports
    /// every spelling).
    @Test func mismatchSeed74786b6974646966Program48() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: [
            .observe(2, tables: ["message", "MESSAGE"], collections: ["kv", "prefs"]),
            .write([.insertRow("message")], .returns(0)),
        ]))
    }
}
