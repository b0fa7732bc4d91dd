import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct JSONValueTests {
    @Test func serializesCompactlyAndPrettily() {
        let value = JSONValue.object([
            ("b", .array([.int(1), .double(0.5), .null])), ("a", .string("q\"\\\n\u{1}é")), ("e", .object([])),
        ])
        #expect(value.compact == #"{"b":[1,0.5,null],"a":"q\"\\\n\u0001é","e":{}}"#)
        #expect(
            value.pretty
                == "{\n  \"b\": [\n    1,\n    0.5,\n    null\n  ],\n  \"a\": \"q\\\"\\\\\\n\\u0001é\",\n  \"e\": {}\n}"
        )
    }
}
