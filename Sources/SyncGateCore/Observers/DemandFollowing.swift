/// A source that reads only while a job or a waiter needs one of its demand-driven requirements.
///
/// ``SyncEnvironment`` hands each such source it is given its ``RequirementDemand`` once, when it is
/// created; the source listens for the requirements it decides and reads (and arms its timers or
/// watches) only while they are needed.
package protocol DemandFollowing: Sendable {
    /// Starts following `demand`. Called once.
    func follow(_ demand: RequirementDemand)
}
