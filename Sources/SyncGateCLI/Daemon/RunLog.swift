import Foundation
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's record of a job's runs, kept in files so it outlives the daemon.
///
/// Each job has a directory `runs/ID/` under the state directory with `job.json` (its ``ShellJob``),
/// `runs.jsonl` (one line when a run starts and one when it ends, with the stop reason of a run the
/// daemon stopped) and `N.out` / `N.err`, each run's stdout and stderr, cut at ``outputLimit`` bytes;
/// while a run is being stopped, `N.stop` holds the reason (``stopReasonPath(id:run:)``). A run that started but has no end line when the
/// daemon starts was cut short by the daemon's death; ``closeInterruptedRuns()`` records it as
/// interrupted.
///
/// What is kept per job is bounded: when a run ends, the output files of all but the newest
/// ``keptRunOutputs`` runs are deleted, and older ones too while the job's output files exceed
/// ``jobOutputLimit`` (the newest run's output always stays); `runs.jsonl` keeps the records of the newest
/// ``keptRunRecords`` runs. Runs are numbered from 1 for the job's whole life, dropped or not.
///
/// A line of `runs.jsonl` that cannot be written whole (a full disk, an I/O error) leaves nothing of
/// itself in the file (what was written of it is cut off again); the line is kept in memory, read with
/// the file's lines by every query, and written before the job's next line. Copies of a run log share
/// those lines; a daemon that stops before they are written loses them.
package struct RunLog: Sendable {
    /// The most bytes kept of one run's stdout, and of its stderr: 1 MiB.
    package static let outputLimit = 1 << 20
    /// The runs whose output is kept per job: the newest 10.
    package static let keptRunOutputs = 10
    /// The most bytes of output files kept per job, beyond the newest run's: 16 MiB.
    package static let jobOutputLimit = 16 << 20
    /// The runs whose start and end records are kept per job: the newest 1000.
    package static let keptRunRecords = 1000
    /// The size of the output chunks ``stream(id:write:)`` sends: 48 KiB, 64 KiB in base64.
    static let chunkSize = 48 << 10

    /// One line of `runs.jsonl`.
    struct Entry: Codable {
        var event: String
        var run: Int
        var attempt: Int?
        var at: String
        var exitStatus: Int32?
        var interrupted: Bool?
        /// Why the daemon stopped the run (``SyncJobStopReason/description``); absent otherwise, and in
        /// lines written before stop reasons were recorded.
        var stopReason: String? = nil
    }

    /// How long the record of a job that is no longer in the store is kept: 30 days.
    package static let retention = Duration.seconds(30 * 86_400)

    /// The most lines kept in memory per job while they cannot be written: the newest 64.
    static let keptUnwrittenLines = 64

    /// The `runs` directory.
    package let directory: String
    /// Per job, the lines of `runs.jsonl` not written yet, oldest first (at most ``keptUnwrittenLines``).
    private let unwritten = LockedState<[String: [Entry]]>([:])

    /// Uses `directory`, created with mode 0700 if missing.
    package init(directory: String) throws {
        self.directory = directory
        try SystemFiles.makeDirectories(directory, mode: 0o700)
    }

    private func jobDirectory(_ id: String) -> String { directory + "/" + id }

    /// Whether `id` can name a job directory (no path separators, no dot files).
    static func isSafe(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && id.utf8.count <= 200
    }

    /// Records a newly submitted job.
    package func recordJob(id: String, _ job: ShellJob) throws {
        guard Self.isSafe(id) else { return }
        try SystemFiles.makeDirectories(jobDirectory(id), mode: 0o700)
        do {
            try SystemFiles.writeFile(JSONEncoder().encode(job), to: jobDirectory(id) + "/job.json")
        } catch {
            // A refused submission leaves nothing behind (a full disk may have cut the file short).
            SystemFiles.removeTree(jobDirectory(id))
            throw error
        }
    }

    /// The job's payload as recorded at submission.
    package func job(id: String) -> ShellJob? {
        guard Self.isSafe(id), let data = SystemFiles.contents(jobDirectory(id) + "/job.json") else {
            return nil
        }
        return try? JSONDecoder().decode(ShellJob.self, from: data)
    }

    /// The most runs a job's log counts: a line with a run number outside `1...maximumRun` is damaged
    /// and skipped like one that does not decode (the numbers are added to and subtracted from).
    static let maximumRun = 1 << 50

    /// The job's records: those of the file that decode, in the order written, then those not written yet.
    private func entries(id: String) -> [Entry] {
        fileEntries(id: id) + unwritten.withLock { $0[id] ?? [] }
    }

    /// The job's records in `runs.jsonl` that decode, in the order written.
    private func fileEntries(id: String) -> [Entry] {
        guard Self.isSafe(id), let data = SystemFiles.contents(jobDirectory(id) + "/runs.jsonl") else {
            return []
        }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let entry = try? JSONDecoder().decode(Entry.self, from: line),
                (1...Self.maximumRun).contains(entry.run)
            else { return nil }
            return entry
        }
    }

    /// Appends the job's lines not written yet, then `entry`, each whole or not at all; returns why a
    /// line could not be written (it is then kept in memory with those after it, for the next append).
    ///
    /// A file whose last line was cut short (a crash during a write) first gets the newline it lacks, so
    /// the cut line stays alone, skipped as damaged, and this one reads whole.
    private func append(_ entry: Entry, id: String) -> String? {
        guard Self.isSafe(id) else { return nil }
        let waiting = unwritten.withLock { unwritten in
            unwritten[id, default: []].append(entry)
            if unwritten[id, default: []].count > Self.keptUnwrittenLines {
                unwritten[id]?.removeFirst()
            }
            return unwritten[id] ?? []
        }
        let path = jobDirectory(id) + "/runs.jsonl"
        var written = 0
        let failure = Self.appendLines(waiting.map { DaemonProtocol.encodeLine($0) }, to: path, written: &written)
        // Only this job's runs append to its file, one at a time: the first `written` lines are the
        // oldest kept, still first in memory.
        unwritten.withLock { unwritten in
            let left = Array((unwritten[id] ?? []).dropFirst(written))
            unwritten[id] = left.isEmpty ? nil : left
        }
        return failure
    }

    /// Appends each of `lines` (each ending with a newline) to the file at `path`, whole or not at all,
    /// and syncs it; counts in `written` those written and synced; returns why the next one was not.
    private static func appendLines(_ lines: [[UInt8]], to path: String, written: inout Int) -> String? {
        let descriptor = SystemBytes.withCString(path) { open($0, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return "cannot open \(path): \(SystemErrorText.described(errno))" }
        defer { close(descriptor) }
        var size = lseek(descriptor, 0, SEEK_END)
        var last: UInt8 = 0
        var separator: [UInt8] = []
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            separator = [UInt8(ascii: "\n")]
        }
        for line in lines {
            let bytes = separator + line
            if let failure = writeAll(descriptor, bytes) {
                // What was written of the line is cut off again: no torn line for a later one to follow.
                _ = ftruncate(descriptor, size)
                return "cannot write \(path): \(failure)"
            }
            guard fsync(descriptor) == 0 else {
                let failure = SystemErrorText.described(errno)
                _ = ftruncate(descriptor, size)
                return "cannot write \(path): \(failure)"
            }
            size += off_t(bytes.count)
            separator = []
            written += 1
        }
        return nil
    }

    /// Writes all of `bytes` to `descriptor`, again after an interruption or a short write; `nil` once
    /// written, else the error that stopped it (described, as ``SystemErrorText/described(_:)`` does).
    static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> String? {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return SystemErrorText.described(count < 0 ? errno : EIO) }
                offset += count
            }
            return nil
        }
    }

    /// Records the start of a run and returns its number; calls `unrecorded` with why when the line
    /// cannot be written (it is kept in memory meanwhile, so the number is not given again).
    package func startRun(id: String, attempt: Int, unrecorded: (String) -> Void = { _ in }) -> Int {
        let run = (entries(id: id).map(\.run).max() ?? 0) + 1
        if let failure = append(Entry(event: "started", run: run, attempt: attempt, at: Output.timestamp()), id: id) {
            unrecorded(failure)
        }
        return run
    }

    /// Records the end of a run, with why the daemon stopped it if it did, removes the run's stop-reason
    /// file, then drops what is over the job's bounds (``trim(id:)``); calls `unrecorded` with why when
    /// the line cannot be written (it is kept in memory meanwhile).
    package func endRun(
        id: String, run: Int, exitStatus: Int32?, interrupted: Bool, stopReason: String? = nil,
        unrecorded: (String) -> Void = { _ in }
    ) {
        let entry = Entry(
            event: "ended", run: run, at: Output.timestamp(), exitStatus: exitStatus, interrupted: interrupted,
            stopReason: stopReason)
        if let failure = append(entry, id: id) { unrecorded(failure) }
        if Self.isSafe(id) { SystemBytes.withCString(stopReasonPath(id: id, run: run)) { _ = unlink($0) } }
        trim(id: id)
    }

    /// The file a stopped run's reason is written to before its command gets SIGTERM
    /// (`$SYNCGATE_STOP_REASON_FILE`): one line, ``SyncJobStopReason/description``; removed when the run
    /// ends.
    package func stopReasonPath(id: String, run: Int) -> String {
        jobDirectory(id) + "/\(run).stop"
    }

    /// Why the daemon stopped the job's last ended run; `nil` when that run was not stopped.
    package func lastStopReason(id: String) -> String? {
        entries(id: id).last { $0.event == "ended" }?.stopReason
    }

    /// The number of the job's newest run: how many times its command started, across restarts.
    package func runCount(id: String) -> Int {
        entries(id: id).map(\.run).max() ?? 0
    }

    /// Deletes the output of runs beyond ``keptRunOutputs`` and ``jobOutputLimit``, oldest first, and
    /// rewrites `runs.jsonl` with the newest ``keptRunRecords`` runs once it holds twice as many.
    package func trim(id: String) {
        guard Self.isSafe(id) else { return }
        let directory = jobDirectory(id)
        let names = SystemFiles.entries(directory) ?? []
        var sizes: [Int: Int] = [:]
        for name in names {
            let parts = name.split(separator: ".")
            guard parts.count == 2, parts[1] == "out" || parts[1] == "err", let run = Int(parts[0]) else { continue }
            var info = stat()
            let size = SystemBytes.withCString(directory + "/" + name) { stat($0, &info) } == 0 ? Int(info.st_size) : 0
            sizes[run, default: 0] += size
        }
        var total = 0
        for (index, run) in sizes.keys.sorted(by: >).enumerated() {
            total += sizes[run] ?? 0
            if index == 0 { continue }
            if index >= Self.keptRunOutputs || total > Self.jobOutputLimit {
                let paths = outputPaths(id: id, run: run)
                SystemBytes.withCString(paths.stdout) { _ = unlink($0) }
                SystemBytes.withCString(paths.stderr) { _ = unlink($0) }
            }
        }
        let entries = fileEntries(id: id)
        guard let newest = entries.map(\.run).max(), Set(entries.map(\.run)).count > 2 * Self.keptRunRecords else {
            return
        }
        let kept = entries.filter { $0.run > newest - Self.keptRunRecords }
        let temporary = directory + "/runs.jsonl.new"
        let descriptor = SystemBytes.withCString(temporary) {
            open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return }
        let bytes = kept.flatMap { DaemonProtocol.encodeLine($0) }
        let written = Self.writeAll(descriptor, bytes) == nil
        let synced = written && fsync(descriptor) == 0
        close(descriptor)
        SystemBytes.withCString(temporary) { temporary in
            if synced {
                _ = SystemBytes.withCString(directory + "/runs.jsonl") { rename(temporary, $0) }
            } else {
                _ = unlink(temporary)
            }
        }
    }

    /// The paths of a run's stdout and stderr files.
    package func outputPaths(id: String, run: Int) -> (stdout: String, stderr: String) {
        (jobDirectory(id) + "/\(run).out", jobDirectory(id) + "/\(run).err")
    }

    /// Records as interrupted every run that has no end line; returns how many.
    @discardableResult
    package func closeInterruptedRuns() -> Int {
        let ids = SystemFiles.entries(directory) ?? []
        var count = 0
        for id in ids where Self.isSafe(id) {
            let entries = entries(id: id)
            let ended = Set(entries.filter { $0.event == "ended" }.map(\.run))
            for entry in entries where entry.event == "started" && !ended.contains(entry.run) {
                endRun(id: id, run: entry.run, exitStatus: nil, interrupted: true)
                count += 1
            }
            trim(id: id)
        }
        return count
    }

    /// Removes the records of jobs not in `pending` that have not changed for ``retention``; returns how
    /// many.
    @discardableResult
    package func prune(keeping pending: Set<String>, now: Date = Date()) -> Int {
        let ids = SystemFiles.entries(directory) ?? []
        let limit = now.addingTimeInterval(-Double(Self.retention.components.seconds))
        var removed = 0
        for id in ids where Self.isSafe(id) && !pending.contains(id) {
            let path = jobDirectory(id)
            let changed = [path, path + "/runs.jsonl"].compactMap(SystemFiles.modificationDate).max()
            if let changed, changed < limit, SystemFiles.removeTree(path) {
                unwritten.withLock { $0[id] = nil }
                removed += 1
            }
        }
        return removed
    }

    /// The last ended run's exit status.
    package func lastExitStatus(id: String) -> Int32? {
        entries(id: id).last { $0.event == "ended" && $0.exitStatus != nil }?.exitStatus
    }

    /// Every kept run of the job with its output; `nil` when the daemon has no record of it.
    ///
    /// The one-line answer of a `logs` request without `stream`: at most what ``trim(id:)`` keeps.
    package func runs(id: String) -> [DaemonResponse.Run]? {
        guard let runs = runRecords(id: id) else { return nil }
        return runs.map { run in
            var run = run
            let paths = outputPaths(id: id, run: run.run)
            run.stdout = Self.contents(paths.stdout)
            run.stderr = Self.contents(paths.stderr)
            return run
        }
    }

    /// The kept runs' records, without output (``DaemonResponse/Run/stdout`` and `stderr` empty); `nil`
    /// when the daemon has no record of the job.
    func runRecords(id: String) -> [DaemonResponse.Run]? {
        guard Self.isSafe(id), SystemFiles.exists(jobDirectory(id)) else { return nil }
        var runs: [Int: DaemonResponse.Run] = [:]
        for entry in entries(id: id) {
            if entry.event == "started" {
                let paths = outputPaths(id: id, run: entry.run)
                let dropped = !SystemFiles.exists(paths.stdout) && !SystemFiles.exists(paths.stderr)
                runs[entry.run] = DaemonResponse.Run(
                    run: entry.run, attempt: entry.attempt ?? 0, startedAt: entry.at, endedAt: nil, exitStatus: nil,
                    interrupted: false, stdout: "", stderr: "", outputDropped: dropped ? true : nil)
            } else if entry.event == "ended" {
                runs[entry.run]?.endedAt = entry.at
                runs[entry.run]?.exitStatus = entry.exitStatus
                runs[entry.run]?.interrupted = entry.interrupted ?? false
                runs[entry.run]?.stopReason = entry.stopReason
            }
        }
        return runs.keys.sorted().compactMap { runs[$0] }
    }

    /// Sends the job's kept runs as ``LogStreamLine``s through `write`: per run its record, then its
    /// stdout and its stderr in base64 chunks of ``chunkSize`` bytes, read from the files as they go
    /// (never a whole run in memory), and an end line. Stops when `write` returns false; returns whether
    /// every line was written.
    @discardableResult
    package func stream(id: String, write: ([UInt8]) -> Bool) -> Bool {
        let runs = runRecords(id: id) ?? []
        for run in runs {
            guard write(DaemonProtocol.encodeLine(LogStreamLine(run: run))) else { return false }
            let paths = outputPaths(id: id, run: run.run)
            for (stream, path) in [("stdout", paths.stdout), ("stderr", paths.stderr)] {
                let file = SystemBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
                guard file >= 0 else { continue }
                defer { close(file) }
                var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
                var left = Self.outputLimit + 200
                while left > 0 {
                    let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, min($0.count, left)) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    left -= count
                    let chunk = LogStreamLine.Chunk(
                        run: run.run, stream: stream, base64: Data(buffer[..<count]).base64EncodedString())
                    guard write(DaemonProtocol.encodeLine(LogStreamLine(output: chunk))) else { return false }
                }
            }
        }
        return write(DaemonProtocol.encodeLine(LogStreamLine(end: runs.count)))
    }

    private static func contents(_ path: String) -> String {
        guard let data = SystemFiles.contents(path) else { return "" }
        return String(decoding: data.prefix(outputLimit + 200), as: UTF8.self)
    }
}
