/// How sure the network path's source is that traffic over it is, or is not, metered (costs money or
/// counts against a data allowance).
///
/// A source either knows the answer (the user or the operator said so: NetworkManager's `YES`/`NO`) or
/// guesses it from the kind of link (a modem is metered, Wi-Fi is not). ``SyncRequirements/unmetered``
/// takes a guess: it holds for ``confirmedUnmetered``, ``guessedUnmetered`` and ``unknown``;
/// ``SyncRequirements/unmeteredConfirmed`` holds only for ``confirmedUnmetered``.
///
/// | source | value |
/// |---|---|
/// | NetworkManager `Metered` NO 2 / YES 1 | ``confirmedUnmetered`` / ``confirmedMetered`` |
/// | NetworkManager `Metered` GUESS_NO 4 / GUESS_YES 3 | ``guessedUnmetered`` / ``guessedMetered`` |
/// | NetworkManager `Metered` UNKNOWN 0, or no NetworkManager: the link-kind rule (cellular and Bluetooth are metered) | ``guessedMetered`` / ``guessedUnmetered`` |
/// | `NWPathMonitor` `isExpensive` | ``confirmedMetered`` |
/// | `NWPathMonitor` not `isExpensive`, `isConstrained` (Low Data Mode) | ``guessedUnmetered`` |
/// | `NWPathMonitor` neither | ``confirmedUnmetered`` |
/// | a status built with a plain `isExpensive` flag | ``confirmedMetered`` / ``confirmedUnmetered`` (the caller's word) |
/// | not connected | ``unknown`` |
///
/// On Apple platforms `isExpensive` is the system's own judgement of the path (cellular, a personal
/// hotspot it recognises) and the only verdict an app gets, so it counts as confirmed; Low Data Mode on a
/// path the system calls inexpensive means the user asked to save data there, so the "not metered" is
/// only a guess.
public enum MeteredConfidence: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A source that knows says the path is not metered.
    case confirmedUnmetered
    /// A source guesses the path is not metered.
    case guessedUnmetered
    /// No source has an opinion (or there is no path); treated as not metered by ``SyncRequirements/unmetered``.
    case unknown
    /// A source guesses the path is metered.
    case guessedMetered
    /// A source that knows says the path is metered.
    case confirmedMetered

    /// Whether the path counts as metered (expensive): ``guessedMetered`` or ``confirmedMetered``.
    public var isMetered: Bool {
        self == .guessedMetered || self == .confirmedMetered
    }

    /// Whether the value is a verdict rather than a guess: ``confirmedUnmetered`` or ``confirmedMetered``.
    public var isConfirmed: Bool {
        self == .confirmedUnmetered || self == .confirmedMetered
    }

    /// The confirmed verdict for a flag: ``confirmedMetered`` when `isMetered`, else ``confirmedUnmetered``.
    public static func confirmed(isMetered: Bool) -> MeteredConfidence {
        isMetered ? .confirmedMetered : .confirmedUnmetered
    }

    /// The guess for a flag: ``guessedMetered`` when `isMetered`, else ``guessedUnmetered``.
    public static func guessed(isMetered: Bool) -> MeteredConfidence {
        isMetered ? .guessedMetered : .guessedUnmetered
    }

    /// A lowercase name: `confirmed-unmetered`, `guessed-unmetered`, `unknown`, `guessed-metered` or
    /// `confirmed-metered` (the `metered` value of `syncgate status --json`).
    public var description: String {
        switch self {
        case .confirmedUnmetered: "confirmed-unmetered"
        case .guessedUnmetered: "guessed-unmetered"
        case .unknown: "unknown"
        case .guessedMetered: "guessed-metered"
        case .confirmedMetered: "confirmed-metered"
        }
    }
}
