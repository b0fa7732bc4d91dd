/// How far the network path is known to reach, as a connectivity validator (NetworkManager's check) sees it.
///
/// A validator fetches a known page to tell the open internet from a captive portal's login page or a
/// network without a way out. Where no validator exists (no NetworkManager, connectivity checks turned
/// off, Apple's `NWPathMonitor`), the value is ``unknown``.
public enum ConnectivityReachability: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No validator has an opinion: none exists, its checks are off, or it has not checked yet.
    case unknown
    /// Only the local network is reachable: no route beyond it.
    case local
    /// A network is reachable, but not the internet (the check's host could not be reached).
    case limited
    /// A captive portal intercepts traffic: a login or terms page must be passed first.
    case captivePortal
    /// The internet is reachable: the validator's check succeeded.
    case internet

    /// A short lowercase name, such as `captive-portal`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .local: "local"
        case .limited: "limited"
        case .captivePortal: "captive-portal"
        case .internet: "internet"
        }
    }
}
