import Foundation
import SyncGateCore

extension SyncJobContext {
    /// The output of the dependency `id`, decoded when it is a ``DurableOutput`` (a durable job's
    /// dependency that succeeded before a restart), or `nil` when it set none or it is not a `T`.
    ///
    /// Durable jobs read their inputs with this overload; it also returns an output set in this run.
    public func input<T: Decodable & Sendable>(_ type: T.Type = T.self, from id: SyncJob.ID) -> T? {
        guard let value = inputs.first(where: { $0.id == id })?.value else { return nil }
        return Self.decoded(value, as: type)
    }

    /// The first input that is a `T` or decodes as one, in the order of ``inputs``.
    public func input<T: Decodable & Sendable>(_ type: T.Type = T.self) -> T? {
        inputs.lazy.compactMap { Self.decoded($0.value, as: type) }.first
    }

    private static func decoded<T: Decodable & Sendable>(_ value: any Sendable, as type: T.Type) -> T? {
        if let value = value as? T { return value }
        return (value as? DurableOutput).flatMap { try? $0.decode(type) }
    }

    /// The output the attempt set, if any.
    var output: (any Sendable)? { handle?.output }

    /// The context with `restored` added to its inputs, all in the order of `order` (others last); every
    /// other field is kept.
    func adding(inputs restored: [(id: SyncJob.ID, value: any Sendable)], order: [SyncJob.ID]) -> SyncJobContext {
        let all = (inputs + restored).enumerated().sorted { left, right in
            let leftRank = order.firstIndex(of: left.element.id) ?? order.count
            let rightRank = order.firstIndex(of: right.element.id) ?? order.count
            return (leftRank, left.offset) < (rightRank, right.offset)
        }.map(\.element)
        return replacingInputs(all)
    }
}
