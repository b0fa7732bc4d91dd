import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

/// Kernel uevent datagrams as a test writes them: fields joined by NUL, with the trailing NUL.
func uevent(_ fields: String...) -> [UInt8] {
    fields.flatMap { Array($0.utf8) + [0] }
}

/// A datagram that must not parse.
struct UEventRejectCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]

    init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    var testDescription: String { name }
}

/// A datagram that must parse, and the message it must give.
struct UEventParseCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var expected: UEventMessage

    init(_ name: String, _ bytes: [UInt8], _ expected: UEventMessage) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}

@Suite("UEventMessage: kernel uevent parser", .timeLimit(.minutes(1)))
struct UEventMessageTests {
    @Test("a power_supply change event")
    func batteryChange() throws {
        let bytes = uevent(
            "change@/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0",
            "ACTION=change",
            "DEVPATH=/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0",
            "SUBSYSTEM=power_supply",
            "POWER_SUPPLY_NAME=BAT0",
            "POWER_SUPPLY_CAPACITY=80",
            "SEQNUM=4242"
        )
        let message = try #require(UEventMessage(bytes: bytes))
        #expect(message.action == "change")
        #expect(message.devicePath == "/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0")
        #expect(message.subsystem == "power_supply")
        #expect(message.isPowerSupplyEvent)
        #expect(message.properties["POWER_SUPPLY_CAPACITY"] == "80")
        #expect(message.properties["SEQNUM"] == "4242")
        #expect(message.properties.count == 6)
    }

    @Test("events of other subsystems parse but are not power_supply events")
    func otherSubsystem() throws {
        let message = try #require(
            UEventMessage(bytes: uevent("add@/devices/virtual/net/veth0", "ACTION=add", "SUBSYSTEM=net", "IFINDEX=7")))
        #expect(message.action == "add")
        #expect(message.subsystem == "net")
        #expect(!message.isPowerSupplyEvent)
    }

    /// Inputs that are not kernel uevents.
    static let rejected: [UEventRejectCase] = [
        UEventRejectCase("empty", []),
        UEventRejectCase("only NULs", [0, 0, 0]),
        UEventRejectCase("no @ in the header", uevent("ACTION=change", "SUBSYSTEM=power_supply")),
        UEventRejectCase("empty action", uevent("@/devices/x", "SUBSYSTEM=power_supply")),
        UEventRejectCase(
            "libudev message",
            Array("libudev".utf8) + [0, 0xFE, 0xED, 0xCA, 0xFE, 40, 0, 0, 0]
                + uevent("ACTION=change", "SUBSYSTEM=power_supply")
        ),
        UEventRejectCase(
            "too long", Array("change@/x".utf8) + [0] + [UInt8](repeating: 0x41, count: UEventMessage.maximumLength)),
    ]

    @Test("rejected inputs", arguments: rejected)
    func rejects(_ rejectCase: UEventRejectCase) {
        #expect(UEventMessage(bytes: rejectCase.bytes) == nil)
    }

    /// Inputs that parse, with the fields they must give.
    static let tolerated: [UEventParseCase] = [
        UEventParseCase(
            "no trailing NUL",
            Array("change@/p\0SUBSYSTEM=power_supply".utf8),
            UEventMessage(action: "change", devicePath: "/p", properties: ["SUBSYSTEM": "power_supply"])
        ),
        UEventParseCase(
            "header only",
            Array("remove@/devices/x".utf8),
            UEventMessage(action: "remove", devicePath: "/devices/x")
        ),
        UEventParseCase(
            "fields without = or with an empty key are skipped; a value may hold =",
            uevent("change@/p", "noequals", "=novalue", "EMPTY=", "A=B=C"),
            UEventMessage(action: "change", devicePath: "/p", properties: ["EMPTY": "", "A": "B=C"])
        ),
        UEventParseCase(
            "a repeated key keeps its last value",
            uevent("change@/p", "SUBSYSTEM=net", "SUBSYSTEM=power_supply"),
            UEventMessage(action: "change", devicePath: "/p", properties: ["SUBSYSTEM": "power_supply"])
        ),
        UEventParseCase(
            "leading and doubled NULs",
            [0, 0] + uevent("change@/p") + [0, 0] + uevent("K=V"),
            UEventMessage(action: "change", devicePath: "/p", properties: ["K": "V"])
        ),
        UEventParseCase(
            "an @ in the device path",
            uevent("move@/devices/a@b"),
            UEventMessage(action: "move", devicePath: "/devices/a@b")
        ),
        UEventParseCase(
            "invalid UTF-8 is repaired",
            [0x63, 0xFF, 0x40, 0x2F, 0x00, 0x4B, 0x3D, 0xC3, 0x28, 0x00],
            UEventMessage(action: "c\u{FFFD}", devicePath: "/", properties: ["K": "\u{FFFD}("])
        ),
    ]

    @Test("tolerated inputs", arguments: tolerated)
    func tolerates(_ parseCase: UEventParseCase) {
        #expect(UEventMessage(bytes: parseCase.bytes) == parseCase.expected)
    }

    @Test("serialising and parsing again gives the same message")
    func roundTrip() throws {
        let message = UEventMessage(
            action: "change", devicePath: "/devices/x/power_supply/AC",
            properties: ["SUBSYSTEM": "power_supply", "POWER_SUPPLY_ONLINE": "1", "ACTION": "change"])
        #expect(UEventMessage(bytes: message.bytes) == message)
        #expect(
            message.bytes
                == uevent(
                    "change@/devices/x/power_supply/AC", "ACTION=change", "POWER_SUPPLY_ONLINE=1",
                    "SUBSYSTEM=power_supply"))
    }

    @Test("every prefix and every single-byte corruption of a real message parses without trapping")
    func prefixesAndCorruptions() {
        let bytes = uevent(
            "change@/devices/power_supply/BAT0", "ACTION=change", "SUBSYSTEM=power_supply", "SEQNUM=1")
        for end in 0...bytes.count {
            _ = UEventMessage(bytes: bytes[..<end])
        }
        for index in bytes.indices {
            for value: UInt8 in [0, 0x3D, 0x40, 0xFF] {
                var corrupted = bytes
                corrupted[index] = value
                _ = UEventMessage(bytes: corrupted)
            }
        }
    }
}
