/// The bounds `syncgate daemon` puts on what it accepts, checked alike by the command line (before a
/// request is sent) and by the daemon's request decoder (for any client).
///
/// Every value that comes from outside is checked against these bounds before it is used: a refused
/// value gets an error naming the field or option and the value, and changes nothing. This file uses the
/// standard library alone, so that the fuzz targets under `Fuzz/` compile it with the decoder.
package enum DaemonLimits {
    /// The shortest period of a periodic job (`--every`): one minute.
    ///
    /// A desktop daemon's periodic work (fetching mail, syncing a folder, a backup) has no use for a
    /// shorter one, and each run costs a process, a run-log entry and journal records: at one a minute
    /// that is 1 440 runs a day, which the journal's compaction keeps bounded.
    package static let minimumPeriod = Duration.seconds(60)

    /// The longest label, in UTF-8 bytes: a job's name, tag, unique key or app condition, a job id.
    package static let maximumLabelBytes = 256

    /// The most tags, and the most app conditions, one job may have.
    package static let maximumLabels = 64

    /// The longest allowed-networks list (`--network`, the `network` field of a submission), in UTF-8
    /// bytes; the daemon reads it into at most 64 matchers of at most 255 bytes each.
    package static let maximumNetworkListBytes = 2_048

    /// Why `value` cannot be an allowed-networks list's text, or `nil` when it may be read as one: non-empty,
    /// at most ``maximumNetworkListBytes`` bytes, no control characters (its matchers are read by the daemon).
    package static func networkListProblem(_ value: String) -> String? {
        textProblem(value, maximumBytes: maximumNetworkListBytes)
    }
    /// The most paths one file-triggered job may watch (`submit --on-change`).
    package static let maximumWatchedPaths = 64

    /// The most app conditions that may be on at once in the daemon (`set-condition NAME on`): each is
    /// kept in the environment's status, which every change copies.
    package static let maximumConditionsOn = 1_024

    /// Why `value` cannot be a label (a name, tag, unique key, condition or id), or `nil` when it can.
    ///
    /// A label is non-empty, at most ``maximumLabelBytes`` bytes, and holds no control characters (no NUL,
    /// no escape sequences, no line breaks), so that it reaches a terminal or a log as it was typed.
    package static func labelProblem(_ value: String) -> String? {
        textProblem(value, maximumBytes: maximumLabelBytes)
    }

    /// Why `value` is not non-empty text of at most `maximumBytes` UTF-8 bytes without control characters.
    private static func textProblem(_ value: String, maximumBytes: Int) -> String? {
        if value.isEmpty { return "must not be empty" }
        if value.utf8.count > maximumBytes { return "longer than \(maximumBytes) bytes (\(value.utf8.count))" }
        if value.unicodeScalars.contains(where: isControl) { return "must not contain control characters" }
        return nil
    }

    /// Why `value` cannot be passed to a command (an argument or a directory), or `nil` when it can: a
    /// NUL byte ends a C string, so the command would get something else than was asked for.
    package static func argumentProblem(_ value: String) -> String? {
        value.utf8.contains(0) ? "must not contain a NUL byte" : nil
    }

    /// `value` with control characters written as escapes (`\e`, `\n`, `\u{9b}`), for text meant for a
    /// terminal or a log line: nothing a job's name or command holds can move the cursor, clear the
    /// screen or forge a line.
    package static func escaped(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: isControl) else { return value }
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{1B}": text += "\\e"
            case _ where isControl(scalar): text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// `value` as an error message quotes it: at most 64 characters (then `…`), escaped.
    package static func shown(_ value: String) -> String {
        escaped(cut(value, at: 64))
    }

    /// `text` whole when it has at most `limit` characters; else its first `limit` and `…`.
    package static func cut(_ text: String, at limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
