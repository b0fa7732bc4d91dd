import SyncGateCore

/// A file watcher for tests: it watches nothing, remembers every watch a scheduler starts, and reports a
/// change only when a test calls ``change(_:)``.
///
/// ```swift
/// let files = ManualFileWatcher()
/// let scheduler = SyncScheduler(environment: environment, clock: clock, fileWatcher: files)
/// files.change("/data/photos")          // every live watch of that path reports a change
/// ```
public final class ManualFileWatcher: FileChangeWatching {
    private struct Watch {
        var paths: [String]
        var onChange: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int: Watch] = [:]
        var nextID = 0
        var failures: [String: SyncFileWatchError.Reason] = [:]
    }

    private let state = LockedState(State())

    /// Creates a watcher with no watch.
    public init() {}

    /// Makes every later watch of `path` fail with `reason` (a missing path, the watch limit).
    public func fail(_ path: String, with reason: SyncFileWatchError.Reason) {
        state.withLock { $0.failures[path] = reason }
    }

    /// The paths of the live watches, one array per watch, in the order they started.
    public var watchedPaths: [[String]] {
        state.withLock { state in state.watches.sorted { $0.key < $1.key }.map(\.value.paths) }
    }

    /// Reports a change of `path` to every live watch of it, on the calling thread; returns how many
    /// watches it reached.
    @discardableResult
    public func change(_ path: String) -> Int {
        let reached = state.withLock { state in
            state.watches.sorted { $0.key < $1.key }.map(\.value).filter { $0.paths.contains(path) }.map(\.onChange)
        }
        for onChange in reached { onChange() }
        return reached.count
    }

    /// Starts a watch of `paths`; fails for a path given to ``fail(_:with:)``.
    public func watch(
        paths: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        let result: Result<Int, SyncFileWatchError> = state.withLock { state in
            if let path = paths.first(where: { state.failures[$0] != nil }), let reason = state.failures[path] {
                return .failure(SyncFileWatchError(path: path, reason: reason))
            }
            state.nextID += 1
            state.watches[state.nextID] = Watch(paths: paths, onChange: onChange)
            return .success(state.nextID)
        }
        let id = try result.get()
        return Cancellation { [weak self] in self?.state.withLock { _ = $0.watches.removeValue(forKey: id) } }
    }

    private struct Cancellation: FileWatchCancelling {
        let body: @Sendable () -> Void
        func cancel() { body() }
    }
}
