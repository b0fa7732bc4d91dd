import Foundation
import SyncGateCore

/// The output of a durable job's dependency that succeeded in an earlier run of the app, as JSON.
///
/// A restored durable job finds it among its ``SyncJobContext/inputs``; read it decoded with
/// ``SyncJobContext/input(_:from:)`` (the overload for `Decodable` types), which also returns the
/// output of a dependency that succeeded in this run.
public struct DurableOutput: Sendable, Hashable {
    /// The output, encoded with `JSONEncoder`.
    public let json: Data

    /// Creates the output from its JSON.
    public init(json: Data) {
        self.json = json
    }

    /// The output decoded as `type`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: json)
    }

    /// The JSON of an output an attempt set: a ``DurableOutput`` as it is, any other `Encodable` encoded.
    ///
    /// - Throws: ``DurableJobError/outputEncodingFailed(jobID:type:reason:)`` when the output is not
    ///   `Encodable`, does not encode, or encodes to more than `limit` bytes.
    static func encoded(_ output: any Sendable, jobID: SyncJob.ID, limit: Int) throws(DurableJobError) -> Data {
        let typeName = String(reflecting: type(of: output))
        let data: Data
        if let stored = output as? DurableOutput {
            data = stored.json
        } else if let encodable = output as? any Encodable {
            do {
                data = try JSONEncoder().encode(encodable)
            } catch {
                throw .outputEncodingFailed(jobID: jobID, type: typeName, reason: "\(error)")
            }
        } else {
            throw .outputEncodingFailed(jobID: jobID, type: typeName, reason: "the type is not Encodable")
        }
        if data.count > limit {
            throw .outputEncodingFailed(
                jobID: jobID, type: typeName, reason: "\(data.count) bytes encoded, more than the limit of \(limit)")
        }
        return data
    }
}
