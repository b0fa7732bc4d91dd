import Foundation
import SyncGateTesting

@testable import SyncGateCore

/// A path monitor a test drives by hand: `deliver` calls the handler as Apple's queue would.
final class FakePathMonitor: PathMonitoring {
    private let handler = LockedState<(@Sendable (PathSnapshot) -> Void)?>(nil)
    let cancelled = LockedState(false)

    func start(_ handler: @escaping @Sendable (PathSnapshot) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    func cancel() {
        cancelled.withLock { $0 = true }
    }

    func deliver(_ snapshot: PathSnapshot) {
        handler.withLock { $0 }?(snapshot)
    }
}

/// A power reader whose facts a test sets; counts the starts and stops of battery monitoring.
final class FakePowerReader: PowerFactsReading {
    let facts: LockedState<ApplePowerFacts>
    let monitoring = LockedState(false)
    let starts = LockedState(0)
    let stops = LockedState(0)
    private let onChange = LockedState<(@Sendable () -> Void)?>(nil)

    init(_ facts: ApplePowerFacts) {
        self.facts = LockedState(facts)
    }

    var batteryOrigin: StatusOrigin { .uiDevice }

    func read() -> ApplePowerFacts { facts.withLock { $0 } }

    func startObserving(_ onChange: @escaping @Sendable () -> Void) {
        self.onChange.withLock { $0 = onChange }
        monitoring.withLock { $0 = true }
        starts.withLock { $0 += 1 }
    }

    func stopObserving() {
        monitoring.withLock { $0 = false }
        stops.withLock { $0 += 1 }
    }

    /// Changes the facts and posts the change notification.
    func change(to facts: ApplePowerFacts) {
        self.facts.withLock { $0 = facts }
        onChange.withLock { $0 }?()
    }
}

/// A CloudKit container a test answers for: each `accountStatus()` call takes the next queued answer,
/// or waits until one is queued.
///
/// A waiting call ends with a failure when its task is cancelled, so a test that waits for an answer it
/// never queues fails at its time limit instead of hanging the test process.
final class FakeAccountChecker: AccountStatusChecking {
    private typealias Answer = Result<CloudAccountStatusMirror, CloudKitAccountError>

    private struct State {
        var answers: [Answer] = []
        var waiting: [(id: Int, continuation: CheckedContinuation<Answer, Never>)] = []
        var nextWaiter = 0
        var onChange: (@Sendable () -> Void)?
        var isObserving = false
    }

    private let state = LockedState(State())
    /// How many checks were asked for.
    let calls = StatusBroadcast(0)

    func accountStatus() async throws(CloudKitAccountError) -> CloudAccountStatusMirror {
        calls.update { $0 += 1 }
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                let answer = state.withLock { state -> Answer? in
                    if Task.isCancelled { return .failure(Self.failure(nil)) }
                    if state.answers.isEmpty {
                        state.waiting.append((id, continuation))
                        return nil
                    }
                    return state.answers.removeFirst()
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            continuation?.resume(returning: .failure(Self.failure(nil)))
        }
        return try result.get()
    }

    /// Answers the oldest waiting check, or the next one.
    func answer(_ result: Result<CloudAccountStatusMirror, CloudKitAccountError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            if state.waiting.isEmpty {
                state.answers.append(result)
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        continuation?.resume(returning: result)
    }

    func startObserving(_ onChange: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.onChange = onChange
            $0.isObserving = true
        }
    }

    func stopObserving() {
        state.withLock { $0.isObserving = false }
    }

    var isObserving: Bool { state.withLock { $0.isObserving } }

    /// Posts `CKAccountChanged`.
    func postAccountChanged() {
        state.withLock { $0.onChange }?()
    }

    /// A failure with `code`.
    static func failure(_ code: CloudKitErrorCodeMirror?, retryAfter: Double? = nil) -> CloudKitAccountError {
        struct Failure: Error {}
        return CloudKitAccountError(
            underlying: Failure(), facts: CloudKitErrorFacts(code: code, retryAfterSeconds: retryAfter))
    }
}

/// An ubiquity identity a test sets.
final class FakeUbiquityReader: UbiquityIdentityReading {
    let identity = LockedState(false)
    let observing = LockedState(false)
    private let onChange = LockedState<(@Sendable () -> Void)?>(nil)

    func hasIdentity() -> Bool { identity.withLock { $0 } }

    func startObserving(_ onChange: @escaping @Sendable () -> Void) {
        self.onChange.withLock { $0 = onChange }
        observing.withLock { $0 = true }
    }

    func stopObserving() {
        observing.withLock { $0 = false }
    }

    /// Sets the identity and posts `NSUbiquityIdentityDidChange`.
    func change(to identity: Bool) {
        self.identity.withLock { $0 = identity }
        onChange.withLock { $0 }?()
    }
}

/// Core Data's sync-event notification, posted by hand.
final class FakeEventObserver: CloudKitEventObserving {
    private let handler = LockedState<(@Sendable (CloudKitEventFacts) -> Void)?>(nil)
    let observing = LockedState(false)

