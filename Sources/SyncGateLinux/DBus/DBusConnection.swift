import SyncGateCore

#if os(Linux)
    import Dispatch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import SyncGateWire

    /// A client connection to a D-Bus message bus over a Unix-domain socket.
    ///
    /// The initializer connects, authenticates with SASL `EXTERNAL` and calls `Hello`, blocking the
    /// calling thread for at most the setup timeout: call it on a private queue, never on the cooperative
    /// pool. Afterwards a dispatch read source on `queue` reads and decodes messages; replies are matched
    /// to calls by serial, signals go to the signal handler, and every completion and handler runs on
    /// `queue`. Every call has a timeout on the injected clock, so each completion runs exactly once: with
    /// the reply, an error reply, a timeout, a cancellation, or the connection's end. A malformed message,
    /// an oversized one, or the bus hanging up closes the connection; the close handler then runs once.
    final class DBusConnection: Sendable {
        /// What a call completes with.
        typealias Completion = @Sendable (Result<DBusMessage, DBusError>) -> Void

        private struct Pending {
            var member: String
            var completion: Completion
            var timer: Task<Void, Never>?
        }

        private struct State {
            var nextSerial: UInt32 = 1
            var pending: [UInt32: Pending] = [:]
            var cancelledEarly: Set<UInt32> = []
            var closeReason: String?
        }

        /// The unique name the bus gave this connection, such as `:1.42`.
        let uniqueName: String
        /// The queue that reads and runs every handler and completion.
        let queue: DispatchQueue
        /// The socket, for tests.
        let fileDescriptor: Int32
        private let clock: any Clock<Duration>
        private let defaultTimeout: Duration
        private let state = LockedState(State())
        private let inbox: Inbox
        private let onClose: @Sendable (String) -> Void
        // Dispatch sources may be used from any thread, but libdispatch on Linux does not mark them Sendable.
        nonisolated(unsafe) private var source: (any DispatchSourceRead)?

        /// Connects, authenticates and says `Hello`; then starts reading on `queue`.
        ///
        /// - Parameters:
        ///   - address: a D-Bus address string (`unix:path=…` or `unix:abstract=…`, `;`-separated).
        ///   - queue: the serial queue for reads, handlers and completions.
        ///   - clock: the clock of call timeouts.
        ///   - callTimeout: the timeout of calls that give none.
        ///   - setupTimeout: the wall-clock bound on connecting, authenticating and `Hello`.
        ///   - onSignal: called on `queue` with each signal.
        ///   - onClose: called once on `queue` when the connection ends for any reason but ``close()``.
        /// - Throws: ``DBusError/connectFailed(_:)`` naming the address and the step that failed.
        init(
            address: String,
            queue: DispatchQueue,
            clock: any Clock<Duration> = ContinuousClock(),
            callTimeout: Duration = .seconds(5),
            setupTimeout: Duration = .seconds(2),
            onSignal: @escaping @Sendable (DBusMessage) -> Void,
            onClose: @escaping @Sendable (String) -> Void
        ) throws(DBusError) {
            let entries: [DBusAddress]
            do {
                entries = try DBusAddress.parse(address)
            } catch {
                throw .connectFailed(error.description)
            }
            var failures: [(socket: String, reason: String)] = []
            var connected: Int32?
            for entry in entries {
                switch Self.connectSocket(entry.location) {
                case .success(let descriptor):
                    connected = descriptor
                case .failure(let reason):
                    failures.append((Self.shown(entry.location), reason))
                }
                if connected != nil { break }
            }
            guard let descriptor = connected else {
                // Each failure names its socket; the address (which whoever reports this names) would only
                // repeat it, so a one-socket address gives the reason alone.
                throw .connectFailed(
                    failures.count == 1
                        ? failures[0].reason : failures.map { "\($0.socket): \($0.reason)" }.joined(separator: "; "))
            }
            let deadline = ContinuousClock.now.advanced(by: setupTimeout)
            let inbox = Inbox(descriptor: descriptor)
            do {
                try Self.authenticate(inbox, deadline: deadline)
                let hello = DBusMessage.methodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "Hello")
                var first = hello
                first.serial = 1
                try inbox.writeAll(first.encoded(), deadline: deadline)
                var name: String?
                while name == nil {
                    let message = try inbox.blockingNextMessage(deadline: deadline)
                    if message.kind == .methodReturn, message.replySerial == 1 {
                        name = message.body.first?.string ?? ""
                    } else if message.kind == .error, message.replySerial == 1 {
                        throw DBusError.connectFailed("Hello failed: \(message.errorName ?? "")")
                    }
                }
                uniqueName = name ?? ""
            } catch {
                _ = Glibc.close(descriptor)
                throw .connectFailed("\(address): \(error)")
            }
            self.queue = queue
            self.clock = clock
            self.defaultTimeout = callTimeout
            self.inbox = inbox
            self.onClose = onClose
            fileDescriptor = descriptor
            state.withLock { $0.nextSerial = 2 }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            self.source = source
            source.setEventHandler { [weak self] in
                self?.readAvailable(onSignal: onSignal)
            }
            source.setCancelHandler {
                _ = Glibc.close(descriptor)
            }
            source.resume()
            // Messages that arrived together with the Hello reply (NameAcquired, say) are handled now.
            queue.async { [weak self] in self?.dispatchBuffered(onSignal: onSignal) }
        }

        deinit {
            close()
        }

        /// Why the connection ended, or `nil` while it is open.
        var closeReason: String? { state.withLock { $0.closeReason } }

        /// Sends a method call; `completion` runs once on the queue with the reply or the failure.
        ///
        /// - Parameter timeout: how long to wait for the reply; the connection's default when `nil`.
        func call(_ message: DBusMessage, timeout: Duration? = nil, completion: @escaping Completion) {
            call(message, serial: reserveSerial(), timeout: timeout, completion: completion)
        }

        /// Sends a method call and returns its reply; throws ``DBusError`` for an error reply, a timeout,
        /// the connection's end, or the caller's cancellation.
        func call(_ message: DBusMessage, timeout: Duration? = nil) async throws -> DBusMessage {
            let serial = reserveSerial()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    call(message, serial: serial, timeout: timeout) { continuation.resume(with: $0) }
                }
            } onCancel: {
                cancelCall(serial: serial)
            }
        }

        /// Sends a message that expects no reply (a signal, or a call with `NO_REPLY_EXPECTED`).
        func send(_ message: DBusMessage) {
            var message = message
            message.serial = reserveSerial()
            if message.kind == .methodCall { message.flags |= DBusMessage.noReplyExpected }
            let failure: String? = state.withLock { state in
                guard state.closeReason == nil else { return nil }
                return write(message.encoded())
            }
            if let failure { fail(failure) }
        }

        /// Adds a match rule; `completion` (if any) runs with the result.
        func addMatch(_ rule: String, completion: Completion? = nil) {
            call(
                DBusMessage.methodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "AddMatch", body: [.string(rule)])
            ) { result in completion?(result) }
        }

        /// Closes the connection; pending calls fail with ``DBusError/disconnected(_:)``. The close handler
        /// is not called.
        func close() {
            end("closed by its owner", notify: false)
        }

        private func reserveSerial() -> UInt32 {
            state.withLock { state in
                defer { state.nextSerial = state.nextSerial == UInt32.max ? 1 : state.nextSerial + 1 }
                return state.nextSerial
            }
        }

        private func call(_ message: DBusMessage, serial: UInt32, timeout: Duration?, completion: @escaping Completion)
        {
            var message = message
            message.serial = serial
            let member = message.member ?? "call"
            let bytes = message.encoded()
            let timeout = timeout ?? defaultTimeout
            enum Outcome {
                case sent
                case refused(DBusError)
                case writeFailed(String)
            }
            // The timeout counts from before the send, so once the bus has the call its deadline is fixed.
            let sleep = clock.sleeper(for: timeout)
            let outcome: Outcome = state.withLock { state in
                if state.cancelledEarly.remove(serial) != nil { return .refused(.cancelled) }
                if let reason = state.closeReason { return .refused(.disconnected(reason)) }
                if bytes.count > DBusMessage.maximumLength {
                    return .refused(.connectFailed("message of \(bytes.count) bytes is longer than 128 MiB"))
                }
                if let failure = write(bytes) { return .writeFailed(failure) }
                state.pending[serial] = Pending(member: member, completion: completion, timer: nil)
                return .sent
            }
            switch outcome {
            case .refused(let error):
                queue.async { completion(.failure(error)) }
                return
            case .writeFailed(let reason):
                queue.async { completion(.failure(.disconnected(reason))) }
                fail(reason)
                return
            case .sent:
                break
            }
            let timer = Task.detached { [weak self] in
                do { try await sleep() } catch { return }
                self?.expire(serial: serial, timeout: timeout)
            }
            let stale = state.withLock { state -> Bool in
                guard state.pending[serial] != nil else { return true }
                state.pending[serial]?.timer = timer
                return false
            }
            if stale { timer.cancel() }
        }

        private func cancelCall(serial: UInt32) {
            let pending = state.withLock { state -> Pending? in
                guard let pending = state.pending.removeValue(forKey: serial) else {
                    if state.closeReason == nil { state.cancelledEarly.insert(serial) }
                    return nil
                }
                return pending
            }
            guard let pending else { return }
            pending.timer?.cancel()
            queue.async { pending.completion(.failure(.cancelled)) }
        }

        private func expire(serial: UInt32, timeout: Duration) {
            guard let pending = state.withLock({ $0.pending.removeValue(forKey: serial) }) else { return }
            queue.async { pending.completion(.failure(.timedOut(member: pending.member, timeout: timeout))) }
        }

        /// Writes under the state lock (so messages keep their order); returns a failure reason.
        private func write(_ bytes: [UInt8]) -> String? {
            do {
                try inbox.writeAll(bytes, deadline: ContinuousClock.now.advanced(by: .seconds(1)))
                return nil
            } catch {
                return "write failed: \(error)"
            }
        }

        private func readAvailable(onSignal: @Sendable (DBusMessage) -> Void) {
            switch inbox.fill() {
            case .ok:
                dispatchBuffered(onSignal: onSignal)
            case .closed(let reason):
                dispatchBuffered(onSignal: onSignal)
                fail(reason)
            }
        }

        private func dispatchBuffered(onSignal: @Sendable (DBusMessage) -> Void) {
            while state.withLock({ $0.closeReason == nil }) {
                let message: DBusMessage
                do {
                    guard let next = try inbox.nextMessage() else { return }
                    message = next
                } catch {
                    fail("malformed message from the bus: \(error)")
                    return
                }
                handle(message, onSignal: onSignal)
            }
        }

        private func handle(_ message: DBusMessage, onSignal: @Sendable (DBusMessage) -> Void) {
            switch message.kind {
            case .methodReturn, .error:
                guard let replySerial = message.replySerial,
                    let pending = state.withLock({ $0.pending.removeValue(forKey: replySerial) })
                else { return }
                pending.timer?.cancel()
                if message.kind == .error {
                    let text = message.body.first?.string ?? ""
                    pending.completion(.failure(.remote(name: message.errorName ?? "", message: text)))
                } else {
                    pending.completion(.success(message))
                }
            case .signal:
                onSignal(message)
            case .methodCall:
                guard message.flags & DBusMessage.noReplyExpected == 0, let sender = message.sender else { return }
                var reply = DBusMessage(kind: .error)
                reply.errorName = "org.freedesktop.DBus.Error.UnknownMethod"
                reply.replySerial = message.serial
                reply.destination = sender
                reply.body = [.string("SyncGate exports no objects")]
                send(reply)
            }
        }

        private func fail(_ reason: String) {
            end(reason, notify: true)
        }

        private func end(_ reason: String, notify: Bool) {
            let pending: [Pending]? = state.withLock { state in
                guard state.closeReason == nil else { return nil }
                state.closeReason = reason
                state.cancelledEarly = []
                defer { state.pending = [:] }
                return Array(state.pending.values)
            }
            guard let pending else { return }
            // Hang up now: the descriptor may be closed only by the read source's cancel handler, which
            // libdispatch runs on `queue` when it gets to it, possibly behind work queued later (such as
            // the owner connecting again, which blocks the queue until the bus answers). The bus must not
            // have to wait for that to learn that this connection is over.
            _ = shutdown(fileDescriptor, Int32(SHUT_RDWR))
            if let source {
                source.cancel()
            } else {
                _ = Glibc.close(fileDescriptor)
            }
            let onClose = self.onClose
            queue.async {
                for call in pending {
                    call.timer?.cancel()
                    call.completion(.failure(.disconnected(reason)))
                }
                if notify { onClose(reason) }
            }
        }

        private enum SocketResult {
            case success(Int32)
            case failure(String)
        }

        /// A socket's location as messages show it: the path, or `@name` for an abstract one.
        private static func shown(_ location: DBusAddress.Location) -> String {
            switch location {
            case .path(let path): path
            case .abstract(let name): "@" + name
            }
        }

        private static func connectSocket(_ location: DBusAddress.Location) -> SocketResult {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return .failure("socket: \(SystemErrorText.message(errno))") }
            var pathBytes: [UInt8]
            switch location {
            case .path(let path):
                pathBytes = Array(path.utf8) + [0]
            case .abstract(let name):
                pathBytes = [0] + Array(name.utf8)
            }
            let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
            guard pathBytes.count <= capacity else {
                _ = Glibc.close(descriptor)
                return .failure("the path is longer than \(capacity) bytes")
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
            }
            guard result == 0 else {
                let code = errno
                _ = Glibc.close(descriptor)
                return .failure(SystemErrorText.message(code))
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            return .success(descriptor)
        }

        private static func authenticate(_ inbox: Inbox, deadline: ContinuousClock.Instant) throws(DBusError) {
            try inbox.writeAll(DBusAuthentication.initialBytes(uid: UInt32(getuid())), deadline: deadline)
            let line = try inbox.blockingLine(deadline: deadline)
            switch DBusAuthentication.parse(line: line) {
            case .ok:
                try inbox.writeAll(DBusAuthentication.begin, deadline: deadline)
            case .rejected(let text):
                throw .connectFailed("authentication rejected: \(text)")
            }
        }
    }

    extension DBusConnection {
        /// The socket's byte buffer: written under the connection's lock, read only on its queue (and
        /// during setup, before the queue exists).
        fileprivate final class Inbox: @unchecked Sendable {
            enum FillResult {
                case ok
                case closed(String)
            }

            let descriptor: Int32
            private var buffer: [UInt8] = []
            private var start = 0

            init(descriptor: Int32) {
                self.descriptor = descriptor
            }

            /// The most bytes read in one wake-up; the read source fires again while more are queued.
            static let maximumReadPerWakeUp = 1 << 20

            /// Reads what the socket holds, up to ``maximumReadPerWakeUp``, without blocking.
            func fill() -> FillResult {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                var total = 0
                while total < Self.maximumReadPerWakeUp {
                    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count > 0 {
                        buffer.append(contentsOf: chunk[..<count])
                        total += count
                        continue
                    }
                    if count == 0 { return .closed("the bus hung up") }
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN || code == EWOULDBLOCK { return .ok }
                    return .closed("read failed (errno \(code))")
                }
                return .ok
            }

            /// The next complete message in the buffer, or `nil` when more bytes are needed.
            func nextMessage() throws(DBusDecodingError) -> DBusMessage? {
                let available = buffer.count - start
                guard available >= DBusMessage.fixedHeaderLength else { return nil }
                let prefix = Array(buffer[start..<start + DBusMessage.fixedHeaderLength])
                let length = try DBusMessage.frameLength(prefix: prefix)
                guard available >= length else { return nil }
                let bytes = Array(buffer[start..<start + length])
                start += length
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                } else if start > 65_536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return try DBusMessage.decode(bytes)
            }

            /// Waits for and returns the next message (setup only).
            func blockingNextMessage(deadline: ContinuousClock.Instant) throws -> DBusMessage {
                while true {
                    if let message = try nextMessage() { return message }
                    try waitReadable(deadline: deadline)
                    if case .closed(let reason) = fill() { throw DBusError.connectFailed(reason) }
                }
            }

            /// Waits for and returns one `\r\n`-terminated line (authentication only).
            func blockingLine(deadline: ContinuousClock.Instant) throws(DBusError) -> String {
                while true {
                    let pending = buffer[start...]
                    if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        var line = Array(buffer[start..<newline])
                        if line.last == UInt8(ascii: "\r") { line.removeLast() }
                        start = newline + 1
                        return String(decoding: line, as: UTF8.self)
                    }
                    guard pending.count < DBusAuthentication.maximumLineLength else {
                        throw .connectFailed("the server's authentication line is longer than 512 bytes")
                    }
                    try waitReadable(deadline: deadline)
                    if case .closed(let reason) = fill() { throw .connectFailed(reason) }
                }
            }

            /// Writes every byte, waiting for the socket to drain until `deadline`.
            func writeAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(DBusError) {
                var offset = 0
                while offset < bytes.count {
                    let count = bytes.withUnsafeBytes { raw in
                        Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    }
                    if count > 0 {
                        offset += count
                        continue
                    }
                    let code = errno
                    if code == EINTR { continue }
                    guard code == EAGAIN || code == EWOULDBLOCK else {
                        throw .disconnected("send failed (errno \(code))")
                    }
                    try wait(for: Int16(POLLOUT), deadline: deadline)
                }
            }

            private func waitReadable(deadline: ContinuousClock.Instant) throws(DBusError) {
                try wait(for: Int16(POLLIN), deadline: deadline)
            }

            private func wait(for events: Int16, deadline: ContinuousClock.Instant) throws(DBusError) {
                while true {
                    let remaining = ContinuousClock.now.duration(to: deadline)
                    guard remaining > .zero else { throw .connectFailed("timed out") }
                    let milliseconds = Int32(
                        clamping: remaining.components.seconds * 1_000 + remaining.components.attoseconds
                            / 1_000_000_000_000_000 + 1)
                    var entry = pollfd(fd: descriptor, events: events, revents: 0)
                    let ready = poll(&entry, 1, milliseconds)
                    if ready > 0 { return }
                    if ready < 0 && errno != EINTR { throw .connectFailed("poll failed (errno \(errno))") }
                }
            }
        }
    }
#endif
