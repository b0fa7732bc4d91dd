/// One D-Bus message: header fields and body, with pure encoding and decoding.
///
/// ``encoded()`` writes little-endian; ``decode(_:)`` reads either byte order and enforces the
/// specification's limits (128 MiB per message, 64 MiB per array, depth 64, 255-byte signatures),
/// the required header fields of each message type, and that the body fills its declared length.
package struct DBusMessage: Sendable, Hashable {
    /// The message type.
    package enum Kind: UInt8, Sendable, Hashable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// Header flag: the caller wants no reply.
    package static let noReplyExpected: UInt8 = 0x1
    /// Header flag: the bus must not start a service to deliver this call.
    static let noAutoStart: UInt8 = 0x2
    /// The longest message the specification allows, header and body.
    package static let maximumLength = 1 << 27
    /// The bytes needed to learn a message's total length.
    package static let fixedHeaderLength = 16

    /// The message type.
    package var kind: Kind
    /// The header flags.
    package var flags: UInt8 = 0
    /// The sender's serial, never zero on the wire.
    package var serial: UInt32 = 0
    /// The object path (calls and signals).
    package var path: String?
    /// The interface (signals, optional on calls).
    package var interface: String?
    /// The member: method or signal name.
    package var member: String?
    /// The error name (errors).
    package var errorName: String?
    /// The serial of the call this message answers (returns and errors).
    package var replySerial: UInt32?
    /// The destination bus name.
    package var destination: String?
    /// The sender's unique name, filled in by the bus.
    package var sender: String?
    /// The arguments.
    package var body: [DBusValue] = []

    /// Creates a message from its header fields and body; the serial is normally set when it is sent.
    package init(
        kind: Kind,
        flags: UInt8 = 0,
        serial: UInt32 = 0,
        path: String? = nil,
        interface: String? = nil,
        member: String? = nil,
        errorName: String? = nil,
        replySerial: UInt32? = nil,
        destination: String? = nil,
        sender: String? = nil,
        body: [DBusValue] = []
    ) {
        self.kind = kind
        self.flags = flags
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.replySerial = replySerial
        self.destination = destination
        self.sender = sender
        self.body = body
    }

    /// The body's signature, such as `sa{sv}as`.
    package var bodySignature: String { body.map(\.type.signature).joined() }

    /// A method call with `NO_AUTO_START`, so reading a property never starts a service.
    package static func methodCall(
        destination: String,
        path: String,
        interface: String?,
        member: String,
        body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(
            kind: .methodCall, flags: noAutoStart, path: path, interface: interface, member: member,
            destination: destination, body: body)
    }

    /// The bytes of this message, little-endian, with its serial.
    package func encoded() -> [UInt8] {
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            guard let value else { return }
            fields.append(.structure([.byte(code), .variant(value)]))
        }
        field(1, path.map(DBusValue.objectPath))
        field(2, interface.map(DBusValue.string))
        field(3, member.map(DBusValue.string))
        field(4, errorName.map(DBusValue.string))
        field(5, replySerial.map(DBusValue.uint32))
        field(6, destination.map(DBusValue.string))
        field(7, sender.map(DBusValue.string))
        field(8, body.isEmpty ? nil : .signature(bodySignature))

        var writer = DBusWriter()
        writer.write(UInt8(ascii: "l"))
        writer.write(kind.rawValue)
        writer.write(flags)
        writer.write(UInt8(1))
        writer.write(UInt32(0))  // body length, patched below
        writer.write(serial)
        writer.write(.array(.structure([.byte, .variant]), fields))
        writer.pad(to: 8)
        let bodyStart = writer.bytes.count
        for value in body { writer.write(value) }
        writer.store(UInt32(writer.bytes.count - bodyStart), at: 4)
        return writer.bytes
    }

    /// The total length of the message whose first ``fixedHeaderLength`` bytes are given.
    ///
    /// - Throws: ``DBusDecodingError`` for a bad byte-order mark or a length beyond the limits.
    package static func frameLength(prefix: [UInt8]) throws(DBusDecodingError) -> Int {
        guard prefix.count >= fixedHeaderLength else {
            throw DBusDecodingError("fixed header", "has \(prefix.count) bytes, needs 16")
        }
        let isBigEndian = try byteOrder(prefix[0])
        var reader = DBusReader(bytes: Array(prefix.prefix(fixedHeaderLength)), isBigEndian: isBigEndian)
        _ = try reader.read(UInt32.self, field: "fixed header")
        let bodyLength = Int(try reader.read(UInt32.self, field: "body length"))
        _ = try reader.read(UInt32.self, field: "serial")
        let fieldsLength = Int(try reader.read(UInt32.self, field: "header fields length"))
        guard fieldsLength <= DBusReader.maximumArrayLength else {
            throw DBusDecodingError("header fields length", "is \(fieldsLength) bytes, more than 64 MiB")
        }
        let headerLength = (fixedHeaderLength + fieldsLength + 7) / 8 * 8
        let total = headerLength + bodyLength
        guard total <= maximumLength else {
            throw DBusDecodingError("message length", "is \(total) bytes, more than 128 MiB")
        }
        return total
    }

    /// Decodes exactly one message from `bytes`.
    ///
    /// - Throws: ``DBusDecodingError`` naming the first field that is malformed.
    package static func decode(_ bytes: [UInt8]) throws(DBusDecodingError) -> DBusMessage {
        let length = try frameLength(prefix: bytes)
        guard bytes.count == length else {
            throw DBusDecodingError("message length", "declares \(length) bytes but \(bytes.count) were given")
        }
        let isBigEndian = try byteOrder(bytes[0])
        var reader = DBusReader(bytes: bytes, offset: 1, isBigEndian: isBigEndian)
        let rawKind = try reader.read(UInt8.self, field: "message type")
        guard let kind = Kind(rawValue: rawKind) else {
            throw DBusDecodingError("message type", "is \(rawKind), not 1–4")
        }
        let flags = try reader.read(UInt8.self, field: "flags")
        let version = try reader.read(UInt8.self, field: "protocol version")
        guard version == 1 else { throw DBusDecodingError("protocol version", "is \(version), not 1") }
        let bodyLength = Int(try reader.read(UInt32.self, field: "body length"))
        let serial = try reader.read(UInt32.self, field: "serial")
        guard serial != 0 else { throw DBusDecodingError("serial", "is 0") }
        let fields = try reader.readValue(.array(.structure([.byte, .variant])), field: "header fields")
        var message = DBusMessage(kind: kind, flags: flags, serial: serial)
        var signature = ""
        if case .array(_, let entries) = fields {
            for entry in entries {
                guard case .structure(let parts) = entry, parts.count == 2, case .byte(let code) = parts[0] else {
                    continue
                }
                try message.apply(field: code, value: parts[1].unwrapped, signature: &signature)
            }
        }
        try reader.align(8, field: "header padding")
        guard bytes.count - reader.offset == bodyLength else {
            throw DBusDecodingError("body length", "is \(bodyLength) but \(bytes.count - reader.offset) bytes follow")
        }
        try message.validateRequiredFields()
        let types = try DBusType.parse(signature)
        for type in types {
            message.body.append(try reader.readValue(type, field: "body (\(signature))"))
        }
        guard reader.isAtEnd else {
            throw DBusDecodingError("body", "has \(bytes.count - reader.offset) bytes after signature \"\(signature)\"")
        }
        return message
    }

    private static func byteOrder(_ mark: UInt8) throws(DBusDecodingError) -> Bool {
        switch mark {
        case UInt8(ascii: "l"): return false
        case UInt8(ascii: "B"): return true
        default: throw DBusDecodingError("byte order", "is byte \(mark), not 'l' or 'B'")
        }
    }

    private mutating func apply(field code: UInt8, value: DBusValue, signature: inout String) throws(DBusDecodingError)
    {
        func wrongType(_ name: String) -> DBusDecodingError {
            DBusDecodingError("header field \(name)", "has type \(value.type), value \(value)")
        }
        func name(_ text: String, _ field: String, valid: (String) -> Bool) throws(DBusDecodingError) -> String {
            guard valid(text) else { throw DBusDecodingError("header field \(field)", "has invalid value \"\(text)\"") }
            return text
        }
        switch (code, value) {
        case (1, .objectPath(let text)): path = text
        case (1, _): throw wrongType("PATH")
        case (2, .string(let text)): interface = try name(text, "INTERFACE", valid: DBusNames.isValidInterfaceName)
        case (2, _): throw wrongType("INTERFACE")
        case (3, .string(let text)): member = try name(text, "MEMBER", valid: DBusNames.isValidMemberName)
        case (3, _): throw wrongType("MEMBER")
        case (4, .string(let text)): errorName = try name(text, "ERROR_NAME", valid: DBusNames.isValidInterfaceName)
        case (4, _): throw wrongType("ERROR_NAME")
        case (5, .uint32(let number)): replySerial = number
        case (5, _): throw wrongType("REPLY_SERIAL")
        case (6, .string(let text)): destination = try name(text, "DESTINATION", valid: DBusNames.isValidBusName)
        case (6, _): throw wrongType("DESTINATION")
        case (7, .string(let text)): sender = try name(text, "SENDER", valid: DBusNames.isValidBusName)
        case (7, _): throw wrongType("SENDER")
        case (8, .signature(let text)): signature = text
        case (8, _): throw wrongType("SIGNATURE")
        case (9, .uint32): break  // UNIX_FDS: never negotiated, so never carries descriptors here
        case (9, _): throw wrongType("UNIX_FDS")
        default: break  // unknown fields must be ignored
        }
    }

    private func validateRequiredFields() throws(DBusDecodingError) {
        func require(_ present: Bool, _ field: String) throws(DBusDecodingError) {
            guard present else { throw DBusDecodingError("header field \(field)", "is missing from a \(kind) message") }
        }
        switch kind {
        case .methodCall:
            try require(path != nil, "PATH")
            try require(member != nil, "MEMBER")
        case .signal:
            try require(path != nil, "PATH")
            try require(interface != nil, "INTERFACE")
            try require(member != nil, "MEMBER")
        case .error:
            try require(errorName != nil, "ERROR_NAME")
            try require(replySerial != nil, "REPLY_SERIAL")
        case .methodReturn:
            try require(replySerial != nil, "REPLY_SERIAL")
        }
    }
}
