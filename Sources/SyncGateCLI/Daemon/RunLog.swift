import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's record of a job's runs, kept in files so it outlives the daemon.
///
/// Each job has a directory `runs/ID/` under the state directory with `job.json` (its ``ShellJob``),
/// `runs.jsonl` (one line when a run starts and one when it ends) and `N.out` / `N.err`, each run's
/// stdout and stderr, cut at ``outputLimit`` bytes. A run that started but has no end line when the
/// daemon starts was cut short by the daemon's death; ``closeInterruptedRuns()`` records it as
/// interrupted.
public struct RunLog: Sendable {
    /// The most bytes kept of one run's stdout, and of its stderr: 1 MiB.
    public static let outputLimit = 1 << 20

    /// One line of `runs.jsonl`.
    struct Entry: Codable {
        var event: String
        var run: Int
        var attempt: Int?
        var at: String
        var exitStatus: Int32?
        var interrupted: Bool?
    }

    /// How long the record of a job that is no longer in the store is kept: 30 days.
    public static let retention = Duration.seconds(30 * 86_400)

    /// The `runs` directory.
    public let directory: String

    /// Uses `directory`, created with mode 0700 if missing.
    public init(directory: String) throws {
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
    public func recordJob(id: String, _ job: ShellJob) throws {
        guard Self.isSafe(id) else { return }
        try FileManager.default.createDirectory(
            atPath: jobDirectory(id), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try JSONEncoder().encode(job).write(to: URL(fileURLWithPath: jobDirectory(id) + "/job.json"))
    }

    /// The job's payload as recorded at submission.
    public func job(id: String) -> ShellJob? {
        guard Self.isSafe(id), let data = FileManager.default.contents(atPath: jobDirectory(id) + "/job.json") else {
            return nil
        }
        return try? JSONDecoder().decode(ShellJob.self, from: data)
    }

    private func entries(id: String) -> [Entry] {
        guard Self.isSafe(id), let data = FileManager.default.contents(atPath: jobDirectory(id) + "/runs.jsonl") else {
            return []
        }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Entry.self, from: $0) }
    }

    private func append(_ entry: Entry, id: String) {
        let path = jobDirectory(id) + "/runs.jsonl"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let line = DaemonProtocol.encodeLine(entry)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
    }

    /// Records the start of a run and returns its number.
    public func startRun(id: String, attempt: Int) -> Int {
        let run = (entries(id: id).map(\.run).max() ?? 0) + 1
        append(Entry(event: "started", run: run, attempt: attempt, at: Output.timestamp()), id: id)
        return run
    }

    /// Records the end of a run.
    public func endRun(id: String, run: Int, exitStatus: Int32?, interrupted: Bool) {
        append(
            Entry(
                event: "ended", run: run, at: Output.timestamp(), exitStatus: exitStatus,
                interrupted: interrupted), id: id)
    }

    /// The paths of a run's stdout and stderr files.
    public func outputPaths(id: String, run: Int) -> (stdout: String, stderr: String) {
        (jobDirectory(id) + "/\(run).out", jobDirectory(id) + "/\(run).err")
    }

    /// Records as interrupted every run that has no end line; returns how many.
    @discardableResult
    public func closeInterruptedRuns() -> Int {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var count = 0
        for id in ids where Self.isSafe(id) {
            let entries = entries(id: id)
            let ended = Set(entries.filter { $0.event == "ended" }.map(\.run))
            for entry in entries where entry.event == "started" && !ended.contains(entry.run) {
                endRun(id: id, run: entry.run, exitStatus: nil, interrupted: true)
                count += 1
            }
        }
        return count
    }

    /// Removes the records of jobs not in `pending` that have not changed for ``retention``; returns how
    /// many.
    @discardableResult
    public func prune(keeping pending: Set<String>, now: Date = Date()) -> Int {
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
    public func lastExitStatus(id: String) -> Int32? {
        entries(id: id).last { $0.event == "ended" && $0.exitStatus != nil }?.exitStatus
    }

    /// Every run of the job with its output; `nil` when the daemon has no record of it.
    public func runs(id: String) -> [DaemonResponse.Run]? {
        guard Self.isSafe(id), FileManager.default.fileExists(atPath: jobDirectory(id)) else { return nil }
        var runs: [Int: DaemonResponse.Run] = [:]
        for entry in entries(id: id) {
            if entry.event == "started" {
                let paths = outputPaths(id: id, run: entry.run)
                runs[entry.run] = DaemonResponse.Run(
                    run: entry.run, attempt: entry.attempt ?? 0, startedAt: entry.at, endedAt: nil, exitStatus: nil,
                    interrupted: false, stdout: Self.read(paths.stdout), stderr: Self.read(paths.stderr))
            } else if entry.event == "ended" {
                runs[entry.run]?.endedAt = entry.at
                runs[entry.run]?.exitStatus = entry.exitStatus
                runs[entry.run]?.interrupted = entry.interrupted ?? false
            }
        }
        return runs.keys.sorted().compactMap { runs[$0] }
    }

    private static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data.prefix(outputLimit + 200), as: UTF8.self)
    }
}
