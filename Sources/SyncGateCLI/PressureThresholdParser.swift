import SyncGate

/// Reads the pressure thresholds of `--pressure-threshold`: `cpu=50,io=25,memory=10`.
///
/// The value is a comma-separated list of `RESOURCE=PERCENT` items (optional spaces around each item),
/// one item per resource at most, in any order; a resource left out keeps its default
/// (``SyncGate/PressureThresholds/default``). The resources are those of ``SyncGate/PressureResource``
/// (`cpu`, `io`, `memory`; case is ignored). A percent is a decimal number with at most two digits after
/// the point (the kernel's `avg10` has hundredths), above 0 and at most 100, as
/// ``SyncGate/PressureThresholds/validationError`` requires: 0 is refused, since every level is at or
/// above it and the resource would always count as under pressure.
///
/// Every mistake throws a ``UsageError`` of one line naming the option, the resource (the field) and the
/// value given.
package enum PressureThresholdParser {
    /// The most digits accepted after the point.
    package static let maximumFractionDigits = 2

    /// The resources' spellings, in order: `cpu, io, memory`.
    private static var known: String {
        PressureResource.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Parses `text`, given to `option`, as thresholds over ``SyncGate/PressureThresholds/default``.
    ///
    /// - Throws: ``UsageError`` for an empty list or item, an item without `=`, an unknown resource, a
    ///   resource given twice, a value that is not a decimal number, or one not above 0 and at most 100.
    package static func parse(_ text: String, option: String) throws(UsageError) -> PressureThresholds {
        let shown = DaemonLimits.shown(text)
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else {
            throw UsageError("empty value for \(option): expected RESOURCE=PERCENT items such as cpu=50,io=25")
        }
        var thresholds = PressureThresholds.default
        var given: Set<PressureResource> = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let item = String(item).trimmingSpaces
            guard !item.isEmpty else { throw UsageError("empty item in '\(shown)' for \(option)") }
            guard let equals = item.firstIndex(of: "=") else {
                throw UsageError(
                    "invalid item '\(DaemonLimits.shown(item))' in '\(shown)' for \(option): expected RESOURCE=PERCENT, "
                        + "such as cpu=50")
            }
            let name = String(item[..<equals]).trimmingSpaces
            let number = String(item[item.index(after: equals)...]).trimmingSpaces
            guard let resource = PressureResource(rawValue: name.lowercased()) else {
                throw UsageError(
                    "unknown resource '\(DaemonLimits.shown(name))' in '\(shown)' for \(option) (known: \(known))")
            }
            guard given.insert(resource).inserted else {
                throw UsageError("resource \(resource) given more than once in '\(shown)' for \(option)")
            }
            let value = DaemonLimits.shown(number)
            guard let percent = decimal(number) else {
                throw UsageError(
                    "invalid \(resource) threshold '\(value)' for \(option): expected a percentage such as 50 or "
                        + "12.5 (at most \(maximumFractionDigits) digits after the point)")
            }
            guard percent > 0 && percent <= 100 else {
                throw UsageError(
                    "invalid \(resource) threshold '\(value)' for \(option): must be above 0 and at most 100")
            }
            switch resource {
            case .cpu: thresholds.cpu = percent
            case .io: thresholds.io = percent
            case .memory: thresholds.memory = percent
            }
        }
        return thresholds
    }

    /// The value of `text` when it is digits with an optional point followed by one or two digits; `nil`
    /// otherwise (signs, exponents, `inf`, `nan` and hexadecimal included).
    private static func decimal(_ text: String) -> Double? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, !whole.isEmpty else { return nil }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard pieces.count == 1 || (1...maximumFractionDigits).contains(fraction.count) else { return nil }
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        guard whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { return nil }
        return Double(text)
    }
}
