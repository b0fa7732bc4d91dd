import SyncGateTesting
import Testing

@testable import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SystemBytes`: any bytes survive the round trip through their text form, and valid UTF-8 reads as
/// itself.
@Suite("System bytes", .timeLimit(.minutes(1)))
struct SystemBytesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        /// The text expected, when the bytes are valid UTF-8 outside the escapes' range.
        var plain: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty", bytes: [], plain: ""),
        Case(name: "ASCII", bytes: Array("sync -v".utf8), plain: "sync -v"),
        Case(name: "multibyte UTF-8", bytes: Array("Größe 東京 🚀".utf8), plain: "Größe 東京 🚀"),
        Case(name: "a lone 0xFF", bytes: [0x61, 0xFF, 0x62]),
        Case(name: "Latin-1 é (0xE9) between letters", bytes: [0x63, 0x61, 0x66, 0xE9, 0x2E]),
        Case(name: "a sequence cut short at the end", bytes: [0x61, 0xE2, 0x82]),
        Case(name: "an overlong slash", bytes: [0xC0, 0xAF]),
        Case(name: "an encoded surrogate", bytes: [0xED, 0xA0, 0x80]),
        Case(name: "beyond U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80]),
        Case(name: "a continuation byte alone", bytes: [0x80]),
        Case(name: "an escape's own code point, U+10FF80", bytes: [0xF4, 0x8F, 0xBE, 0x80]),
        Case(name: "U+10FF7F, just below the escapes", bytes: [0xF4, 0x8F, 0xBD, 0xBF], plain: "\u{10FF7F}"),
        Case(name: "every byte value", bytes: Array(0...255)),
    ]

    @Test("the round trip gives back the bytes", arguments: cases)
    func roundTrip(_ test: Case) {
        let text = SystemBytes.text(of: test.bytes)
        #expect(SystemBytes.bytes(of: text) == test.bytes)
        #expect(SystemBytes.isUnicode(text) == (test.plain != nil))
        if let plain = test.plain { #expect(text == plain) }
        let copy = SystemBytes.cString(text)
        defer { free(copy) }
        #expect(SystemBytes.text(ofCString: copy) == SystemBytes.text(of: test.bytes.prefix { $0 != 0 }))
    }

    @Test("random byte strings survive the round trip (seeded)", arguments: [1, 2, 3] as [UInt64])
    func randomBytes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let bytes = (0..<random.next(below: 24)).map { _ in
                // Mostly high bytes, where UTF-8 goes wrong.
                UInt8(random.chance(0.7) ? 0x80 + random.next(below: 0x80) : random.next(below: 0x80))
            }
            #expect(SystemBytes.bytes(of: SystemBytes.text(of: bytes)) == bytes)
        }
    }
}
