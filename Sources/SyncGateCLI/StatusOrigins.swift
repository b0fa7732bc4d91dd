import SyncGate

/// Which source decided each field of a status report: the observers' provenance records.
package struct StatusOrigins: Sendable, Hashable {
    /// Where the network fields came from; `nil` when the network is not monitored.
    package var connectivity: ConnectivityProvenance?
    /// Where the power fields came from; `nil` when power is not monitored.
    package var power: PowerProvenance?
    /// Where the free space came from, with notes; `nil` when storage is not monitored.
    package var storage: StorageProvenance?

    /// Creates the record.
    package init(
        connectivity: ConnectivityProvenance?, power: PowerProvenance?,
        storage: StorageProvenance? = nil
    ) {
        self.connectivity = connectivity
        self.power = power
        self.storage = storage
    }

    /// Each field with the name of its source, in report order.
    package var fields: [(field: String, source: String)] {
        var fields: [(String, String)] = []
        if let connectivity {
            fields += [
                ("connected", connectivity.isConnected.name), ("interface", connectivity.interface.name),
                ("expensive", connectivity.isExpensive.name), ("constrained", connectivity.isConstrained.name),
                ("reachability", connectivity.reachability.name), ("roaming", connectivity.isRoaming.name),
            ]
        }
        if let power {
            fields += [
                ("external power", power.isOnExternalPower.name), ("battery", power.batteryLevel.name),
                ("low power mode", power.isLowPowerModeEnabled.name), ("device idle", power.isDeviceIdle.name),
            ]
        }
        if let storage { fields.append(("free space", storage.freeSpace.name)) }
        return fields
    }

    /// The notes of every record: why a better source is not used, problems met with one; only the
    /// first note about each source (the text before its first colon), since later ones repeat the cause.
    /// Sources with the same note (several D-Bus services on one unreachable bus) share one line:
    /// `NetworkManager, ModemManager: no D-Bus connection to … (…)`.
    package var notes: [String] {
        var seen: Set<Substring> = []
        let first = ((connectivity?.notes ?? []) + (power?.notes ?? []) + (storage?.notes ?? [])).filter { note in
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
