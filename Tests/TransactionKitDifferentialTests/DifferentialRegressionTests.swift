import Testing

/// Programs on which `MockDB` and `SQLiteDB` once disagreed, as the
/// differential run printed them (shrunk), kept as regular tests.
@Suite("DB differential regressions")
struct DifferentialRegressionTests {
    @Test func anEmptyProgramLeavesTheSameTrace() throws {
        try DifferentialCheck.expectSameTraces(Program(steps: []))
    }
}
