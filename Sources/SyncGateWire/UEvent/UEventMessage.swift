/// One kernel uevent, as broadcast on a `NETLINK_KOBJECT_UEVENT` socket.
///
/// The kernel's format is a header `action@devpath` followed by `KEY=VALUE` fields, each terminated by
/// a NUL byte:
///
/// ```
/// change@/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0\0ACTION=change\0
/// DEVPATH=/devices/…/power_supply/BAT0\0SUBSYSTEM=power_supply\0POWER_SUPPLY_NAME=BAT0\0SEQNUM=4242\0
/// ```
///
/// Messages re-broadcast by udev start with `libudev\0` and a binary header; they are not kernel
/// messages and ``init(bytes:)`` rejects them, as it rejects anything else it cannot read. Parsing never
/// traps: bytes that are not UTF-8 are repaired, fields without `=` are skipped, and a repeated key
/// keeps its last value.
package struct UEventMessage: Sendable, Hashable {
    /// The action from the header: `add`, `remove`, `change`, `move`, `online`, `offline`, `bind`, …
    package var action: String
    /// The device path from the header, relative to `/sys`, such as `/devices/…/power_supply/BAT0`.
    package var devicePath: String
    /// The `KEY=VALUE` fields after the header.
    package var properties: [String: String]

    /// The largest message the parser reads; longer input is rejected. The kernel's own limit is
    /// 2 KiB (`UEVENT_BUFFER_SIZE`), libudev's 8 KiB.
    package static let maximumLength = 16_384

    /// The prefix of messages sent by libudev rather than the kernel.
    static let libudevPrefix: [UInt8] = Array("libudev".utf8) + [0]

    /// Creates a message from its parts.
    package init(action: String, devicePath: String, properties: [String: String] = [:]) {
        self.action = action
        self.devicePath = devicePath
        self.properties = properties
    }

    /// Parses one datagram in the kernel's format; returns `nil` for libudev messages and for bytes
    /// that are not a uevent (no `@` in the header, an empty action, or more than ``maximumLength``
    /// bytes).
    package init?(bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return nil }
        guard !bytes.starts(with: Self.libudevPrefix) else { return nil }
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: true).makeIterator()
        guard let header = fields.next(), let at = header.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        let action = header[header.startIndex..<at]
        let path = header[header.index(after: at)...]
        guard !action.isEmpty else { return nil }
        var properties: [String: String] = [:]
        while let field = fields.next() {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")), equals != field.startIndex else { continue }
            let key = String(decoding: field[field.startIndex..<equals], as: UTF8.self)
            properties[key] = String(decoding: field[field.index(after: equals)...], as: UTF8.self)
        }
        self.init(
            action: String(decoding: action, as: UTF8.self),
            devicePath: String(decoding: path, as: UTF8.self),
            properties: properties
        )
    }

    /// The `SUBSYSTEM` field, such as `power_supply`, `net` or `usb`.
    package var subsystem: String? { properties["SUBSYSTEM"] }

    /// Whether the message concerns a power supply (`SUBSYSTEM=power_supply`).
    package var isPowerSupplyEvent: Bool { subsystem == "power_supply" }

    /// Serialises the message in the kernel's format: the header, then each field, each ending in NUL.
    ///
    /// Fields come in key order, so the output is deterministic. Used by tests and the fuzz corpus.
    package var bytes: [UInt8] {
        var bytes = Array("\(action)@\(devicePath)".utf8) + [0]
        for key in properties.keys.sorted() {
            bytes += Array("\(key)=\(properties[key] ?? "")".utf8) + [0]
        }
        return bytes
    }
}
