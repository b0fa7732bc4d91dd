import SyncGate
import Testing

/// The queues behind SyncGate's executors: ready jobs in order, timed jobs by deadline, and whom to wake.
@Suite("Executor queues", .timeLimit(.minutes(1)))
struct ExecutorQueuesTests {
    /// One operation on the queues, and what it must answer.
    enum Step: Sendable, CustomTestStringConvertible {
        /// Pushes a ready job; `wake` is whether a waiting worker must be woken.
        case push(Int, wake: Bool)
        /// Schedules a job at a deadline; `earliest` is whether the time keeper must re-arm.
        case schedule(Int, at: UInt64, earliest: Bool)
        /// Releases the jobs due at `now`; `released` is how many moved.
        case release(now: UInt64, released: Int)
        /// Takes the next ready job.
        case pop(Int?)
        case workerWaits
        case workerWakes
        /// The earliest deadline left.
        case next(UInt64?)

        var testDescription: String {
            switch self {
            case .push(let job, let wake): "push \(job) → wake \(wake)"
            case .schedule(let job, let deadline, let earliest): "schedule \(job) at \(deadline) → earliest \(earliest)"
            case .release(let now, let released): "release at \(now) → \(released)"
            case .pop(let job): "pop → \(job.map(String.init) ?? "nothing")"
            case .workerWaits: "a worker waits"
            case .workerWakes: "a worker wakes"
            case .next(let deadline): "next deadline \(deadline.map(String.init) ?? "none")"
            }
        }
    }

    @Test(
        "each sequence of steps answers as stated",
        arguments: [
            // Ready jobs come out in the order they went in, across refills of the outgoing side.
            [
                Step.push(1, wake: false), .push(2, wake: false), .pop(1), .push(3, wake: false), .pop(2), .pop(3),
                .pop(nil),
            ],
            // A push wakes a worker only while one waits.
            [Step.workerWaits, .push(1, wake: true), .workerWakes, .push(2, wake: false), .pop(1), .pop(2)],
            // Timed jobs are released by deadline, equal deadlines in the order scheduled, and only when due.
            [
                Step.schedule(1, at: 300, earliest: true), .schedule(2, at: 100, earliest: true),
                .schedule(3, at: 300, earliest: false), .schedule(4, at: 200, earliest: false), .next(100),
                .release(now: 99, released: 0), .pop(nil), .release(now: 250, released: 2), .next(300),
                .pop(2), .pop(4), .pop(nil), .release(now: 300, released: 2), .next(nil), .pop(1), .pop(3),
            ],
            // A released job queues behind jobs already ready.
            [
                Step.push(1, wake: false), .schedule(2, at: 10, earliest: true), .release(now: 10, released: 1),
                .push(3, wake: false), .pop(1), .pop(2), .pop(3),
            ],
            // A deadline equal to the earliest does not re-arm the time keeper; an earlier one does.
            [
                Step.schedule(1, at: 50, earliest: true), .schedule(2, at: 50, earliest: false),
                .schedule(3, at: 49, earliest: true),
            ],
        ])
    func steps(_ steps: [Step]) {
        var queues = ExecutorQueues<Int>()
        for step in steps {
            switch step {
            case .push(let job, let wake):
                #expect(queues.push(job) == wake, "\(step.testDescription)")
            case .schedule(let job, let deadline, let earliest):
                #expect(queues.schedule(job, at: deadline) == earliest, "\(step.testDescription)")
            case .release(let now, let released):
                #expect(queues.releaseDue(now: now) == released, "\(step.testDescription)")
            case .pop(let job):
                #expect(queues.popReady() == job, "\(step.testDescription)")
            case .workerWaits:
                queues.workerWillWait()
            case .workerWakes:
                queues.workerDidWake()
            case .next(let deadline):
                #expect(queues.nextDeadline == deadline, "\(step.testDescription)")
            }
        }
    }

    @Test func countsWhatItHolds() {
        var queues = ExecutorQueues<Int>()
        _ = queues.push(1)
        _ = queues.schedule(2, at: 5)
        _ = queues.schedule(3, at: 6)
        #expect(queues.readyCount == 1)
        #expect(queues.timedCount == 2)
        #expect(queues.releaseDue(now: .max) == 2)
        #expect(queues.readyCount == 3)
        #expect(queues.timedCount == 0)
    }
}
