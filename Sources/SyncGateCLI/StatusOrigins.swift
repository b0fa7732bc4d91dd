import SyncGate

/// Which source decided each field of a status report: the observers' provenance records.
package struct StatusOrigins: Sendable, Hashable {
    /// Where the network fields came from; `nil` when the network is not monitored.
    package var connectivity: ConnectivityProvenance?
    /// Where the power fields came from; `nil` when power is not monitored.
    package var power: PowerProvenance?
    /// Where the free space came from, with notes; `nil` when storage is not monitored.
    package var storage: StorageProvenance?
    /// Where the pressure and heat came from, with notes; `nil` when resources are not monitored.
    package var resources: ResourceProvenance?

    /// Creates the record.
    package init(
        connectivity: ConnectivityProvenance?, power: PowerProvenance?,
        storage: StorageProvenance? = nil, resources: ResourceProvenance? = nil
    ) {
        self.connectivity = connectivity
        self.power = power
        self.storage = storage
        self.resources = resources
    }

    /// Each field with the name of its source, in report order: the rows of ``StatusLayout`` whose
    /// record is present, each requirement's under its descriptor's
    /// ``SyncGate/SyncRequirementDescriptor/Field/sourceLabel``.
    package var fields: [(field: String, source: String)] {
        var fields: [(String, String)] = []
        for layout in StatusLayout.parts {
            for slot in layout.rowSlots {
                switch slot {
                case .requirement(let descriptor):
                    if let label = descriptor.field.sourceLabel, let origin = origin(of: descriptor.requirement) {
                        fields.append((label, origin.name))
                    }
                case .other(let label, _):
                    if label == "interface", let origin = connectivity?.interface {
                        fields.append((label, origin.name))
                    }
                    if label == "network in use", let connectivity {
                        fields.append(("network interface", connectivity.networkInterface.name))
                        fields.append(("network connection", connectivity.networkConnection.name))
                    }
                }
            }
        }
        return fields
    }

    /// The source of the fact behind a single requirement, from the record of its part: each requirement
    /// with a ``SyncGate/SyncRequirementDescriptor/Field/sourceLabel`` maps to its provenance field here;
    /// `nil` when the record is absent.
    func origin(of requirement: SyncRequirements) -> StatusOrigin? {
        switch requirement {
        case .network: connectivity?.isConnected
        case .unmetered: connectivity?.isExpensive
        case .unmeteredConfirmed: connectivity?.isExpensive
        case .unconstrained: connectivity?.isConstrained
        case .validatedInternet: connectivity?.reachability
        case .notRoaming: connectivity?.isRoaming
        case .externalPower: power?.isOnExternalPower
        case .batteryNotLow: power?.batteryLevel
        case .notLowPower: power?.isLowPowerModeEnabled
        case .deviceIdle: power?.isDeviceIdle
        case .storageNotLow: storage?.freeSpace
        case .notUnderPressure: resources?.pressure
        case .notHot: resources?.heat
        default: nil
        }
    }

    /// The notes of every record: why a better source is not used, problems met with one; only the
    /// first note about each source (the text before its first colon), since later ones repeat the cause.
    /// Sources with the same note (several D-Bus services on one unreachable bus) share one line:
    /// `NetworkManager, ModemManager: no D-Bus connection to … (…)`.
    package var notes: [String] {
        var seen: Set<Substring> = []
        let first =
            ((connectivity?.notes ?? []) + (power?.notes ?? []) + (storage?.notes ?? [])
            + (resources?.notes ?? [])).filter { note in
                seen.insert(note.prefix { $0 != ":" }).inserted
            }
        var lines: [(sources: [Substring], text: String)] = []
        for note in first {
            guard let colon = note.range(of: ": ") else {
                lines.append(([], note))
                continue
            }
            let source = note[..<colon.lowerBound]
            let text = String(note[colon.upperBound...])
            if let index = lines.firstIndex(where: { !$0.sources.isEmpty && $0.text == text }) {
                lines[index].sources.append(source)
            } else {
                lines.append(([source], text))
            }
        }
        return lines.map { $0.sources.isEmpty ? $0.text : $0.sources.joined(separator: ", ") + ": " + $0.text }
    }

    /// The record as JSON: `{"fields": {"connected": "rtnetlink", …}, "notes": […]}`.
    package var json: JSONValue {
        .object([
            ("fields", .object(fields.map { ($0.field, .string($0.source)) })),
            ("notes", .array(notes.map { .string($0) })),
        ])
    }
}
