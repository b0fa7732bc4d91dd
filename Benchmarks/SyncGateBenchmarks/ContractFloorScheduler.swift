import SyncGate
import SyncGateCore
import Synchronization

/// The least a scheduler can do per job and still keep the part of `SyncScheduler`'s contract that
/// scenario 4's jobs use: scenario 4's floor for a job with requirements, an id and a handle.
///
/// Per job, the simplest way: a string id of the generated form (a launch prefix, `#`, a serial),
/// refused while an unfinished job has it (a string-keyed index); a handle whose state (waiting, running,
/// finished), outcome and awaiting continuations sit under a lock of their own; the job's requirements
/// checked when it starts against the requirements the status meets; the highest priority first, first in
/// first out within one; the start status in the attempt's context (one snapshot of each status, with the
/// requirements it meets, shared by the attempts started on it); submission, start and end stamped
/// on the clock; the events counted; a finished record kept in a history of the default 100; runner
/// tasks reused across jobs, as `SyncScheduler`'s attempt tasks are. No timers, retries, cancellation,
/// uniqueness keys, groups or dependencies: scenario 4's jobs use none, and a scheduler that pays only
/// for what a job uses does no more for them.
///
/// Made with ``init(slots:following:)`` it is also the floor of scenarios 1 and 3 (one job that starts on
/// a status change, or on submission): it follows the environment's combined status as `SyncScheduler`
/// does, by an observer called on the thread that changed it, which takes the lock, keeps a snapshot of the
/// new status and starts the waiting jobs it lets start (the first waiting job of each priority, which is
/// every job these scenarios have); their tasks are created after the lock.
final class ContractFloorScheduler: Sendable {
    /// What a body is given.
    struct Context: Sendable {
        let id: String
        let attempt: Int
        /// The status the attempt started on, shared by every attempt started on it.
        let start: StatusSnapshot
        let handle: Handle

        var startStatus: SyncEnvironmentStatus { start.status }
    }

    /// One status, made once when the status is set, and the requirements it meets.
    final class StatusSnapshot: Sendable {
        let status: SyncEnvironmentStatus
        let met: SyncRequirements

        init(_ status: SyncEnvironmentStatus) {
            self.status = status
            self.met = status.satisfiedRequirements
        }
    }

    /// A job: id, requirements, priority (0 lowest, 2 highest) and body.
    struct Job: Sendable {
        let id: String
        let requirements: SyncRequirements
        let priority: Int
        let body: @Sendable (Context) async -> Void
    }

    /// How a job ended; these jobs can only succeed.
    enum Outcome: Sendable {
        case succeeded
    }

    /// The job's handle: its state, its outcome, and the tasks awaiting it.
    final class Handle: Sendable {
        enum State: Sendable {
            case waiting, running, finished
        }

        private struct Mutable {
            var state = State.waiting
            var outcome: Outcome?
            var awaiting: [CheckedContinuation<Outcome, Never>] = []
        }

        let id: String
        private let mutable = Mutex(Mutable())

        init(id: String) {
            self.id = id
        }

        /// The job's state now.
        var state: State { mutable.withLock { $0.state } }

        /// The outcome, once the job has ended.
        func outcome() async -> Outcome {
            await withCheckedContinuation { continuation in
                let ended: Outcome? = mutable.withLock { mutable in
                    if let outcome = mutable.outcome { return outcome }
                    mutable.awaiting.append(continuation)
                    return nil
                }
                if let ended { continuation.resume(returning: ended) }
            }
        }

        fileprivate func started() {
            mutable.withLock { $0.state = .running }
        }

        /// Records the outcome; returns the continuations to resume, after every lock.
        fileprivate func finish(_ outcome: Outcome) -> [CheckedContinuation<Outcome, Never>] {
            mutable.withLock { mutable in
                mutable.state = .finished
                mutable.outcome = outcome
                defer { mutable.awaiting = [] }
                return mutable.awaiting
            }
        }
    }

    /// Refused: an unfinished job has the id.
    struct IDInUse: Error {
        let id: String
    }

    private struct Entry: Sendable {
        let job: Job
        let handle: Handle
        let submitted: ContinuousClock.Instant
    }

    private struct Record: Sendable {
        let id: String
        let outcome: Outcome
        let submitted: ContinuousClock.Instant
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        let attempts: Int
    }

    private struct State: ~Copyable {
        var unfinished: [String: Handle] = [:]
        var lanes = [FIFOQueue<Entry>](repeating: FIFOQueue(), count: 3)
        var running = 0
        var events: UInt64 = 0
        var status: StatusSnapshot
        var history: [Record] = []
        var historyNext = 0
    }

