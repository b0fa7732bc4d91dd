extension SyncJobHandle: CustomStringConvertible {
    /// The job's id and its state now, as ``state`` reads: `upload-42: waiting for [unmetered]`,
    /// `upload-42: running attempt 2`, and once the job has ended its outcome (`upload-42: succeeded`,
    /// `upload-42: failed: <the error>`); followed by the ``stopReason`` when there is one, as
    /// ``SyncSchedulerSnapshot/Job/summary`` shows it: `upload-42: running attempt 1 (stopping: timed-out)`
    /// while the attempt is being stopped, `upload-42: cancelled (stopped: replaced)` after.
    ///
    /// An unfinished job with relaxations ends with them, as the snapshot shows them:
    /// `upload-42: waiting for [unmetered] (relaxes: unmetered dropped in 2d 3h)`.
    ///
    /// A waiting job whose network is not one of its ``allowedNetworks`` says so:
    /// `upload-42: waiting for an allowed network (ssid:Home)`, or with other blockers
    /// `upload-42: waiting for [unmetered] (network not allowed, needs: ssid:Home)`.
    public var description: String {
        let state = state
        let relaxations = state.isTerminal ? "" : relaxations.summarySuffix
        if let text = Self.networkWait(state, allowedNetworks, notAllowed: isWaitingForNetwork) {
            return "\(id): " + text + relaxations
        }
        guard let stopReason else { return "\(id): \(state)\(relaxations)" }
        let stopping = if case .running = state { "stopping" } else { "stopped" }
        return "\(id): \(state) (\(stopping): \(stopReason))\(relaxations)"
    }

    /// What a waiting job blocked by its network says: `waiting for an allowed network (ssid:Home)` when
    /// nothing else blocks it, else its state with `(network not allowed, needs: ssid:Home)`; `nil` when
    /// the job is not waiting, has no list, or the network in use is allowed (`notAllowed` false).
    static func networkWait(
        _ state: SyncJobState, _ allowedNetworks: SyncNetworkAllowlist?, notAllowed: Bool
    ) -> String? {
        guard case .waiting = state, let allowedNetworks, notAllowed else { return nil }
        if state == .waiting(unmet: [], conditions: []) { return "waiting for an allowed network (\(allowedNetworks))" }
        return "\(state) (network not allowed, needs: \(allowedNetworks))"
    }
}
