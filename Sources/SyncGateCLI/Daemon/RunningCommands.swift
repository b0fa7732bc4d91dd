import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The commands the daemon is running, recorded on disk for as long as each runs, so that a daemon
/// started after a crash (or `kill -9`) finds the commands of its predecessor that still run and stops
/// them before it runs any job: one job never runs twice at once.
///
/// Each running command has a file `running/ID.json` under the state directory holding its job id, run
/// number, process id (which is also its process group's id) and start time (`/proc/PID/stat`, clock
/// ticks after boot), written and synced after the spawn and removed once the whole group has ended. The
/// id and the start time together name one process: a process id reused by another process has another
/// start time, and while any process of the group lives, its id is not reused.
struct RunningCommands: Sendable {
    /// One running command.
    struct Record: Codable, Sendable, Hashable {
        /// The job's id.
        var job: String
        /// The run's number in the job's run log.
        var run: Int
        /// The process id of the command (the leader of its process group).
        var pid: pid_t
        /// The leader's start time, field 22 of `/proc/PID/stat`.
        var startTime: UInt64
    }

    /// The `running` directory.
    let directory: String

    /// Uses `directory`, created with mode 0700 if missing.
    init(directory: String) throws {
        self.directory = directory
        try SystemFiles.makeDirectories(directory, mode: 0o700)
    }

    private func path(_ job: String) -> String { directory + "/" + job + ".json" }

    /// A record that could not be written, and why: the step that failed, its path and the system's reason.
    struct RecordFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Records a command that has just started: writes and syncs the record under a temporary name, then
    /// renames it into place. Throws ``RecordFailed`` when any step fails (no space, no permission, no
    /// descriptor left, a job id that cannot name a file); then no record of the run is on disk and
    /// nothing is left under the temporary name.
    func record(_ record: Record) throws(RecordFailed) {
        guard RunLog.isSafe(record.job) else {
            throw RecordFailed(description: "the job id \(record.job) cannot name a file")
        }
        let data: Data
        do {
            data = try JSONEncoder().encode(record)
        } catch {
            throw RecordFailed(description: "cannot encode the record: \(error)")
        }
        let final = path(record.job)
        let temporary = final + ".new"
        /// The failure of `action` on `path` that has just set `errno`.
        func failed(_ action: String, _ path: String) -> RecordFailed {
            let code = errno
            return RecordFailed(description: "cannot \(action) \(path): \(SystemErrorText.message(code))")
        }
        let descriptor = SystemBytes.withCString(temporary) {
            open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw failed("create", temporary) }
        var failure: RecordFailed? = nil
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written < 0 { failure = failed("write", temporary) }
                if written == 0 { failure = RecordFailed(description: "cannot write \(temporary): nothing written") }
                guard written > 0 else { return }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = failed("sync", temporary) }
        close(descriptor)
        if failure == nil {
            let renamed = SystemBytes.withCString(temporary) { from in
                SystemBytes.withCString(final) { rename(from, $0) }
            }
            if renamed != 0 { failure = failed("rename \(temporary) to", final) }
        }
        if let failure {
            SystemBytes.withCString(temporary) { _ = unlink($0) }
            throw failure
        }
    }

    /// Forgets the job's command once its group has ended.
    func remove(job: String) {
        guard RunLog.isSafe(job) else { return }
        SystemBytes.withCString(path(job)) { _ = unlink($0) }
    }

    /// Every record on disk.
    func records() -> [Record] {
        let names = SystemFiles.entries(directory) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = SystemFiles.contents(directory + "/" + name) else { return nil }
            return try? JSONDecoder().decode(Record.self, from: data)
        }
    }

    /// The processes of the record's group that still run; none when the group's id now names another
    /// process (the record's group has ended and its id was reused).
    static func survivors(of record: Record) -> [pid_t] {
        if let leader = ProcessGroup.Stat.read(record.pid), leader.startTime != record.startTime { return [] }
        return ProcessGroup(id: record.pid).livingMembers()
    }

    /// Ends the process group of every recorded command that outlived the daemon that started it
    /// (SIGTERM, then SIGKILL after `gracePeriod`), all at once, logging each, and removes every record.
    /// Blocks until they have ended; call it before any job runs.
    func stopSurvivors(gracePeriod: Duration, log: @Sendable (String) -> Void) {
        let found = records().map { ($0, Self.survivors(of: $0)) }.filter { !$0.1.isEmpty }
        for (record, pids) in found {
            log(
                "job \(record.job) run \(record.run): the command of the previous daemon still runs (process group "
                    + "\(record.pid): \(pids.sorted().map(String.init).joined(separator: " "))); stopping it "
                    + "before any job starts")
        }
        let outliving = LockedState<[String: [pid_t]]>([:])
        DispatchQueue.concurrentPerform(iterations: found.count) { index in
            let (record, _) = found[index]
            let left = ProcessGroup(id: record.pid).end(gracePeriod: gracePeriod)
            outliving.withLock { $0[record.job] = left }
        }
        for (record, _) in found {
            let left = outliving.withLock { $0[record.job] } ?? []
            if left.isEmpty {
                log("job \(record.job) run \(record.run): the previous daemon's command has ended")
            } else {
                log(
                    "job \(record.job) run \(record.run): processes \(left.map(String.init).joined(separator: " ")) "
                        + "of the previous daemon's command outlived SIGKILL")
            }
        }
        for record in records() { remove(job: record.job) }
    }
}
