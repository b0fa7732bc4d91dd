/// What the connectivity backend knows about one network interface, decoded from `RTM_NEWLINK`.
package struct NetlinkLink: Sendable, Hashable {
    /// `ifi_index`.
    package var index: Int32
    /// `ifi_type`: the `ARPHRD_*` hardware type.
    package var hardwareType: UInt16
    /// `ifi_flags`: `IFF_*` bits.
    package var flags: UInt32
    /// `ifi_change`: the flag bits this message changed.
    package var change: UInt32
    /// `IFLA_IFNAME`'s bytes (up to its NUL), exactly as the kernel gave them, when present: the name to
    /// look the interface up by (sysfs, `if_nametoindex`). Linux allows any bytes in a name but `/`, NUL
    /// and whitespace, so they need not be UTF-8.
    package var nameBytes: [UInt8]?
    /// The name to show: ``nameBytes`` as UTF-8, each byte that is not part of a valid UTF-8 sequence
    /// written `\xHH` (``NetlinkBytes/displayName(_:)``); setting it sets ``nameBytes`` to its UTF-8.
    /// Never look the interface up by it: use ``nameBytes``.
    package var name: String? {
        get { nameBytes.map(NetlinkBytes.displayName) }
        set { nameBytes = newValue.map { Array($0.utf8) } }
    }
    /// `IFLA_OPERSTATE`, when present.
    package var operationalState: UInt8?
    /// `IFLA_INFO_KIND` inside `IFLA_LINKINFO`: set for virtual devices (`veth`, `bridge`, `tun`, …).
    package var kind: String?
    /// Whether the message carried `IFLA_WIRELESS` (wireless-extension chatter).
    package var carriesWirelessEvent: Bool

    /// Creates a link record from its parts; `nameBytes`, when given, wins over `name`.
    package init(
        index: Int32,
        hardwareType: UInt16 = 1,
        flags: UInt32,
        change: UInt32 = 0,
        name: String? = nil,
        nameBytes: [UInt8]? = nil,
        operationalState: UInt8? = nil,
        kind: String? = nil,
        carriesWirelessEvent: Bool = false
    ) {
        self.index = index
        self.hardwareType = hardwareType
        self.flags = flags
        self.change = change
        self.nameBytes = nameBytes ?? name.map { Array($0.utf8) }
        self.operationalState = operationalState
        self.kind = kind
        self.carriesWirelessEvent = carriesWirelessEvent
    }

    /// Whether traffic can leave through this link: up, running or lower-up, not loopback, and an
    /// operational state of `up` or `unknown` (or none reported).
    package var isUsable: Bool {
        let flags = self.flags
        guard flags & Netlink.InterfaceFlag.up != 0,
            flags & (Netlink.InterfaceFlag.running | Netlink.InterfaceFlag.lowerUp) != 0,
            flags & Netlink.InterfaceFlag.loopback == 0
        else { return false }
        switch operationalState {
        case nil, Netlink.OperationalState.unknown, Netlink.OperationalState.up: return true
        default: return false
        }
    }

    /// Whether the message is wireless-extension chatter that changes nothing the backend tracks.
    package var isWirelessChatter: Bool { carriesWirelessEvent && change == 0 }

    /// Decodes an `RTM_NEWLINK` or `RTM_DELLINK` message of family `AF_UNSPEC`; `nil` for anything else.
    package static func decode(_ message: NetlinkMessage) -> NetlinkLink? {
        guard message.type == Netlink.MessageType.newLink || message.type == Netlink.MessageType.deleteLink
        else { return nil }
        let payload = message.payload
        guard payload.count >= Netlink.linkHeaderSize, payload[0] == Netlink.familyUnspecified,
            let hardwareType = NetlinkBytes.load(UInt16.self, from: payload, at: 2),
            let index = NetlinkBytes.load(Int32.self, from: payload, at: 4),
            let flags = NetlinkBytes.load(UInt32.self, from: payload, at: 8),
            let change = NetlinkBytes.load(UInt32.self, from: payload, at: 12)
        else { return nil }
        var link = NetlinkLink(index: index, hardwareType: hardwareType, flags: flags, change: change)
        for attribute in NetlinkAttribute.parse(payload, from: Netlink.linkHeaderSize) {
            switch attribute.type {
            case Netlink.LinkAttribute.name:
                link.nameBytes = NetlinkBytes.terminated(attribute.payload)
            case Netlink.LinkAttribute.operationalState:
                link.operationalState = attribute.uint8
            case Netlink.LinkAttribute.wireless:
                link.carriesWirelessEvent = true
            case Netlink.LinkAttribute.linkInfo:
                for info in attribute.nested where info.type == Netlink.LinkAttribute.infoKind {
                    link.kind = info.string
                }
            default:
                break
            }
        }
        return link
    }
}
