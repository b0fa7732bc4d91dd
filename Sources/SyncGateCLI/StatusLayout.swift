import SyncGate

/// Where each fact of the environment appears in a status report: the parts in report order and, in each
/// part, its facts in order.
///
/// A part lists only the facts that need a place: the ones no requirement decides (`interface`,
/// `batteryLevel`, …) and the requirements placed before them. Every other requirement whose descriptor
/// names the part follows, in the order of ``SyncGate/SyncRequirements/descriptors``, with the labels and
/// reading of its descriptor — so a requirement added to that table appears in the JSON, the text rows
/// and the list of sources without an entry here.
struct StatusLayout: Sendable {
    /// A placed fact: a requirement's, or one that no requirement decides.
    enum Entry<Value>: Sendable {
        /// The fact behind a single requirement, shown as its descriptor says.
        case requirement(SyncRequirements)
        /// A fact that no requirement decides, with its label and its value in a report.
        case other(String, @Sendable (StatusReport) -> Value)
    }

    /// A fact in its final place.
    enum Slot<Value> {
        /// A requirement's fact.
        case requirement(SyncRequirementDescriptor)
        /// A fact that no requirement decides.
        case other(String, @Sendable (StatusReport) -> Value)
    }

    /// The part.
    let part: MonitoringOptions
    /// The part's key in the JSON.
    let key: String
    /// The label of the part's one row while it is not monitored.
    let label: String
    /// What that row says.
    let unmonitored: String
    /// The placed facts of the part's JSON object, after `monitored`.
    let json: [Entry<JSONValue>]
    /// The placed rows of the part while it is monitored.
    let rows: [Entry<String>]

    /// The facts of the part's JSON object, after `monitored`.
    var jsonSlots: [Slot<JSONValue>] { slots(json) }
    /// The rows of the part while it is monitored.
    var rowSlots: [Slot<String>] { slots(rows) }

    /// `placed`, then every other requirement of the part in table order.
    private func slots<Value>(_ placed: [Entry<Value>]) -> [Slot<Value>] {
        var seen: SyncRequirements = []
        var slots: [Slot<Value>] = []
        for entry in placed {
            switch entry {
            case .requirement(let requirement):
                guard let descriptor = SyncRequirements.descriptor(of: requirement) else { continue }
                seen.formUnion(requirement)
                slots.append(.requirement(descriptor))
            case .other(let label, let value):
                slots.append(.other(label, value))
            }
        }
        for descriptor in SyncRequirements.descriptors
        where descriptor.part == part && !seen.contains(descriptor.requirement) {
            slots.append(.requirement(descriptor))
        }
        return slots
    }

    /// The parts in report order.
    static let parts: [StatusLayout] = [
        StatusLayout(
            part: .network, key: "network", label: "network", unmonitored: StatusReport.notMonitored,
            json: [
                .requirement(.network),
                .other("interface") { .string($0.status.connectivity.interface.description) },
                .other("interfaceName") { report in
                    report.status.connectivity.isConnected ? report.interfaceName.map { .string($0) } ?? .null : .null
                },
                .other("otherNextHops") { report in
                    .array(
                        report.status.connectivity.network.otherNextHops.map { hop in
                            .object([
                                ("interfaceName", .string(hop.interfaceName)),
                                ("interface", .string(hop.interface.description)),
                            ])
                        })
                },
                .other("connection") { $0.status.connectivity.network.connectionID.map { .string($0) } ?? .null },
                .other("ssid") { $0.status.connectivity.network.ssid.map { .string($0) } ?? .null },
            ],
            rows: [
                .requirement(.network), .other("interface") { $0.interfaceText },
                .other("network in use") { $0.networkText },
            ]),
        StatusLayout(
            part: .power, key: "power", label: "power", unmonitored: StatusReport.notMonitored,
            json: [
                .requirement(.externalPower),
                .other("batteryLevel") { $0.status.power.batteryLevel.map { .double($0) } ?? .null },
                .requirement(.batteryNotLow),
            ],
            rows: [.requirement(.externalPower), .requirement(.batteryNotLow)]),
        StatusLayout(
            part: .account, key: "account", label: "account", unmonitored: StatusReport.notMonitored, json: [],
            rows: []),
        StatusLayout(
            part: .cloudDrive, key: "cloudDrive", label: "cloud drive", unmonitored: StatusReport.notMonitored,
            json: [], rows: []),
        StatusLayout(
            part: .syncEvent, key: "syncEvent", label: "sync events", unmonitored: "not monitored",
            json: [.other("event") { .string($0.status.syncEvent.description) }],
            rows: [.other("sync events") { $0.status.syncEvent.description }]),
        StatusLayout(
            part: .storage, key: "storage", label: "storage", unmonitored: StatusReport.notMonitored,
            json: [
                .other("path") { $0.status.storage.path.map { .string($0) } ?? .null },
                .other("availableBytes") { $0.status.storage.availableBytes.map { .int(Int(clamping: $0)) } ?? .null },
                .other("capacityBytes") { $0.status.storage.capacityBytes.map { .int(Int(clamping: $0)) } ?? .null },
                .other("thresholdBytes") { .int(Int(clamping: $0.status.storage.thresholdBytes)) },
            ],
            rows: []),
        StatusLayout(
            part: .resources, key: "resources", label: "resources", unmonitored: StatusReport.notMonitored,
            json: [
                .requirement(.notUnderPressure),
                .other("pressure") { report in
                    guard let levels = report.status.resources.pressure else { return .null }
                    return .object(
                        PressureResource.allCases.map { ($0.rawValue, levels[$0].map { .double($0) } ?? .null) })
                },
                .other("pressureThresholds") { report in
                    let thresholds = report.status.resources.pressureThresholds
                    return .object(PressureResource.allCases.map { ($0.rawValue, .double(thresholds[$0])) })
                },
                .requirement(.notHot),
                .other("thermal") { report in
                    guard let thermal = report.status.resources.thermal else { return .null }
                    return .object([
                        ("zone", .string(thermal.zone)), ("celsius", .double(thermal.celsius)),
                        ("passiveCelsius", .double(thermal.passiveCelsius)),
                    ])
                },
            ],
            rows: []),
    ]
}
