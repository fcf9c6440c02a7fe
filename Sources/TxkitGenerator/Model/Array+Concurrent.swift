#if Txkit
import Foundation

extension Array {
    /// `map(transform)` on every core: each element is transformed once,
    /// on any thread, and the results keep the order of the elements.
    ///
    /// `transform` must read only what no other thread writes meanwhile
    /// (the parsed sources, their index once built).
    func concurrentMap<T, Failure: Error>(_ transform: (Element) throws(Failure) -> T) throws(Failure) -> [T] {
        guard count > 1 else { return try map(transform) }
        let results = UnsafeMutableBufferPointer<Result<T, Failure>>.allocate(capacity: count)
        defer { results.deallocate() }
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let slots = results
            nonisolated(unsafe) let elements = self
            nonisolated(unsafe) let transform = transform
            DispatchQueue.concurrentPerform(iterations: elements.count) { index in
                (slots.baseAddress! + index).initialize(to: Result { () throws(Failure) -> T in try transform(elements[index]) })
            }
        }
        defer { results.baseAddress!.deinitialize(count: count) }
        var values: [T] = []
        values.reserveCapacity(count)
        for result in results {
            values.append(try result.get())
        }
        return values
    }
}
#endif
