/// Calls the app when CloudKit reports that the user's iCloud storage is full, once per episode.
///
/// A sync event that fails with `CKError.quotaExceeded`, directly or inside a `.partialFailure`'s item
/// errors, calls ``handler`` and disarms the hook, so a burst of failing exports reports the full storage
/// once rather than once per export. The hook re-arms itself when an export succeeds (the storage has
/// room again), and ``rearm()`` re-arms it by hand (for instance after the user was shown the problem
/// and tapped "Try again"). So a full storage is reported every time it happens, not once per process.
///
/// ```swift
/// let quota = QuotaExceededHook { Task { @MainActor in showStorageFullBanner() } }
/// ```
public final class QuotaExceededHook: Sendable {
    /// The function called when the quota is exceeded while the hook is armed; on the thread that
    /// delivered the event, so keep it short.
    public let handler: @Sendable () -> Void
    private let armed = LockedState(true)

    /// Creates an armed hook.
    public init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = handler
    }

    /// Whether the next quota error will call the handler.
    public var isArmed: Bool { armed.withLock { $0 } }

    /// Re-arms the hook, so the next quota error calls the handler again.
    public func rearm() {
        armed.withLock { $0 = true }
    }

    /// Reports one quota error: calls the handler and disarms when armed. Returns whether it called.
    @discardableResult
    func report() -> Bool {
        let wasArmed = armed.withLock { isArmed in
            defer { isArmed = false }
            return isArmed
        }
        if wasArmed { handler() }
        return wasArmed
    }
}
