#if Postgres
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket bound to a free port of 127.0.0.1, which it holds until
/// ``close()``. Left as it is (bound, not listening), it is a port where
/// every connection is refused and no other process can start listening;
/// ``RefusingPostgresServer`` listens on one.
final class LoopbackSocket: Sendable {
    /// What a socket call failed with.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ call: String) {
            description = "\(call) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// The socket's file descriptor.
    let descriptor: Int32
    /// The port it is bound to.
    let port: Int

    init() throws {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let failure = Failure("bind")
            closeDescriptor(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the socket, which frees the port.
    func close() {
        closeDescriptor(descriptor)
    }
}

/// `close(2)`, which a method named `close` hides.
func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
#endif
