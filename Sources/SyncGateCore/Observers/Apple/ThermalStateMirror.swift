/// A platform-neutral copy of every case of `ProcessInfo.ThermalState`, so the heat rule can be tested
/// anywhere.
package enum ThermalStateMirror: Sendable, Hashable, CaseIterable {
    /// `.nominal`: within normal limits.
    case nominal
    /// `.fair`: slightly elevated.
    case fair
    /// `.serious`: high; the system reduces performance, and apps should reduce their work.
    case serious
    /// `.critical`: significantly affecting performance; apps should do as little as they can.
    case critical

    /// Whether the device counts as hot (``ResourceStatus/isHot``): `.serious` and `.critical`, the
    /// states in which the system itself throttles and asks apps to cut back.
    package var isHot: Bool {
        switch self {
        case .nominal, .fair: false
        case .serious, .critical: true
        }
    }
}
