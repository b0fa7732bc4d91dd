/// One line of a streamed `logs` answer (a `logs` request with `"stream": true`), after the first
/// response line.
///
/// Exactly one of ``run``, ``output`` and ``end`` is set: a run's record (its ``DaemonResponse/Run``
/// with empty `stdout` and `stderr`), then that run's output in chunks (stdout first, then stderr, each
/// in order), and after the last run an end line with the number of runs sent. Output travels as
/// base64, so any bytes (NUL included) cost 4/3 of their size on the wire, and no line exceeds 64 KiB
/// of output. A connection that closes before the end line was cut short.
package struct LogStreamLine: Codable, Sendable, Equatable {
    /// A piece of one run's output.
    package struct Chunk: Codable, Sendable, Equatable {
        /// The run's number.
        package var run: Int
        /// `stdout` or `stderr`.
        package var stream: String
        /// The bytes, in base64.
        package var base64: String

        /// Creates a chunk.
        package init(run: Int, stream: String, base64: String) {
            self.run = run
            self.stream = stream
            self.base64 = base64
        }
    }

    /// Always ``DaemonProtocol/version``.
    package var version: Int
    /// A run's record, before its output.
    package var run: DaemonResponse.Run?
    /// A chunk of the current run's output.
    package var output: Chunk?
    /// On the last line: how many runs were sent.
    package var end: Int?

    /// Creates a line of the current version.
    package init(run: DaemonResponse.Run? = nil, output: Chunk? = nil, end: Int? = nil) {
        self.version = DaemonProtocol.version
        self.run = run
        self.output = output
        self.end = end
    }
}
