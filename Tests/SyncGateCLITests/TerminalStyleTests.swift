import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TerminalStyleTests {
    @Test(arguments: [
        (true, [String: String](), true, true),
        (false, [:], false, false),
        (true, ["NO_COLOR": "1"], false, true),
        (true, ["NO_COLOR": ""], true, true),
        (true, ["TERM": "dumb"], false, false),
        (false, ["TERM": "xterm-256color"], false, false),
        (true, ["TERM": "xterm-256color", "NO_COLOR": "yes"], false, true),
    ])
    func decidesColorAndRedrawing(isTerminal: Bool, environment: [String: String], color: Bool, interactive: Bool) {
        let style = TerminalStyle(isTerminal: isTerminal, environment: environment)
        #expect(style.usesColor == color)
        #expect(style.isInteractive == interactive)
    }
}
