import Dispatch
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
        /// Decodes a stored payload into a value of the payload type, with the decoder given.
        let decode: @Sendable (Data, JSONDecoder) throws -> any Sendable
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
            decode: { data, decoder in try decoder.decode(Payload.self, from: data) },
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

    /// What a restore pass makes of `jobs` before planning: each job's readiness and its decoded payload, in
    /// the order of `jobs` (`nil` for a job not decoded). The jobs in `skipping` (active already) are not
    /// decoded.
    ///
    /// A large restore decodes on every processor: `jobs` is cut into consecutive ranges, each decoded by
    /// one thread with a decoder of its own, and the ranges' results are joined in order.
    func decode(
        _ jobs: [StoredJob], skipping: Set<UInt64>
    ) -> (readiness: [DurableRestorePlan.Readiness], payloads: [(any Sendable)?]) {
        typealias Part = (readiness: [DurableRestorePlan.Readiness], payloads: [(any Sendable)?])
        let ranges = Self.parts(of: jobs.count)
        let decoded = LockedState([Part?](repeating: nil, count: ranges.count))
        DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
            let decoder = JSONDecoder()
            var result: Part = ([], [])
            result.readiness.reserveCapacity(ranges[part].count)
            result.payloads.reserveCapacity(ranges[part].count)
            for stored in jobs[ranges[part]] {
                var payload: (any Sendable)?
                var ready = DurableRestorePlan.Readiness.ready
                if !skipping.contains(stored.sequence) {
                    if let kind = kinds[stored.kind] {
                        do {
                            payload = try kind.decode(stored.payload, decoder)
                        } catch {
                            ready = .undecodable("\(error)")
                        }
                    } else {
                        ready = .unknownKind
                    }
                }
                result.readiness.append(ready)
                result.payloads.append(payload)
            }
            decoded.withLock { $0[part] = result }
        }
        var readiness: [DurableRestorePlan.Readiness] = []
        var payloads: [(any Sendable)?] = []
        readiness.reserveCapacity(jobs.count)
        payloads.reserveCapacity(jobs.count)
        for part in decoded.withLock({ $0 }) {
            readiness += part?.readiness ?? []
            payloads += part?.payloads ?? []
        }
        return (readiness, payloads)
    }

    /// The fewest jobs worth a thread of their own in ``decode(_:skipping:)``.
    static let jobsPerDecodingThread = 4096

    /// `count` places cut into consecutive ranges, one per processor, none under
    /// ``jobsPerDecodingThread`` places (one range for a small restore).
    static func parts(of count: Int) -> [Range<Int>] {
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / jobsPerDecodingThread))
        return (0..<threads).map { part in (count * part / threads)..<(count * (part + 1) / threads) }
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
