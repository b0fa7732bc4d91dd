import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's Unix socket: accepts connections on a thread of its own and serves each on its own
/// thread, so a client that stalls holds only its own connection, for at most ``requestDeadline``.
///
/// The socket is created with mode 0600 in a directory of mode 0700 owned by the daemon's user; a
/// connection whose peer (`SO_PEERCRED`) is neither that user nor root is refused with an error line.
/// At most ``maximumConnections`` connections are served at once; more are refused with a busy answer
/// (``DaemonResponse/busy``), which ``DaemonClient`` retries until its deadline. A
/// `submit --wait` client gives its slot back once its job is queued and waits in ``DaemonWaiters``
/// (without a thread), so waiting clients never keep control requests out.
///
/// When `accept` fails for want of a descriptor (`EMFILE`, `ENFILE`), the daemon logs it once, frees a
/// descriptor it keeps in reserve to accept and refuse the pending client with an error line, and, when
/// even that fails, waits (10 ms, doubling up to 1 s) before trying again: it never spins. Other
/// failures for want of a resource (`ENOBUFS`, `ENOMEM`, …) are logged once and waited out the same
/// way; the loop ends only when the listener is shut down.
final class DaemonServer: Sendable {
    /// How long a client has to send its whole request line.
    static let requestDeadline = Duration.seconds(5)
    /// How long a client has to take a response.
    static let responseDeadline = Duration.seconds(5)
    /// The most connections served at once.
    static let maximumConnections = 64

    let path: String
    private let listener: Int32
    private let service: DaemonService
    private let connections = LockedState(0)
    private let stopped = LockedState(false)
    private let waiters: DaemonWaiters

