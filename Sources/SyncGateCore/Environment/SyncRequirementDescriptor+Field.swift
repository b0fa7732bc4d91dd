extension SyncRequirementDescriptor {
    /// The fact behind a requirement as a status report shows it: its labels and its reading.
    ///
    /// Each label is given explicitly, since the JSON key, the text row and the list of sources may name
    /// the same fact differently (`externalPower`, `power`, `external power`).
    public struct Field: Sendable {
        /// The key of the fact in its part's JSON object, such as `externalPower`.
        public let key: String
        /// The label of the fact's row in the status text, such as `power`.
        public let label: String
        /// The fact's label in the list of sources, such as `external power`; `nil` when no source is
        /// recorded for it.
        public let sourceLabel: String?
        /// The words of the status text for a ``Reading/flag(_:)`` that is `true` and `false`.
        public let flagWords: (yes: String, no: String)
        /// The fact in a status.
        public let reading: @Sendable (SyncEnvironmentStatus) -> Reading

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - key: the JSON key.
        ///   - label: the text row's label; the JSON key when `nil`.
        ///   - sourceLabel: the label in the list of sources; `nil` when no source is recorded.
        ///   - flagWords: the text for a flag that is `true` and `false`; `yes` and `no` by default.
        ///   - reading: the fact in a status.
        public init(
            key: String,
            label: String? = nil,
            sourceLabel: String?,
            flagWords: (yes: String, no: String) = ("yes", "no"),
            reading: @escaping @Sendable (SyncEnvironmentStatus) -> Reading
        ) {
            self.key = key
            self.label = label ?? key
            self.sourceLabel = sourceLabel
            self.flagWords = flagWords
            self.reading = reading
        }

        /// The fact in `status` as the status text writes it: a flag as one of ``flagWords``, a word as is.
        public func text(in status: SyncEnvironmentStatus) -> String {
            switch reading(status) {
            case .flag(let flag): flag ? flagWords.yes : flagWords.no
            case .word(let word): word
            }
        }
    }

    /// The value of a requirement's fact: a flag (a JSON boolean) or a word (a JSON string).
    public enum Reading: Sendable, Hashable {
        /// A yes-or-no fact, such as whether the path is expensive.
        case flag(Bool)
        /// A fact with several values, such as the reachability `captive-portal`.
        case word(String)
    }
}
