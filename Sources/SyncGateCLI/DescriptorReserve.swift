#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file descriptors a `syncgate` command needs free when it starts, and the check that they are.
///
/// A command opens descriptors as it starts and as it runs: the signal watcher's, the network observer's
/// rtnetlink sockets, inotify instances, D-Bus sockets, libdispatch's event instance, a child's pipes, the
/// daemon's clients and journal. A process that runs out of them part way fails in ways a user cannot read:
/// libdispatch traps when it cannot create its event instance, and a network observer without its socket
/// reports no network, so `run --require network` waits for a network that is up. The tool checks first
/// and refuses to start with one line instead (``SyncGateTool``).
package enum DescriptorReserve {
    /// How many descriptors a command needs free when it starts.
    ///
    /// About what the heaviest command needs to do its work once: the daemon serving one client while
    /// one job's command runs (the other commands need fewer). Each further client and job takes more,
    /// and a daemon that runs out refuses clients until descriptors are freed (``DaemonServer``).
    package static let needed = 32

    /// Why a command does not start: fewer than ``needed`` descriptors could be opened.
    package struct Shortage: Error, Sendable, Hashable, CustomStringConvertible {
        /// How many descriptors could be opened before the limit was reached.
        package var free: Int
        /// How many a command needs.
        package var needed: Int
        /// The process's descriptor limit (`ulimit -n`), if it could be read.
        package var limit: UInt64?

        /// `too few free file descriptors: 5 could be opened, syncgate needs 32 (limit 20; raise it with 'ulimit -n')`.
        package var description: String {
            let limitText = limit.map { "limit \($0); " } ?? ""
            return "too few free file descriptors: \(free) could be opened, syncgate needs \(needed) "
                + "(\(limitText)raise it with 'ulimit -n')"
        }
    }

    /// The shortage, when fewer than `needed` descriptors can be opened now; `nil` when they can, or when
    /// opening failed for a reason other than the descriptor limits (the command then runs, and reports
    /// whatever fails).
    ///
    /// Opens `/dev/null` up to `needed` times and closes every descriptor it opened before it returns.
    package static func shortage(needed: Int = needed) -> Shortage? {
        var opened: [Int32] = []
        opened.reserveCapacity(needed)
        defer { for descriptor in opened { close(descriptor) } }
        while opened.count < needed {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                guard code == EMFILE || code == ENFILE else { return nil }
                return Shortage(free: opened.count, needed: needed, limit: currentLimit())
            }
            opened.append(descriptor)
        }
        return nil
    }

    /// The soft limit on this process's descriptors (`RLIMIT_NOFILE`, `ulimit -n`); `nil` when it cannot
    /// be read. ``isUnlimited(_:)`` tells the value that stands for no limit.
    package static var limit: rlim_t? {
        var limits = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        return getrlimit(resource, &limits) == 0 ? limits.rlim_cur : nil
    }

    /// Whether `limit` stands for no limit: RLIM_INFINITY is all bits set on Linux and 2^63 - 1 on Darwin
    /// (and does not import from Glibc).
    package static func isUnlimited(_ limit: rlim_t) -> Bool {
        limit >= rlim_t(Int64.max)
    }

    /// The limit, when there is one.
    private static func currentLimit() -> UInt64? {
        guard let limit, !isUnlimited(limit) else { return nil }
        return UInt64(limit)
    }
}
