import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client side of `syncgate submit`, `jobs`, `cancel`, `logs` and `set-condition`: one request on
/// one connection to the daemon's socket.
///
/// Before it sends anything, the client checks who listens (`SO_PEERCRED`): only a server running as the
/// client's own user or as root is trusted; any other is refused and gets nothing.
package struct DaemonClient: Sendable {
    /// How long the daemon has to answer a request.
    package static let answerDeadline = Duration.seconds(10)

    /// Why a request could not be carried out, as one line for stderr.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The message.
        package var description: String
    }

    /// The socket's path.
    package let socketPath: String

    /// A client of the daemon listening on `socketPath`.
    package init(socketPath: String = DaemonPaths.socketPath()) {
        self.socketPath = socketPath
    }

    /// Connects, sends `request` and returns the connection (-1 when the daemon refused and closed it) and
    /// the first response.
    ///
    /// A daemon with no room for the client (every connection slot taken, no descriptor free) answers
    /// busy without reading the request (``DaemonResponse/busy``): the request is sent again after a pause
    /// (10 ms, doubling up to 250 ms) until ``answerDeadline`` has passed, and the last busy answer is
    /// returned then.
    func send(_ request: DaemonRequest) throws(Failure) -> (connection: Int32, response: DaemonResponse) {
        let deadline = ContinuousClock.now + Self.answerDeadline
        var pause = 10
        while true {
            let (connection, response) = try send(request, until: deadline)
            guard response.busy == true, ContinuousClock.now + .milliseconds(pause) < deadline else {
                return (connection, response)
            }
            if connection >= 0 { close(connection) }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, Int32(pause))
            pause = min(pause * 2, 250)
        }
    }

    /// One try of ``send(_:)``: the answer must come before `deadline`.
    private func send(
        _ request: DaemonRequest, until deadline: ContinuousClock.Instant
    ) throws(Failure) -> (connection: Int32, response: DaemonResponse) {
        // A path no socket can have says so, rather than that no daemon runs there.
        if let problem = DaemonSocket.pathProblem(socketPath) { throw Failure(description: problem) }
        let connection: Int32
        do {
            connection = try DaemonSocket.connect(to: socketPath)
        } catch {
            // Anything else (no descriptor left, no permission) is not the daemon's absence.
            guard error.meansNoDaemon else {
                throw Failure(description: "cannot connect to the daemon on \(socketPath): \(error)")
            }
            throw Failure(
                description:
                    "no daemon is running on \(socketPath) (\(error)); start one with 'syncgate daemon' "
                    + "or 'systemctl --user start syncgate'")
        }
        // Who listens is checked before a byte is sent: a process of another user listening on the path
        // (a socket directory it created first) would otherwise receive the command and its arguments.
        let own = getuid()
        guard let server = DaemonServer.peerUID(connection), server == own || server == 0 else {
            let shown = DaemonServer.peerUID(connection).map { "uid \($0)" } ?? "an unknown user"
            close(connection)
            throw Failure(
                description:
                    "refusing to talk to the process listening on \(socketPath): it runs as \(shown), not as uid "
                    + "\(own) or root, so it is not your daemon (nothing was sent)")
        }
        guard DaemonSocket.writeAll(connection, DaemonProtocol.encodeLine(request), until: deadline) else {
            // A daemon that refuses the client answers and closes before reading: read the refusal.
            defer { close(connection) }
            if let line = try? DaemonSocket.readLine(connection, limit: 1 << 20, until: deadline),
                let response = try? DaemonProtocol.decodeResponse(line)
            {
                return (-1, response)
            }
            throw Failure(description: "the daemon on \(socketPath) did not take the request")
        }
        do {
            let line = try DaemonSocket.readLine(connection, limit: 1 << 30, until: deadline)
            return (connection, try DaemonProtocol.decodeResponse(line))
        } catch {
            close(connection)
            throw Failure(description: "no answer from the daemon on \(socketPath): \(error)")
        }
    }

    /// Sends `request` and returns the response.
    package func request(_ request: DaemonRequest) throws(Failure) -> DaemonResponse {
        let (connection, response) = try send(request)
        if connection >= 0 { close(connection) }
        return response
    }

    /// Reads the second line of `submit --wait` on `connection`, without a deadline; `nil` when the
    /// connection ends first.
    static func readOutcome(_ connection: Int32) async -> DaemonResponse? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                SignalWatcher.blockWatchedSignals()
                let line = try? DaemonSocket.readLine(connection, limit: 1 << 20, until: .now + .seconds(366 * 86_400))
                continuation.resume(returning: line.flatMap { try? DaemonProtocol.decodeResponse($0) })
            }
        }
    }
}

extension DaemonClient {
    /// Runs the client side of a subcommand under the tool's signal watcher, with a client of the default
    /// socket: `body`'s exit status, or 1 with the failure on stderr.
    static func session(
        _ body: (DaemonClient, AsyncStream<Int32>) async throws(Failure) -> Int32
    ) async -> Int32 {
        guard let signals = SignalWatcher.reporting(SignalWatcher.make()) else { return ExitCode.failure }
        do {
            return try await body(DaemonClient(), signals.signals)
        } catch {
            Output.error(error.description)
            return ExitCode.failure
        }
    }

    /// Sends `request` and returns the response, or throws the daemon's refusal, escaped for a terminal.
    func checkedRequest(_ request: DaemonRequest) throws(Failure) -> DaemonResponse {
        let response = try self.request(request)
        guard response.ok else {
            throw Failure(description: DaemonLimits.escaped(response.error ?? "the daemon refused"))
        }
        return response
    }
}
