import Dispatch
import SyncGate

#if canImport(Glibc)
    import Glibc
#endif

/// Ends the process with a clear message when a scenario runs far longer than it may: a lost job makes
/// the harness wait forever otherwise (a handle's outcome and a task's value cannot time out).
final class Watchdog: Sendable {
    private let generation = LockedState(0)

    /// Starts guarding `scenario` for `limit`; a later call or ``disarm()`` ends the previous guard.
    func arm(_ scenario: String, limit: Duration) {
        let armed = generation.withLock { value in
            value += 1
            return value
        }
        let seconds = Double(limit.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard generation.withLock({ $0 }) == armed else { return }
            print("FAIL \(scenario): not finished after \(limit) (a job or waiter was lost, or the scheduler hung)")
            fflush(nil)
            exit(3)
        }
    }

    /// Ends the current guard.
    func disarm() {
        generation.withLock { $0 += 1 }
    }
}
