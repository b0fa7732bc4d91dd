import SyncGate

/// Turns the demo's board into text: the live table, the plain lines, and the summary.
struct DemoDisplay: Sendable {
    /// Colors and redrawing.
    var style: TerminalStyle
    /// The terminal's width; lines are cut to it in the live table.
    var width: Int

    /// `1.2s` for a timeline second.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)s"
    }

    /// A word and a color for a state, with details from the row.
    func describe(_ state: SyncJobState, _ row: DemoBoard.Row, board: DemoBoard) -> (String, TerminalStyle.Color) {
        switch state {
        case .waiting(let unmet, let conditions):
            if unmet.isEmpty && conditions.isEmpty { return ("waiting for a free slot", .yellow) }
            return ("waiting for " + board.blocker(unmet: unmet, conditions: conditions), .yellow)
        case .blocked:
            return (state.description, .yellow)
        case .delayed(let attempt):
            let reason = row.failures.last.map { "attempt \(attempt - 1) failed: \($0); " } ?? ""
            return (reason + "retrying as attempt \(attempt) after a backoff", .yellow)
        case .running(let attempt):
            return ("running attempt \(attempt) " + bar(row.progress), .cyan)
        case .succeeded:
            let attempts = row.attempts == 1 ? "" : " after \(row.attempts) attempts"
            return ("succeeded" + attempts, .green)
        case .failed:
            return ("failed: " + (row.failures.last ?? "unknown error") + ", not retried", .red)
        case .cancelled:
            return ("cancelled: " + (row.cancelReason ?? "by the app"), .dim)
        case .expired:
            let waited = row.lastBlocker.map { "; it waited for " + $0 } ?? ""
            let deadline = row.plan.startDeadline.map { " within \(Self.seconds($0))" } ?? ""
            return ("expired: not started\(deadline)\(waited)", .red)
        }
    }

    private func bar(_ progress: Double) -> String {
        let filled = min(max(Int((progress * 10).rounded()), 0), 10)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled) + "]"
    }

    private func symbol(_ state: SyncJobState) -> String {
        switch state {
        case .waiting, .blocked: "…"
        case .delayed: "↻"
        case .running: "▶"
        case .succeeded: "✓"
        case .failed: "✗"
        case .cancelled: "⊘"
        case .expired: "⌛"
        }
    }

    /// The live table: environment, one line per job, the latest story lines.
    func liveLines(board: DemoBoard, elapsed: Double, environment: String) -> [String] {
        var lines = [
            style.paint("syncgate demo", .bold) + "  " + Self.seconds(elapsed),
            style.paint("environment: ", .dim) + environment,
            "",
        ]
        for row in board.rows {
            guard let state = row.handle?.state else { continue }
            let (text, color) = describe(state, row, board: board)
            let name = row.plan.id.padding(18)
            lines.append(style.paint(symbol(state), color) + " " + name + style.paint(text, color))
        }
        lines.append("")
        for entry in board.narration.suffix(4) {
            lines.append(style.paint(Self.seconds(entry.at).padding(7), .dim) + entry.text)
        }
        return lines.map { cut($0) }
    }

    /// One plain line for a job's new state.
    func plainLine(_ state: SyncJobState, _ row: DemoBoard.Row, board: DemoBoard, at time: Double) -> String {
        var (shown, color) = describe(state, row, board: board)
        if case .running(let attempt) = state { shown = "started attempt \(attempt)" }
        return style.paint(Self.seconds(time).padding(7), .dim) + row.plan.id.padding(18) + style.paint(shown, color)
    }

    /// One plain line of the story.
    func plainNarration(_ text: String, at time: Double) -> String {
        style.paint(Self.seconds(time).padding(7), .dim) + style.paint("* " + text, .bold)
    }

    /// The summary at the end, from the scheduler's history (`jobs`: every demo job, found by its tag):
    /// totals by outcome, then one line per job with its outcome and times.
    func summary(board: DemoBoard, jobs: [SyncJobInfo], elapsed: Double) -> [String] {
        var counts: [SyncJobQuery.State: Int] = [:]
        var lines: [String] = []
        for row in board.rows {
            guard let job = jobs.first(where: { $0.id == row.plan.id }) else { continue }
            let state = job.state
            counts[SyncJobQuery.State(state), default: 0] += 1
            let (text, color) = describe(state, row, board: board)
            var details: [String] = []
            if let started = row.startedAt, let finished = row.finishedAt {
                details.append("started at \(Self.seconds(started)), ended at \(Self.seconds(finished))")
            }
            if state == .succeeded && !row.failures.isEmpty {
                details.append("earlier attempts: " + row.failures.joined(separator: "; "))
            }
            let suffix = details.isEmpty ? "" : style.paint(" (" + details.joined(separator: "; ") + ")", .dim)
            lines.append("  " + row.plan.id.padding(18) + style.paint(text, color) + suffix)
        }
        let order: [SyncJobQuery.State] = [.succeeded, .failed, .expired, .cancelled]
        let totals = order.compactMap { key in counts[key].map { "\($0) \(key)" } }.joined(separator: ", ")
        return [style.paint("Summary after \(Self.seconds(elapsed)): ", .bold) + totals] + lines
    }

    private func cut(_ line: String) -> String {
        // Colors add invisible characters, so cut on the visible ones only.
        var visible = 0
        var output = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                output.append(character)
                if character == "m" { inEscape = false }
                continue
            }
            if visible >= width - 1 { continue }
            visible += 1
            output.append(character)
        }
        return output
    }
}

extension String {
    /// The string padded with spaces to `width` characters, plus one space when it is longer.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
