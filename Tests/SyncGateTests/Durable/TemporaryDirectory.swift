import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "syncgate-durable-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The journal file of a store in this directory.
    var journal: String { path + "/journal" }

    func bytes(of file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    func write(_ bytes: [UInt8], to file: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }
}
