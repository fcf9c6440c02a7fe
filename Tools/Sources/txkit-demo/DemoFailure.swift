/// An error the demo reports in one line (ArgumentParser prints it and
/// exits with status 1).
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
