import Foundation
import SyncGateCore

/// The job kinds a durable scheduler knows: each kind's payload type and handler, its payload type erased.
///
/// A kind is registered once and never replaced; lookups are by the kind's name.
struct DurableKindRegistry: Sendable {
    /// A registered kind, its payload type erased.
    struct Kind: Sendable {
        /// The payload type submissions of this kind must have.
        let payloadType: ObjectIdentifier
        /// The payload type's name, for refusals.
        let typeName: String
        /// Decodes a stored payload into a value of the payload type.
        let decode: @Sendable (Data) throws -> any Sendable
        /// Runs the handler on a payload of the payload type.
        let run: @Sendable (any Sendable, SyncJobContext) async throws -> Void
    }

    private var kinds: [String: Kind] = [:]

    /// The kind named `name`, if registered.
    subscript(name: String) -> Kind? { kinds[name] }

    /// The registered kinds' names, sorted.
    var names: [String] { kinds.keys.sorted() }

    /// Registers `kind` as `name`; returns false, changing nothing, when `name` is already registered.
    mutating func register(_ name: String, _ kind: Kind) -> Bool {
        guard kinds[name] == nil else { return false }
        kinds[name] = kind
        return true
    }

    /// The kind of a payload type `Payload`, decoding JSON and running `handler`.
    static func kind<Payload: Codable & Sendable>(
        _ name: String, payload: Payload.Type,
        handler: @escaping @Sendable (Payload, SyncJobContext) async throws -> Void
    ) -> Kind {
        Kind(
            payloadType: ObjectIdentifier(Payload.self),
            typeName: String(reflecting: Payload.self),
            decode: { data in try JSONDecoder().decode(Payload.self, from: data) },
            run: { value, context in
                guard let payload = value as? Payload else {
                    throw DurableJobError.payloadTypeMismatch(
                        kind: name, registered: String(reflecting: Payload.self),
                        submitted: String(reflecting: type(of: value)))
                }
                try await handler(payload, context)
            }
        )
    }

    /// What a restore pass makes of `jobs` before planning: each job's readiness (in order) and, by index,
    /// the decoded payloads. The jobs in `skipping` (active already) are not decoded.
    func decode(
        _ jobs: [StoredJob], skipping: Set<UInt64>
    ) -> (readiness: [DurableRestorePlan.Readiness], payloads: [Int: any Sendable]) {
        var payloads: [Int: any Sendable] = [:]
        let readiness = jobs.enumerated().map { index, stored -> DurableRestorePlan.Readiness in
            if skipping.contains(stored.sequence) { return .ready }
            guard let kind = kinds[stored.kind] else { return .unknownKind }
            do {
                payloads[index] = try kind.decode(stored.payload)
                return .ready
            } catch {
                return .undecodable("\(error)")
            }
        }
        return (readiness, payloads)
    }

    /// `kind`, the registered kind named `name`, checked for a submission with payload type `Payload`.
    ///
    /// - Throws: ``DurableJobError/unknownKind(_:)`` or ``DurableJobError/payloadTypeMismatch(kind:registered:submitted:)``.
    static func check<Payload>(
        _ kind: Kind?, named name: String, for payload: Payload.Type
    ) throws(DurableJobError) -> Kind {
        guard let kind else { throw .unknownKind(name) }
        guard kind.payloadType == ObjectIdentifier(Payload.self) else {
            throw .payloadTypeMismatch(
                kind: name, registered: kind.typeName, submitted: String(reflecting: Payload.self))
        }
        return kind
    }

    /// The JSON of a submitted job's payload.
    ///
    /// - Throws: ``DurableJobError/payloadEncodingFailed(jobID:kind:reason:)`` or
    ///   ``DurableJobError/payloadTooLarge(jobID:size:limit:)`` when it encodes to more than `limit` bytes.
    static func encode<Payload: Codable & Sendable>(
        _ payload: Payload, of job: DurableJob<Payload>, limit: Int
    ) throws(DurableJobError) -> Data {
        let data: Data
        do {
            data = try JSONEncoder().encode(payload)
        } catch {
            throw .payloadEncodingFailed(jobID: job.id, kind: job.kind, reason: "\(error)")
        }
        if data.count > limit { throw .payloadTooLarge(jobID: job.id, size: data.count, limit: limit) }
        return data
    }
}