    private static let historyLimit = 100
    private let state: Mutex<State>
    private let slots: Int
    private let prefix = "k3v9q0x2m"
    private let serial = Atomic<UInt64>(0)
    /// The combined status followed, when made to follow an environment.
    private let followed: StatusBroadcast<SyncEnvironmentStatus>?
    /// The token of the observer on ``followed``.
    private let token = Atomic<UInt64>(0)

    /// A scheduler whose status stays `status`.
    init(slots: Int, status: SyncEnvironmentStatus) {
        self.slots = slots
        self.state = Mutex(State(status: StatusSnapshot(status)))
        self.followed = nil
    }

    /// A scheduler that follows `environment`'s combined status.
    init(slots: Int, following environment: SyncEnvironment) {
        self.slots = slots
        let broadcast = environment.statusBroadcast
        self.state = Mutex(State(status: StatusSnapshot(broadcast.value)))
        self.followed = broadcast
        // Unowned where `SyncScheduler`'s shell is observed weakly, the cheaper way (a weak reference puts an
        // object's counts in a side table, which slows every retain of it): the deinitializer removes the
        // observer, and the probes change no status while they release a scheduler.
        token.store(broadcast.addObserver { [unowned(unsafe) self] _ in self.statusChanged() }, ordering: .releasing)
    }

    deinit {
        followed?.removeObserver(token.load(ordering: .acquiring))
    }

    /// A new id of the generated form.
    func makeID() -> String {
        prefix + "#" + String(serial.add(1, ordering: .relaxed).newValue)
    }

    /// Queues the job, or starts a runner for it when a slot is free and its requirements hold.
    @discardableResult
    func submit(_ job: Job) throws(IDInUse) -> Handle {
        let submitted = ContinuousClock.now
        let handle = Handle(id: job.id)
        let entry = Entry(job: job, handle: handle, submitted: submitted)
        let start: StatusSnapshot? = try state.withLock { state throws(IDInUse) in
            guard state.unfinished[job.id] == nil else { throw IDInUse(id: job.id) }
            state.unfinished[job.id] = handle
            state.events += 1
            guard state.running < slots, state.status.met.isSuperset(of: job.requirements) else {
                state.lanes[job.priority].append(entry)
                return nil
            }
            state.running += 1
            state.events += 1
            return state.status
        }
        if let start { Task { await self.run(entry, on: start) } }
        return handle
    }

    /// Takes the followed environment's status, and starts the waiting jobs it lets start while slots are free.
    private func statusChanged() {
        guard let broadcast = followed else { return }
        var starts: [Entry] = []
        let status: StatusSnapshot = state.withLock { state in
            state.status = StatusSnapshot(broadcast.value)
            while state.running < slots, let entry = Self.takeStartable(&state) {
                state.running += 1
                starts.append(entry)
            }
            return state.status
        }
        for entry in starts { Task { await self.run(entry, on: status) } }
    }

    /// Runs jobs until none that can start is waiting, then frees its slot.
    private func run(_ first: Entry, on status: StatusSnapshot) async {
        var next: (entry: Entry, status: StatusSnapshot)? = (first, status)
        while let (entry, status) = next {
            let started = ContinuousClock.now
            entry.handle.started()
            await entry.job.body(Context(id: entry.job.id, attempt: 1, start: status, handle: entry.handle))
            let record = Record(
                id: entry.job.id, outcome: .succeeded, submitted: entry.submitted, started: started,
                ended: ContinuousClock.now, attempts: 1)
            let awaiting = entry.handle.finish(.succeeded)
            next = state.withLock { state in
                state.unfinished[entry.job.id] = nil
                state.events += 1
                if state.history.count < Self.historyLimit {
                    state.history.append(record)
                } else {
                    state.history[state.historyNext] = record
                    state.historyNext = (state.historyNext + 1) % Self.historyLimit
                }
                return Self.takeNext(&state)
            }
            for continuation in awaiting { continuation.resume(returning: .succeeded) }
        }
    }

    /// The first waiting job of the highest priority whose requirements hold, with the status it starts on.
    private static func takeNext(_ state: inout State) -> (entry: Entry, status: StatusSnapshot)? {
        if let entry = takeStartable(&state) { return (entry, state.status) }
        state.running -= 1
        return nil
    }

    /// The first waiting job of the highest priority whose requirements hold, taken from its lane.
    private static func takeStartable(_ state: inout State) -> Entry? {
        for lane in state.lanes.indices.reversed() {
            guard let first = state.lanes[lane].first, state.status.met.isSuperset(of: first.job.requirements)
            else { continue }
            _ = state.lanes[lane].popFirst()
            state.events += 1
            return first
        }
        return nil
    }
}
