import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process group as `/proc` shows it: which of its processes still live, and how to end them all.
///
/// A group's id is its leader's process id, and Linux does not hand that number to a new process while
/// any process of the group (a zombie leader included) still holds it. So a group whose leader is
/// unreaped, or whose id is still carried by a living member, is the same group it was when it was
/// created, and signals sent to it reach only its own processes. A process that leaves the group
/// (`setsid`, `setpgid`) is out of its reach.
package struct ProcessGroup: Sendable, Hashable {
    /// One line of `/proc/PID/stat`: the fields the daemon reads.
    package struct Stat: Sendable, Hashable {
        /// The process id.
        package var pid: pid_t
        /// The state letter (`R`, `S`, `D`, `Z`, …).
        package var state: Character
        /// The parent's process id.
        package var parent: pid_t
        /// The process group id.
        package var group: pid_t
        /// The start time in clock ticks after boot: with the id, the process's identity.
        package var startTime: UInt64

        /// Whether the process still runs (it is neither a zombie nor dead).
        package var isLiving: Bool { state != "Z" && state != "X" && state != "x" }

        /// Parses the text of `/proc/PID/stat`; `nil` when it is not one.
        package init?(_ text: String) {
            self.init(bytes: Array(text.utf8))
        }

        /// Parses the bytes of `/proc/PID/stat`; `nil` when they are not one.
        ///
        /// The command name (field 2) may hold spaces, parentheses and any other bytes, so the fields are
        /// counted from the last `)` byte. (Searched as characters, a `)` after a character that joins
        /// what follows it, such as U+0600, is not found, and such a process would read as none.)
        package init?(bytes: [UInt8]) {
            let closing = UInt8(ascii: ")")
            let space = UInt8(ascii: " ")
            guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: closing),
                open < close,
                let pid = pid_t(String(decoding: bytes[..<open], as: UTF8.self).trimmingCharacters(in: .whitespaces))
            else { return nil }
            let fields = bytes[(close + 1)...].split(separator: space).map { String(decoding: $0, as: UTF8.self) }
            // Fields 3… of proc(5): state, ppid, pgrp, …, starttime (22).
            guard fields.count >= 20, let state = fields[0].first, let parent = pid_t(fields[1]),
                let group = pid_t(fields[2]), let startTime = UInt64(fields[19])
            else { return nil }
            self.pid = pid
            self.state = state
            self.parent = parent
            self.group = group
            self.startTime = startTime
        }

        /// The stat of process `pid`, or `nil` when there is none.
        package static func read(_ pid: pid_t) -> Stat? {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
            return Stat(bytes: Array(data))
        }
    }

    /// The group's id: its leader's process id.
    let id: pid_t

    /// The processes of the group that still run (zombies excluded), in no particular order.
    func livingMembers() -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let stat = Stat.read(pid), stat.group == id, stat.isLiving else {
                return nil
            }
            return pid
        }
    }

    /// Sends `signal` to every process of the group; false when the group no longer exists.
    @discardableResult
    func signal(_ signal: Int32) -> Bool {
        kill(-id, signal) == 0
    }

    /// Ends the group: SIGTERM (and SIGCONT, so a stopped process sees it), then SIGKILL to the whole
    /// group once `gracePeriod` has passed with a process still living; returns when no process of the
    /// group lives, or after ``killDeadline`` more if one outlives SIGKILL (a process stuck in the
    /// kernel). Returns the processes that still lived then (normally none).
    ///
    /// Blocks the calling thread; call it on a thread of its own, never on the cooperative pool.
    @discardableResult
    func end(gracePeriod: Duration) -> [pid_t] {
        guard !livingMembers().isEmpty else { return [] }
        signal(SIGTERM)
        signal(SIGCONT)
        guard !waitUntilEmpty(within: gracePeriod) else { return [] }
        signal(SIGKILL)
        guard !waitUntilEmpty(within: Self.killDeadline) else { return [] }
        return livingMembers()
    }

    /// How long ``end(gracePeriod:)`` waits for the group to be gone after SIGKILL.
    static let killDeadline = Duration.seconds(10)

    /// Checks the group with growing pauses (5 ms doubling up to 100 ms) until none of it lives or
    /// `timeout` has passed; returns whether it is empty.
    func waitUntilEmpty(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var pause = 5
        while true {
            if livingMembers().isEmpty { return true }
            let left = deadline - .now
            guard left > .zero else { return false }
            let leftMilliseconds =
                Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000) + 1
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, Int32(min(pause, leftMilliseconds)))
            pause = min(pause * 2, 100)
        }
    }
}
