import Foundation

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

    /// The `runs` directory.
    package let directory: String

    /// Uses `directory`, created with mode 0700 if missing.
    package init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func jobDirectory(_ id: String) -> String { directory + "/" + id }

    /// Whether `id` can name a job directory (no path separators, no dot files).
    static func isSafe(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && !id.contains("/") && id.utf8.count <= 200
    }

    /// Records a newly submitted job.
    package func recordJob(id: String, _ job: ShellJob) throws {
        guard Self.isSafe(id) else { return }
        try FileManager.default.createDirectory(
            atPath: jobDirectory(id), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            try JSONEncoder().encode(job).write(to: URL(fileURLWithPath: jobDirectory(id) + "/job.json"))
        } catch {
            // A refused submission leaves nothing behind (a full disk may have cut the file short).
            try? FileManager.default.removeItem(atPath: jobDirectory(id))
            throw error
        }
    }

    /// The job's payload as recorded at submission.
    package func job(id: String) -> ShellJob? {
        guard Self.isSafe(id), let data = FileManager.default.contents(atPath: jobDirectory(id) + "/job.json") else {
            return nil
        }
        return try? JSONDecoder().decode(ShellJob.self, from: data)
    }

    /// The most runs a job's log counts: a line with a run number outside `1...maximumRun` is damaged
    /// and skipped like one that does not decode (the numbers are added to and subtracted from).
    static let maximumRun = 1 << 50

    /// The job's records that decode, in the order written.
    private func entries(id: String) -> [Entry] {
        guard Self.isSafe(id), let data = FileManager.default.contents(atPath: jobDirectory(id) + "/runs.jsonl") else {
            return []
        }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let entry = try? JSONDecoder().decode(Entry.self, from: line),
                (1...Self.maximumRun).contains(entry.run)
            else { return nil }
            return entry
        }
    }

    /// Appends one line. A file whose last line was cut short (a crash during a write) first gets the
    /// newline it lacks, so the cut line stays alone, skipped as damaged, and this one reads whole.
    private func append(_ entry: Entry, id: String) {
        let path = jobDirectory(id) + "/runs.jsonl"
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var line = DaemonProtocol.encodeLine(entry)
        let size = lseek(descriptor, 0, SEEK_END)
        var last: UInt8 = 0
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            line.insert(UInt8(ascii: "\n"), at: line.startIndex)
        }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
    }

    /// Records the start of a run and returns its number.
    package func startRun(id: String, attempt: Int) -> Int {
        let run = (entries(id: id).map(\.run).max() ?? 0) + 1
        append(Entry(event: "started", run: run, attempt: attempt, at: Output.timestamp()), id: id)
        return run
    }

    /// Records the end of a run, with why the daemon stopped it if it did, removes the run's stop-reason
    /// file, then drops what is over the job's bounds (``trim(id:)``).
    package func endRun(id: String, run: Int, exitStatus: Int32?, interrupted: Bool, stopReason: String? = nil) {
        append(
            Entry(
                event: "ended", run: run, at: Output.timestamp(), exitStatus: exitStatus,
                interrupted: interrupted, stopReason: stopReason), id: id)
        if Self.isSafe(id) { unlink(stopReasonPath(id: id, run: run)) }
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
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var sizes: [Int: Int] = [:]
        for name in names {
            let parts = name.split(separator: ".")
            guard parts.count == 2, parts[1] == "out" || parts[1] == "err", let run = Int(parts[0]) else { continue }
            var info = stat()
            let size = stat(directory + "/" + name, &info) == 0 ? Int(info.st_size) : 0
            sizes[run, default: 0] += size
        }
        var total = 0
        for (index, run) in sizes.keys.sorted(by: >).enumerated() {
            total += sizes[run] ?? 0
            if index == 0 { continue }
            if index >= Self.keptRunOutputs || total > Self.jobOutputLimit {
                let paths = outputPaths(id: id, run: run)
                unlink(paths.stdout)
                unlink(paths.stderr)
            }
        }
        let entries = entries(id: id)
        guard let newest = entries.map(\.run).max(), Set(entries.map(\.run)).count > 2 * Self.keptRunRecords else {
            return
        }
        let kept = entries.filter { $0.run > newest - Self.keptRunRecords }
        let temporary = directory + "/runs.jsonl.new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = kept.flatMap { DaemonProtocol.encodeLine($0) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        if written == bytes.count && synced {
            rename(temporary, directory + "/runs.jsonl")
        } else {
            unlink(temporary)
        }
    }

    /// The paths of a run's stdout and stderr files.
    package func outputPaths(id: String, run: Int) -> (stdout: String, stderr: String) {
        (jobDirectory(id) + "/\(run).out", jobDirectory(id) + "/\(run).err")
    }

    /// Records as interrupted every run that has no end line; returns how many.
    @discardableResult
    package func closeInterruptedRuns() -> Int {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
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
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let limit = now.addingTimeInterval(-Double(Self.retention.components.seconds))
        var removed = 0
        for id in ids where Self.isSafe(id) && !pending.contains(id) {
            let path = jobDirectory(id)
            let changed = [path, path + "/runs.jsonl"].compactMap {
                (try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date
            }.max()
            if let changed, changed < limit, (try? FileManager.default.removeItem(atPath: path)) != nil {
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
        guard Self.isSafe(id), FileManager.default.fileExists(atPath: jobDirectory(id)) else { return nil }
        var runs: [Int: DaemonResponse.Run] = [:]
        for entry in entries(id: id) {
            if entry.event == "started" {
                let paths = outputPaths(id: id, run: entry.run)
                let dropped = access(paths.stdout, F_OK) != 0 && access(paths.stderr, F_OK) != 0
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
                let file = open(path, O_RDONLY | O_CLOEXEC)
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
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data.prefix(outputLimit + 200), as: UTF8.self)
    }
}