    /// Creates the directory and the socket, refusing when another daemon answers on it.
    init(path: String, service: DaemonService) throws {
        self.path = path
        self.service = service
        waiters = try DaemonWaiters()
        let directory = (path as NSString).deletingLastPathComponent
        try Self.prepareDirectory(directory, ownEntries: [(path as NSString).lastPathComponent])
        if let existing = try? DaemonSocket.connect(to: path) {
            close(existing)
            throw DaemonSocket.Failure(description: "another daemon is listening on \(path)")
        }
        SystemBytes.withCString(path) { _ = unlink($0) }
        guard var address = DaemonSocket.address(path) else {
            throw DaemonSocket.Failure(description: DaemonSocket.pathProblem(path) ?? "invalid socket path \(path)")
        }
        let descriptor = try DaemonSocket.makeSocket()
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previous)
        guard bound == 0, SystemBytes.withCString(path, { chmod($0, 0o600) }) == 0, listen(descriptor, 64) == 0 else {
            let reason = SystemErrorText.message(errno)
            close(descriptor)
            throw DaemonSocket.Failure(description: "cannot listen on \(path): \(reason)")
        }
        listener = descriptor
    }

    /// Creates `directory` with mode 0700, or checks that an existing one is ours.
    ///
    /// An existing directory is closed to others (mode 0700) only when it holds nothing but `ownEntries`
    /// (SyncGate's own files): the mode of a directory shared with anything else (`/`, `/run`, a home
    /// directory given as `--socket` or `--state-dir`) is never changed.
    static func prepareDirectory(_ directory: String, ownEntries: Set<String>) throws {
        let code = try DaemonSocketLocation.makeDirectory(directory)
        if code != 0 && code != EEXIST {
            throw DaemonSocket.Failure(description: "cannot create \(directory): \(SystemErrorText.message(code))")
        }
        var info = stat()
        guard SystemBytes.withCString(directory, { stat($0, &info) }) == 0 else {
            throw DaemonSocket.Failure(description: "cannot read \(directory): \(SystemErrorText.message(errno))")
        }
        guard info.st_uid == getuid() else {
            throw DaemonSocket.Failure(description: "\(directory) belongs to uid \(info.st_uid), not \(getuid())")
        }
        if info.st_mode & 0o077 != 0 && DaemonSocketLocation.holdsOnly(ownEntries, directory) {
            SystemBytes.withCString(directory) { _ = chmod($0, 0o700) }
        }
    }

    /// Starts accepting connections on a thread of its own.
    func start() {
        Thread.detachNewThread { [self] in
            SignalWatcher.blockWatchedSignals()
            acceptLoop()
        }
    }

    /// Stops accepting and removes the socket; connections being served finish on their own.
    func stop() {
        stopped.withLock { $0 = true }
        SystemBytes.withCString(path) { _ = unlink($0) }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        // A descriptor in reserve, freed to accept (and refuse) a client when none is left.
        var spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        var exhausted = false
        var pause: Int32 = 10
        while !stopped.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
            if connection < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                // The listener was shut down (stop()) or is broken: nothing more to accept.
                if stopped.withLock({ $0 }) || code == EINVAL || code == EBADF || code == ENOTSOCK { return }
                let descriptors = code == EMFILE || code == ENFILE
                if !exhausted {
                    exhausted = true
                    let reason = SystemErrorText.message(code)
                    service.log(
                        descriptors
                            ? "cannot accept a connection: \(reason) (descriptor limit \(Self.descriptorLimit())); "
                                + "refusing clients until a descriptor is freed"
                            : "cannot accept a connection: \(reason); trying again with growing pauses")
                }
                // The reserve is lost when another thread took its descriptor between our close and our
                // open again: take it back as soon as one is free, or no client would be refused again.
                if descriptors && spare < 0 { spare = open("/dev/null", O_RDONLY | O_CLOEXEC) }
                if descriptors && spare >= 0 {
                    close(spare)
                    let pending = accept(listener, nil, nil)
                    if pending >= 0 {
                        refuseForWantOfRoom(
                            pending,
                            "the daemon has no file descriptor free (\(SystemErrorText.message(code))); try again")
                    }
                    spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    if pending >= 0 && spare >= 0 { continue }
                }
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, pause)
                pause = min(pause * 2, 1000)
                continue
            }
            pause = 10
            if exhausted {
                exhausted = false
                service.log("accepting connections again")
            }
            if spare < 0 { spare = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            let admitted = connections.withLock { count -> Bool in
                guard count < Self.maximumConnections else { return false }
                count += 1
                return true
            }
            guard admitted else {
                refuseForWantOfRoom(connection, "too many connections; try again")
                continue
            }
            Thread.detachNewThread { [self] in
                SignalWatcher.blockWatchedSignals()
                serve(connection)
                connections.withLock { $0 -= 1 }
            }
        }
    }

    /// The soft limit on this process's descriptors (`RLIMIT_NOFILE`).
    static func descriptorLimit() -> String {
        guard let limit = DescriptorReserve.limit else { return "unknown" }
        return DescriptorReserve.isUnlimited(limit) ? "unlimited" : String(limit)
    }

    /// Answers a client the daemon has no room for (``DaemonResponse/busy(_:)``, which the client retries)
    /// without reading its request, and closes the connection.
    private func refuseForWantOfRoom(_ connection: Int32, _ message: String) {
        DaemonSocket.writeAll(
            connection, DaemonProtocol.encodeLine(DaemonResponse.busy(message)), until: .now + .milliseconds(200))
        close(connection)
    }

    #if canImport(Glibc)
        /// SO_PEERCRED of <asm-generic/socket.h> (not exported to Swift without _GNU_SOURCE).
        private static let peerCredentialsOption: Int32 = 17
    #endif

    /// The user id of the peer, or `nil` when the kernel does not say.
    static func peerUID(_ connection: Int32) -> uid_t? {
        #if canImport(Glibc)
            // struct ucred of <sys/socket.h> (not exported to Swift without _GNU_SOURCE).
            // Starts as no user at all: a short answer must not read as root's uid 0.
            var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, uid_t.max, gid_t.max)
            let size = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
            var length = size
            guard getsockopt(connection, SOL_SOCKET, peerCredentialsOption, &credentials, &length) == 0,
                length == size, credentials.uid != uid_t.max
            else { return nil }
            return credentials.uid
        #else
            var uid: uid_t = 0
            var gid: gid_t = 0
            guard getpeereid(connection, &uid, &gid) == 0 else { return nil }
            return uid
        #endif
    }

    /// Serves one connection and closes it, unless a `submit --wait` client is left waiting in
    /// ``waiters``, which then owns it.
    private func serve(_ connection: Int32) {
        if !serveOrHandOver(connection) { close(connection) }
    }

    /// Serves one connection; true when it was handed over to ``waiters``.
    private func serveOrHandOver(_ connection: Int32) -> Bool {
        let own = getuid()
        guard let uid = Self.peerUID(connection), uid == own || uid == 0 else {
            let uid = Self.peerUID(connection).map(String.init) ?? "unknown"
            service.log("refused a client with uid \(uid) (only uid \(own) and root may connect)")
            DaemonSocket.writeAll(
                connection,
                DaemonProtocol.encodeLine(
                    DaemonResponse.failure("permission denied: uid \(uid) may not use the daemon of uid \(own)")),
                until: .now + Self.responseDeadline)
            return false
        }
        let request: DaemonRequest
        do {
            let line = try DaemonSocket.readLine(
                connection, limit: DaemonProtocol.maximumRequestSize, until: .now + Self.requestDeadline)
            request = try DaemonProtocol.decodeRequest(line)
        } catch {
            service.log("refused a request: \(error)")
            DaemonSocket.writeAll(
                connection, DaemonProtocol.encodeLine(DaemonResponse.failure("\(error)")),
                until: .now + Self.responseDeadline)
            return false
        }
        let waits = request.submission?.wait == true
        if waits && !waiters.reserve() {
            DaemonSocket.writeAll(
                connection,
                DaemonProtocol.encodeLine(
                    DaemonResponse.failure(
                        "too many clients are waiting (\(DaemonWaiters.maximumWaiters)); nothing was queued; "
                            + "submit without --wait or try again")),
                until: .now + Self.responseDeadline)
            return false
        }
        let (response, waitFor) = service.handle(request)
        guard
            DaemonSocket.writeAll(connection, DaemonProtocol.encodeLine(response), until: .now + Self.responseDeadline)
        else {
            if waits { waiters.cancelReservation() }
            return false
        }
        if response.ok, case .logs(let id, stream: true) = request {
            service.runLog.stream(id: id) { DaemonSocket.writeAll(connection, $0, until: .now + Self.responseDeadline) }
            return false
        }
        guard let handle = waitFor else {
            if waits { waiters.cancelReservation() }
            return false
        }
        let service = service
        waiters.add(connection, handle: handle) { await service.outcome(of: $0) }
        return true
    }
}
