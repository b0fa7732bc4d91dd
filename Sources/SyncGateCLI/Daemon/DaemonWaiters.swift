import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clients of `submit --wait` between their two lines: each holds its connection's descriptor and a
/// task awaiting the job's outcome, but no connection slot and no thread of its own.
///
/// One thread watches every waiting connection for the client's hang-up (`POLLHUP`: the peer closed its
/// end); a client that hangs up stops waiting at once: its task is cancelled and its descriptor closed.
/// At most ``maximumWaiters`` clients wait at once; a place is reserved (``reserve()``) before the job
/// is submitted, so a client beyond the limit is refused before anything changes. Each descriptor is
/// closed exactly once, by whoever removes its entry under the lock: the outcome's task or the watcher.
final class DaemonWaiters: Sendable {
    /// The most clients waiting at once.
    static let maximumWaiters = 256

    private struct Entry {
        var descriptor: Int32
        var task: Task<Void, Never>?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var reserved = 0
        var nextToken = 0
    }

    private let state = LockedState(State())
    /// The watcher's wake-up pipe: reading end polled with the connections, writing end written to when
    /// the set changes.
    private let wake: (read: Int32, write: Int32)

    /// Creates the set and starts its watcher thread.
    init() throws {
        guard let pipe = CloseOnExecPipe.make(nonBlocking: true) else {
            throw DaemonSocket.Failure(description: "cannot create a pipe: \(SystemErrorText.described(errno))")
        }
        wake = pipe
        Thread.detachNewThread { [self] in
            SignalWatcher.blockWatchedSignals()
            watch()
        }
    }

    /// Reserves a place for one more waiting client; false when ``maximumWaiters`` are waiting or
    /// reserved.
    func reserve() -> Bool {
        state.withLock { state in
            guard state.entries.count + state.reserved < Self.maximumWaiters else { return false }
            state.reserved += 1
            return true
        }
    }

    /// Gives back a place reserved by ``reserve()`` that is not used.
    func cancelReservation() {
        state.withLock { $0.reserved -= 1 }
    }

    /// Uses a reserved place: from now on the set owns `connection`, and writes the line `outcome`
    /// returns to it, then closes it, unless the client hangs up first.
    func add(
        _ connection: Int32, handle: SyncJobHandle,
        outcome: @escaping @Sendable (SyncJobHandle) async -> DaemonResponse
    ) {
        state.withLock { state in
            state.reserved -= 1
            let token = state.nextToken
            state.nextToken += 1
            let task = Task { [self] in
                let response = await outcome(handle)
                finish(token, with: response)
            }
            state.entries[token] = Entry(descriptor: connection, task: task)
        }
        signalWatcher()
    }

    /// Ends the wait of `token`, writing `response` first when there is one; does nothing when it has
    /// already ended.
    private func finish(_ token: Int, with response: DaemonResponse?) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: token) }) else { return }
        if let response {
            DaemonSocket.writeAll(
                entry.descriptor, DaemonProtocol.encodeLine(response), until: .now + DaemonServer.responseDeadline)
        } else {
            entry.task?.cancel()
        }
        close(entry.descriptor)
        signalWatcher()
    }

    private func signalWatcher() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// Polls the waiting connections and the wake-up pipe; ends the wait of each connection whose peer
    /// hung up. With no events requested, poll reports only hang-ups and errors, so a client that sends
    /// more bytes or half-closes its end is not mistaken for one that left, and does not wake the thread.
    private func watch() {
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let snapshot = state.withLock { $0.entries.map { ($0.key, $0.value.descriptor) } }
            var entries = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            entries += snapshot.map { pollfd(fd: $0.1, events: 0, revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready < 0 { continue }
            if entries[0].revents != 0 {
                while drain.withUnsafeMutableBytes({ read(wake.read, $0.baseAddress, $0.count) }) > 0 {}
            }
            for (index, (token, _)) in snapshot.enumerated() {
                let events = Int32(entries[index + 1].revents)
                if events & Int32(POLLHUP | POLLERR) != 0 { finish(token, with: nil) }
            }
        }
    }
}