    func startObserving(_ handler: @escaping @Sendable (CloudKitEventFacts) -> Void) {
        self.handler.withLock { $0 = handler }
        observing.withLock { $0 = true }
    }

    func stopObserving() {
        observing.withLock { $0 = false }
    }

    func post(_ event: CloudKitEventFacts) {
        handler.withLock { $0 }?(event)
    }
}

/// Counts what each factory created, so a test can check that nothing is created for a part that is
/// not monitored.
final class CountingFactories: Sendable {
    let created = LockedState<[String]>([])
    let accountContainers = LockedState<[String?]>([])
    let pathMonitor = FakePathMonitor()

    var factories: AppleSourceFactories {
        AppleSourceFactories(
            makeConnectivity: { [self] in
                created.withLock { $0.append("network") }
                return StatusFeed(ConnectivityStatus.connected(via: .wifi))
            },
            makePower: { [self] in
                created.withLock { $0.append("power") }
                return StatusFeed(PowerStatus.unrestricted)
            },
            makeAccountChecker: { [self] identifier in
                created.withLock { $0.append("account") }
                accountContainers.withLock { $0.append(identifier) }
                return FakeAccountChecker()
            },
            makeUbiquityReader: { [self] in
                created.withLock { $0.append("cloudDrive") }
                return FakeUbiquityReader()
            },
            makeEventObserver: { [self] in
                created.withLock { $0.append("syncEvent") }
                return FakeEventObserver()
            },
            makeResources: { [self] in
                created.withLock { $0.append("resources") }
                return StatusFeed(ResourceStatus.unknown)
            }
        )
    }
}

/// A recording logger; tests filter its lines by their text, since other suites may log meanwhile.
final class RecordingLogger: SyncGateLogger {
    let lines = LockedState<[(level: SyncGateLogLevel, message: String)]>([])

    func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int) {
        lines.withLock { $0.append((level, message)) }
    }

    func messages(containing text: String) -> [(level: SyncGateLogLevel, message: String)] {
        lines.withLock { $0.filter { $0.message.contains(text) } }
    }
}

/// A file tree a test edits by hand, with the notifications of its objects: `notify` calls an object's
/// handler as a dispatch source's queue would.
final class FakeFileEventSource: FileEventSource {
    struct Tree {
        var directories: Set<String>
        var files: Set<String> = []
        /// Objects whose watch the system refuses, with the error number.
        var refused: [String: Int32] = [:]
        var handlers: [Int: (path: String, onEvent: @Sendable () -> Void)] = [:]
        var nextWatch = 0
        var cancelled: [String] = []
    }

    let tree: LockedState<Tree>

    init(directories: Set<String>, files: Set<String> = [], refused: [String: Int32] = [:]) {
        tree = LockedState(Tree(directories: directories, files: files, refused: refused))
    }

    func watchObject(
        at path: String, onEvent: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        let outcome = tree.withLock { tree -> Result<Int, SyncFileWatchError> in
            if let code = tree.refused[path] {
                return .failure(SyncFileWatchError(path: path, reason: .system(errno: code)))
            }
            guard tree.directories.contains(path) || tree.files.contains(path) else {
                return .failure(SyncFileWatchError(path: path, reason: .missing))
            }
            tree.nextWatch += 1
            tree.handlers[tree.nextWatch] = (path, onEvent)
            return .success(tree.nextWatch)
        }
        let number = try outcome.get()
        return FakeObjectWatch { [self] in cancel(number) }
    }

    func kind(of path: String) -> FileObjectKind {
        tree.withLock { tree in
            tree.directories.contains(path) ? .directory : tree.files.contains(path) ? .other : .missing
        }
    }

    func subdirectories(of path: String) -> [String] {
        tree.withLock { tree in
            tree.directories.filter { $0 != path && FileTreeWatcher.split($0).parent == path }.sorted()
        }
    }

    /// The paths of the objects watched now, sorted (one entry per open watch).
    var watched: [String] { tree.withLock { $0.handlers.values.map(\.path).sorted() } }

    /// Sends a notification of the object at `path` (of each open watch of it).
    func notify(_ path: String) {
        let handlers = tree.withLock { tree in tree.handlers.values.filter { $0.path == path }.map(\.onEvent) }
        for onEvent in handlers { onEvent() }
    }

    func cancel(_ number: Int) {
        tree.withLock { tree in
            if let handler = tree.handlers.removeValue(forKey: number) { tree.cancelled.append(handler.path) }
        }
    }
}

/// One watch of ``FakeFileEventSource``: cancelling it calls `onCancel`.
struct FakeObjectWatch: FileWatchCancelling {
    let onCancel: @Sendable () -> Void

    func cancel() { onCancel() }
}
