import SyncGateCore

/// What the durable layer attaches to its jobs in the scheduler, so their events find their record.
///
/// A class, so that the scheduler stores one reference per job (an existential of a struct would take
/// four words in every queued job, durable or not).
final class DurableTicket: Sendable {
    let owner: ObjectIdentifier
    let sequence: UInt64

    init(owner: ObjectIdentifier, sequence: UInt64) {
        self.owner = owner
        self.sequence = sequence
    }
}
