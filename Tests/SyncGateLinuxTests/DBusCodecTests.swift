import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

/// The pure D-Bus codec against byte vectors: both byte orders, every container, and the limits.
@Suite(.timeLimit(.minutes(1)))
struct DBusCodecTests {
    /// A method return in big-endian order: reply serial 42, body `u` 0xDEADBEEF.
    static let bigEndianReturn: [UInt8] = [
        0x42, 2, 0, 1, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 15,
        5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 42,
        8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "u"), 0, 0,
        0xDE, 0xAD, 0xBE, 0xEF,
    ]

    /// The same message as SyncGate writes it, little-endian.
    static let littleEndianReturn: [UInt8] = [
        0x6C, 2, 0, 1, 4, 0, 0, 0, 7, 0, 0, 0, 15, 0, 0, 0,
        5, 1, UInt8(ascii: "u"), 0, 42, 0, 0, 0,
        8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "u"), 0, 0,
        0xEF, 0xBE, 0xAD, 0xDE,
    ]

    @Test func decodesBigEndianAndEncodesLittleEndian() throws {
        let message = try DBusMessage.decode(Self.bigEndianReturn)
        #expect(message.kind == .methodReturn)
        #expect(message.serial == 7)
        #expect(message.replySerial == 42)
        #expect(message.body == [.uint32(0xDEAD_BEEF)])
        #expect(message.encoded() == Self.littleEndianReturn)
        #expect(try DBusMessage.decode(Self.littleEndianReturn) == message)
        #expect(try DBusMessage.frameLength(prefix: Array(Self.bigEndianReturn.prefix(16))) == 36)
    }

    @Test func encodesAStringVariantDictionary() {
        var writer = DBusWriter()
        writer.write(DBusValue.properties(["Metered": .uint32(1)]))
        let expected: [UInt8] =
            [20, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0] + Array("Metered".utf8)
            + [0, 1, UInt8(ascii: "u"), 0, 0, 1, 0, 0, 0]
        #expect(writer.bytes == expected)
    }

    @Test func encodesTheHelloCall() throws {
        var hello = DBusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "Hello")
        hello.serial = 1
        let bytes = hello.encoded()
        #expect(Array(bytes.prefix(12)) == [0x6C, 1, 2, 1, 0, 0, 0, 0, 1, 0, 0, 0])
        #expect(bytes.count % 8 == 0)
        #expect(try DBusMessage.decode(bytes) == hello)
    }

    /// Signals with every kind of value survive a round trip, and their signatures are right.
    @Test func roundTripsEveryType() throws {
        let body: [DBusValue] = [
            .byte(0xFF), .boolean(true), .int16(-2), .uint16(65_535), .int32(-3), .uint32(4), .int64(-5),
            .uint64(6), .double(0.5), .string("héllo"), .objectPath("/a/b_1"), .signature("a{sv}"), .unixFD(0),
            .array(.string, []), .array(.uint64, [.uint64(1), .uint64(2)]),
            .properties(["a": .string("x"), "b": .array(.objectPath, [.objectPath("/")])]),
            .dictionary(
                key: .uint32, value: .structure([.byte, .string]),
                [
                    DBusDictionaryEntry(key: .uint32(1), value: .structure([.byte(2), .string("s")]))
                ]),
            .structure([.byte(1), .structure([.int64(2)]), .variant(.variant(.boolean(false)))]),
        ]
        var message = DBusMessage(
            kind: .signal, serial: 3, path: "/org/x", interface: "org.x.Y", member: "Changed", sender: ":1.5",
            body: body)
        message.destination = "org.x"
        let decoded = try DBusMessage.decode(message.encoded())
        #expect(decoded == message)
        #expect(decoded.bodySignature == "ybnqiuxtdsogh" + "asata{sv}a{u(ys)}(y(x)v)")
    }

    @Test func readsPropertiesChangedThroughVariants() throws {
        let signal = DBusMessage(
            kind: .signal, serial: 9, path: "/org/freedesktop/NetworkManager",
            interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            body: [
                .string("org.freedesktop.NetworkManager"),
                .properties(["Metered": .uint32(3), "PrimaryConnection": .objectPath("/c/1")]),
                .array(.string, [.string("Devices")]),
            ])
        let decoded = try DBusMessage.decode(signal.encoded())
        let changed = try #require(decoded.body[1].properties)
        #expect(changed["Metered"]?.uint32 == 3)
        #expect(changed["PrimaryConnection"]?.objectPath == "/c/1")
        #expect(decoded.body[2].strings == ["Devices"])
    }

    @Test(
        "signatures are parsed within the specification's limits",
        arguments: [
            ("a{sv}", true), ("(ii)", true), ("aai", true), ("v", true), ("", true),
            ("a{vs}", false), ("()", false), ("a", false), ("(i", false), ("a{s}", false), ("a{sss}", false),
            ("z", false), (String(repeating: "a", count: 32) + "i", true),
            (String(repeating: "a", count: 33) + "i", false),
            (String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33), false),
            (String(repeating: "i", count: 256), false),
        ]
    )
    func signatureLimits(signature: String, valid: Bool) {
        #expect(((try? DBusType.parse(signature)) != nil) == valid, "\(signature)")
        if valid, let types = try? DBusType.parse(signature) {
            #expect(types.map(\.signature).joined() == signature)
        }
    }

    /// Bad inputs and the field each error names.
    static let malformed: [(name: String, bytes: [UInt8], field: String)] = {
        var cases: [(String, [UInt8], String)] = []
        var bytes = littleEndianReturn
        bytes[0] = UInt8(ascii: "X")
        cases.append(("byte order", bytes, "byte order"))
        bytes = littleEndianReturn
        bytes[3] = 2
        cases.append(("version", bytes, "protocol version"))
        bytes = littleEndianReturn
        bytes[1] = 9
        cases.append(("type", bytes, "message type"))
        bytes = littleEndianReturn
        bytes[8] = 0
        cases.append(("serial zero", bytes, "serial"))
        bytes = littleEndianReturn
        bytes[4] = 3
        cases.append(("short body", Array(bytes.dropLast()), "body"))
        bytes = littleEndianReturn
        bytes[31] = 1
        cases.append(("padding", bytes, "header padding"))
        bytes = littleEndianReturn
        bytes[7] = 0x08  // 128 MiB of body
        cases.append(("oversized", bytes, "message length"))
        bytes = littleEndianReturn
        bytes[15] = 0x04  // 64 MiB of header fields
        cases.append(("huge fields", bytes, "header fields length"))
        bytes = littleEndianReturn
        bytes[16] = 5
        bytes[18] = UInt8(ascii: "s")  // REPLY_SERIAL as a string
        cases.append(("field type", bytes, "header field"))
        var missing = DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1)
        missing.replySerial = nil
        cases.append(("missing reply serial", missing.encoded(), "header field REPLY_SERIAL"))
        let boolean = DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1, body: [.boolean(true)])
        bytes = boolean.encoded()
        bytes[bytes.count - 4] = 2
        cases.append(("boolean 2", bytes, "body"))
        let string = DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1, body: [.string("ab")])
        bytes = string.encoded()
        bytes[bytes.count - 1] = 1
        cases.append(("no NUL", bytes, "body"))
        bytes = string.encoded()
        bytes[bytes.count - 3] = 0xFF
        cases.append(("bad UTF-8", bytes, "body"))
        bytes = string.encoded()
        bytes[bytes.count - 7] = 200
        cases.append(("string past end", bytes, "body"))
        let array = DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1, body: [.array(.uint32, [])])
        bytes = array.encoded()
        bytes[bytes.count - 1] = 0x04  // 64 MiB array
        cases.append(("huge array", bytes, "body"))
        let path = DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1, body: [.objectPath("/a")])
        bytes = path.encoded()
        bytes[bytes.count - 2] = UInt8(ascii: "-")
        cases.append(("bad path", bytes, "body"))
        var nested = DBusValue.uint32(1)
        for _ in 0..<65 { nested = .variant(nested) }
        cases.append(
            (
                "deep variants", DBusMessage(kind: .methodReturn, serial: 1, replySerial: 1, body: [nested]).encoded(),
                "body"
            ))
        return cases
    }()

    @Test("malformed messages are rejected with the field named", arguments: 0..<malformed.count)
    func rejectsMalformed(index: Int) {
        let (name, bytes, field) = Self.malformed[index]
        do {
            _ = try DBusMessage.decode(bytes)
            Issue.record("\(name): decoded")
        } catch {
            #expect(error.field.hasPrefix(field), "\(name): \(error)")
        }
    }

    @Test(
        "addresses",
        arguments: [
            ("unix:path=/run/dbus/system_bus_socket", [DBusAddress.Location.path("/run/dbus/system_bus_socket")]),
            ("unix:path=/tmp/a%20b,guid=1234", [.path("/tmp/a b")]),
            ("tcp:host=x,port=1;unix:abstract=bus", [.abstract("bus")]),
            ("unix:abstract=a;unix:path=/b", [.abstract("a"), .path("/b")]),
        ]
    )
    func addresses(address: String, locations: [DBusAddress.Location]) throws {
        #expect(try DBusAddress.parse(address).map(\.location) == locations)
    }

    @Test func badAddresses() {
        #expect(throws: DBusDecodingError.self) { try DBusAddress.parse("tcp:host=x") }
        #expect(throws: DBusDecodingError.self) { try DBusAddress.parse("unix:path=%zz") }
        #expect(throws: DBusDecodingError.self) { try DBusAddress.parse("nonsense") }
        #expect(DBusAddress.systemBus(environment: [:]) == "unix:path=/run/dbus/system_bus_socket")
        #expect(DBusAddress.systemBus(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/x"]) == "unix:path=/x")
    }

    @Test func authentication() {
        #expect(DBusAuthentication.initialBytes(uid: 0) == [0] + Array("AUTH EXTERNAL 30\r\n".utf8))
        #expect(DBusAuthentication.initialBytes(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        #expect(DBusAuthentication.parse(line: "OK 1234abcd") == .ok(guid: "1234abcd"))
        #expect(DBusAuthentication.parse(line: "REJECTED EXTERNAL") == .rejected("REJECTED EXTERNAL"))
    }

    @Test func names() {
        #expect(DBusNames.isValidObjectPath("/"))
        #expect(DBusNames.isValidObjectPath("/org/freedesktop/NetworkManager"))
        #expect(!DBusNames.isValidObjectPath("/a/"))
        #expect(!DBusNames.isValidObjectPath("//a"))
        #expect(!DBusNames.isValidObjectPath("a"))
        #expect(DBusNames.isValidBusName(":1.42"))
        #expect(DBusNames.isValidBusName("org.freedesktop.NetworkManager"))
        #expect(!DBusNames.isValidBusName("org"))
        #expect(!DBusNames.isValidBusName("1org.x"))
        #expect(DBusNames.isValidInterfaceName("org.freedesktop.DBus.Properties"))
        #expect(!DBusNames.isValidMemberName("1Get"))
    }
}
