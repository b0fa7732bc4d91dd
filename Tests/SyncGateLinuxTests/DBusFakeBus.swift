#if os(Linux)
    import Foundation
    import Glibc

    @testable import SyncGateCore

    @testable import SyncGateLinux
    @testable import SyncGateWire

    /// A scripted stand-in for a message bus on a Unix socket, for the bad-input tests: it authenticates
    /// any client, answers `Hello`, and answers every later message as `script` says (correctly, wrongly,
    /// or never). Runs on its own thread with blocking I/O; one client at a time.
    final class DBusFakeBus: @unchecked Sendable {
        /// What the bus does with one message from the client.
        enum Response {
            /// A method return with this body.
            case reply([DBusValue])
            /// An error reply.
            case error(String)
            /// Nothing: the call is never answered.
            case silence
            /// These bytes, verbatim.
            case raw([UInt8])
            /// Close the connection.
            case hangUp
        }

        /// `unix:path=…` of the listening socket.
        let address: String
        /// Each message received after `Hello`, with the number of the connection it came on (from 1).
        let received: AsyncStream<(connection: Int, message: DBusMessage)>
        private let receivedContinuation: AsyncStream<(connection: Int, message: DBusMessage)>.Continuation
        /// The number of each connection whose client hung up (or sent what the bus could not read).
        let hangUps: AsyncStream<Int>
        private let hangUpsContinuation: AsyncStream<Int>.Continuation
        private let listener: Int32
        private let directory: String
        private let script: @Sendable (Int, DBusMessage) -> [Response]
        private let client = LockedState<Int32?>(nil)
        private let stopped = LockedState(false)
        private var thread: Thread?

        /// Starts listening; `script` gets the connection number and the message.
        init(script: @escaping @Sendable (Int, DBusMessage) -> [Response]) throws {
            var template = Array("/tmp/syncgate-fakebus-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw DBusTestError("mkdtemp failed") }
            directory = String(cString: made)
            let path = directory + "/bus"
            address = "unix:path=\(path)"
            self.script = script
            (received, receivedContinuation) = AsyncStream.makeStream()
            (hangUps, hangUpsContinuation) = AsyncStream.makeStream()
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var socketAddress = sockaddr_un()
            socketAddress.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(listener, 4) == 0 else { throw DBusTestError("bind/listen failed: \(errno)") }
            let thread = Thread { [self] in serve() }
            self.thread = thread
            thread.start()
        }

        /// Stops serving and removes the socket and its directory (once).
        func stop() {
            let wasStopped = stopped.withLock { stopping in
                let was = stopping
                stopping = true
                return was
            }
            guard !wasStopped else { return }
            shutdown(listener, Int32(SHUT_RDWR))
            if let descriptor = client.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
            receivedContinuation.finish()
            hangUpsContinuation.finish()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Sends raw bytes to the current client, outside any script.
        func inject(_ bytes: [UInt8]) {
            guard let descriptor = client.withLock({ $0 }) else { return }
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Hangs up on the current client.
        func dropClient() {
            if let descriptor = client.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }

        deinit {
            stop()
            close(listener)
        }

        private func serve() {
            var number = 0
            while !stopped.withLock({ $0 }) {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else { return }
                number += 1
                client.withLock { $0 = descriptor }
                if handle(descriptor, number: number) { hangUpsContinuation.yield(number) }
                client.withLock { $0 = nil }
                close(descriptor)
            }
        }

        /// Serves one client; returns `true` when the client hung up (or sent garbage), `false` when the
        /// script hung up on it.
        private func handle(_ descriptor: Int32, number: Int) -> Bool {
            var buffer: [UInt8] = []
            func fill() -> Bool {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return false }
                buffer += chunk[..<count]
                return true
            }
            func send(_ bytes: [UInt8]) {
                _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            // Authentication: NUL, AUTH line → OK; BEGIN.
            func line() -> String? {
                while true {
                    if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let text = String(decoding: buffer[..<newline], as: UTF8.self)
                        buffer.removeSubrange(...newline)
                        return text
                    }
                    guard fill() else { return nil }
                }
            }
            guard let auth = line(), auth.contains("AUTH EXTERNAL") else { return true }
            send(Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8))
            guard let begin = line(), begin.hasPrefix("BEGIN") else { return true }
            var serial: UInt32 = 1000
            while true {
                while buffer.count < 16 { guard fill() else { return true } }
                guard let length = try? DBusMessage.frameLength(prefix: Array(buffer.prefix(16))) else { return true }
                while buffer.count < length { guard fill() else { return true } }
                let bytes = Array(buffer.prefix(length))
                buffer.removeFirst(length)
                guard let message = try? DBusMessage.decode(bytes) else { return true }
                let responses: [Response]
                if message.member == "Hello" {
                    responses = [.reply([.string(":1.\(number)")])]
                } else {
                    receivedContinuation.yield((number, message))
                    responses = script(number, message)
                }
                for response in responses {
                    serial += 1
                    switch response {
                    case .reply(let body):
                        var reply = DBusMessage(kind: .methodReturn, serial: serial, replySerial: message.serial)
                        reply.sender = "org.freedesktop.DBus"
                        reply.body = body
                        send(reply.encoded())
                    case .error(let name):
                        var reply = DBusMessage(
                            kind: .error, serial: serial, errorName: name, replySerial: message.serial)
                        reply.body = [.string("scripted error")]
                        send(reply.encoded())
                    case .silence:
                        break
                    case .raw(let bytes):
                        send(bytes)
                    case .hangUp:
                        return false
                    }
                }
            }
        }
    }
#endif
