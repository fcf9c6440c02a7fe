import Foundation

extension TortureCommand {
    /// Reads a child's standard output and error to their ends.
    final class PipeCollector: @unchecked Sendable {
        private let output: Pipe
        private let errors: Pipe
        private let group = DispatchGroup()
        // Written by the reading threads before `group.leave()`, read after
        // `group.wait()`: the group orders the accesses.
        private var outputData = Data()
        private var errorData = Data()

        init(output: Pipe, errors: Pipe) {
            self.output = output
            self.errors = errors
        }

        func start() {
            group.enter()
            group.enter()
            // Threads of their own, not the global dispatch queue: with
            // several children at once, a dozen reads block at the same time,
            // and the queue's pool grows slowly on few cores, so a child's
            // output would be read (and its end seen) seconds late.
            Thread.detachNewThread {
                self.outputData = self.output.fileHandleForReading.readDataToEndOfFile()
                self.group.leave()
            }
            Thread.detachNewThread {
                self.errorData = self.errors.fileHandleForReading.readDataToEndOfFile()
                self.group.leave()
            }
        }

        func wait() -> (Data, Data) {
            group.wait()
            return (outputData, errorData)
        }
    }
}
