/// The device's network path, observed from the operating system, multicast to any number of readers.
///
/// `ConnectivityObserver()` picks the platform backend:
/// * **Linux**: rtnetlink and sysfs. One socket subscribed to link, IPv4/IPv6 route and routing policy rule
///   changes is read on a dedicated thread. A change that brings a requirement and loses none (a route
///   appears) is reported at once; any other burst of changes is coalesced
///   (``init(debounce:sysfsRoot:clock:)``), so a flap shorter than the window is never reported as a loss.
///   Each is answered by route lookups for a public IPv4 and IPv6 address (nothing is sent) plus a link
///   cache; a default route that appears while nothing was routed, under plain policy rules, is reported
///   from its announcement and the lookup's answer follows at once. Connected means a unicast route, not
///   linkdown, through an interface that is up, running and not loopback. The interface kind comes from
///   sysfs; cellular and Bluetooth links are expensive; Linux has no Low Data Mode, so
///   ``ConnectivityStatus/isConstrained`` is always `false`. No polling, and no wake-ups while nothing
///   changes. When NetworkManager runs on the system bus, its `Metered` verdict, its primary connection's
///   kind and its connectivity check (``ConnectivityStatus/reachability``) win over the heuristic,
///   followed through `PropertiesChanged`; rtnetlink stays the source of "connected". Without the bus
///   or NetworkManager (or when it stops), the heuristic applies, and NetworkManager is picked up again
///   when it returns. ``ConnectivityStatus/isRoaming`` follows ModemManager on the system bus (the
///   primary modem's 3GPP registration state, while the path is cellular) and is `false` without it.
///   ``StatusObserver/provenance`` tells which source decided each field.
/// * **Apple platforms**: one `NWPathMonitor`.
/// * **Elsewhere**: no backend; the status stays ``ConnectivityStatus/disconnected``.
///
/// The first status is computed before the initializer returns, so ``StatusObserver/status`` is right from the first
/// read; on Linux the initializer waits up to one second for NetworkManager's first answer (no wait at
/// all when there is no system bus). Releasing the observer stops its thread and closes its sockets; a stream
/// obtained from ``StatusObserver/statusStream`` keeps the observer alive while it is being consumed.
///
/// ```swift
/// let observer = ConnectivityObserver()
/// for await status in observer.statusStream where status.isConnected {
///     break
/// }
/// ```
///
/// ``StatusObserver/provenance`` tells which source decided each field of ``StatusObserver/status``, with
/// notes on sources that are missing and on problems met with them. On Linux: rtnetlink, the sysfs
/// heuristic or NetworkManager, with notes on why NetworkManager is not used; on Apple platforms:
/// `NWPathMonitor`, except reachability (no validator); elsewhere, none.
public typealias ConnectivityObserver = StatusObserver<ConnectivityStatus, ConnectivityProvenance>

extension StatusObserver: ConnectivityObserving where Status == ConnectivityStatus {}
