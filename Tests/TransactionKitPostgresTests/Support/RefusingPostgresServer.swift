#if Postgres
import Foundation
import TransactionKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 that answers every connection as a PostgreSQL
/// server that will not let the client in, and counts the connections it
/// accepted: every attempt that reached it, whoever made it (a direct
/// connection or a pool).
///
/// ```swift
/// let server = try RefusingPostgresServer(answer: .rejectCredentials)
/// defer { server.stop() }
/// // connect to 127.0.0.1:server.port …
/// #expect(server.acceptedConnections == 1)
/// ```
///
/// A connection is counted when it is accepted, before it gets its answer,
/// so a client that has its answer is already counted. Connections are
/// answered one at a time, on a thread of the server's own.
final class RefusingPostgresServer: Sendable {
    /// How the server answers a connection.
    enum Answer: Sendable {
        /// Closes it at once, before reading or writing a byte.
        case closeAtOnce
        /// Reads the startup message (declining TLS if asked first), then
        /// answers a FATAL error of SQLSTATE 28P01, as a server answers a
        /// password it does not accept, and closes.
        case rejectCredentials
    }

    private struct State {
        var accepted = 0
        var stopping = false
    }

    /// The port it listens on.
    var port: Int { socket.port }
    private let socket: LoopbackSocket
    private let answer: Answer
    private let state = LockedValue(State())

    /// The SQLSTATE ``Answer/rejectCredentials`` answers.
    static let rejectedCredentialsState = "28P01"

    /// Starts listening and answering.
    init(answer: Answer) throws {
        socket = try LoopbackSocket()
        self.answer = answer
        guard listen(socket.descriptor, 16) == 0 else {
            let failure = LoopbackSocket.Failure("listen")
            socket.close()
            throw failure
        }
        Thread.detachNewThread { [self] in serve() }
    }

    /// How many connections it has accepted so far.
    var acceptedConnections: Int {
        state.withLock { $0.accepted }
    }

    /// Stops answering; the server's thread closes the port within 20 ms.
    func stop() {
        state.withLock { $0.stopping = true }
    }

    // MARK: - The server's thread

    private func serve() {
        defer { socket.close() }
        while !state.withLock({ $0.stopping }) {
            // Wakes every 20 ms to see whether to stop.
            var waiting = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 20) > 0 else { continue }
            let connection = accept(socket.descriptor, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.accepted += 1 }
            respond(on: connection)
            closeDescriptor(connection)
        }
    }

    private func respond(on connection: Int32) {
        guard case .rejectCredentials = answer else { return }
        // A client that stops sending is given up after 5 s.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        while let code = Self.receiveStartupPacket(connection) {
            // SSLRequest and GSSENCRequest: declined with `N`, after which
            // the client sends its startup message.
            guard code == 80_877_103 || code == 80_877_104 else { break }
            guard Self.transmit([UInt8(ascii: "N")], on: connection) else { return }
        }
        _ = Self.transmit(
            Self.errorResponse(
                sqlState: Self.rejectedCredentialsState, message: "password authentication failed for user \"txkit\""),
            on: connection)
    }

    /// A startup-phase packet (length, then a 32-bit code, then the rest):
    /// its code, or `nil` when the client closed or went silent.
    private static func receiveStartupPacket(_ connection: Int32) -> UInt32? {
        guard let header = receive(8, from: connection) else { return nil }
        let length = Int(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let code = header[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard length >= 8, length < 1 << 16, receive(length - 8, from: connection) != nil else { return nil }
        return code
    }

    /// An ErrorResponse message (`E`) of severity FATAL.
    static func errorResponse(sqlState: String, message: String) -> [UInt8] {
        var body: [UInt8] = []
        for (field, value) in [("S", "FATAL"), ("V", "FATAL"), ("C", sqlState), ("M", message)] {
            body.append(UInt8(ascii: Unicode.Scalar(field)!))
            body += Array(value.utf8)
            body.append(0)
        }
        body.append(0)
        let length = UInt32(body.count + 4)
        return [UInt8(ascii: "E")] + withUnsafeBytes(of: length.bigEndian) { Array($0) } + body
    }

    /// Exactly `count` bytes, or `nil` when the connection ended first.
    private static func receive(_ count: Int, from connection: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                recv(connection, buffer.baseAddress! + received, count - received, 0)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return nil }
            received += result
        }
        return bytes
    }

    /// Sends all of `bytes`: `false` when the connection ended first.
    private static func transmit(_ bytes: [UInt8], on connection: Int32) -> Bool {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                send(connection, buffer.baseAddress! + sent, bytes.count - sent, flags)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            sent += result
        }
        return true
    }
}
#endif
