import Foundation

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
}
