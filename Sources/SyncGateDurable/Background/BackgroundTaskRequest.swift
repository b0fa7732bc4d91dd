import Foundation
import SyncGateCore

/// What SyncGate asks the system for to run pending durable jobs in the background: on iOS, the fields
/// of one `BGProcessingTaskRequest`.
///
/// Built by ``BackgroundSyncBridge`` from the jobs left in the store so that the system launches the app
/// when at least one of them can run: network only when every job needs it, external power only when
/// every job needs it, and not before the earliest moment a job's delay or backoff ends.
public struct BackgroundTaskRequest: Sendable, Hashable, CustomStringConvertible {
    /// The task identifier (listed under `BGTaskSchedulerPermittedIdentifiers` in the app's Info.plist).
    public var identifier: String
    /// `requiresNetworkConnectivity`: every pending job needs the network.
    public var requiresNetworkConnectivity: Bool
    /// `requiresExternalPower`: every pending job needs external power.
    public var requiresExternalPower: Bool
    /// `earliestBeginDate`: when the first pending job's delay or backoff ends; `nil` when one can run now.
    public var earliestBeginDate: Date?

    /// Creates a request.
    public init(
        identifier: String, requiresNetworkConnectivity: Bool, requiresExternalPower: Bool,
        earliestBeginDate: Date?
    ) {
        self.identifier = identifier
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
        self.earliestBeginDate = earliestBeginDate
    }

    /// The request that lets the first of `jobs` run, or `nil` when there is no job.
    ///
    /// - Parameters:
    ///   - identifier: the task identifier.
    ///   - jobs: the pending jobs (the store's unresolved jobs, less those kept for an unknown kind).
    ///   - now: the wall-clock time, for delays and backoffs already over.
    public static func covering(_ jobs: [StoredJob], identifier: String, now: Date) -> BackgroundTaskRequest? {
        guard !jobs.isEmpty else { return nil }
        let network = SyncRequirements.decided(by: .network)
        let starts = jobs.map { job -> Date? in
            let instants = [job.eligibleAt, job.retryAt].compactMap { $0 }.filter { $0 > now }
            return instants.max()
        }
        let earliest: Date? = starts.contains { $0 == nil } ? nil : starts.compactMap { $0 }.min()
        return BackgroundTaskRequest(
            identifier: identifier,
            requiresNetworkConnectivity: jobs.allSatisfy { job in
                // A job with allowed networks runs only while connected to one of them.
                !lastingRequirements(of: job.options).isDisjoint(with: network) || job.options.allowedNetworks != nil
            },
            requiresExternalPower: jobs.allSatisfy { lastingRequirements(of: $0.options).contains(.externalPower) },
            earliestBeginDate: earliest)
    }

    /// The requirements a job keeps whatever its relaxations: those it requires that no relaxation drops
    /// or replaces. A launch asked only on external power would never let a job run once its relaxation
    /// dropped that need.
    static func lastingRequirements(of options: SyncJobOptions) -> SyncRequirements {
        options.relaxations.reduce(options.requirements) { kept, relaxation in
            guard case .requirement(let relaxed) = relaxation.relaxed else { return kept }
            return kept.subtracting(relaxed)
        }
    }

    /// `processing identifier, network, external power, not before …`.
    public var description: String {
        var parts = ["processing \(identifier)"]
        if requiresNetworkConnectivity { parts.append("network") }
        if requiresExternalPower { parts.append("external power") }
        if let earliestBeginDate { parts.append("not before \(earliestBeginDate)") }
        return parts.joined(separator: ", ")
    }
}
