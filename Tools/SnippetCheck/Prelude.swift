// The app that the documentation's snippets are written for: the functions and values they use without
// declaring them. Tools/SnippetCheck/check-snippets.py compiles every snippet together with this file
// (typecheck only; nothing here ever runs). Keep it to what a snippet leaves to the reader's app: a
// value that SyncGate itself provides belongs in the snippet, not here.

import SyncGate

/// The app's network source, such as `ConnectivityObserver()` or one of its own.
let myConnectivitySource: any ConnectivityObserving = unimplemented()

/// The app's account source, over its own sign-in state.
let myAccountSource: any AccountStatusProviding = unimplemented()

/// A photo the app uploads.
struct Photo: Sendable {}

/// The photo a snippet uploads.
let photo = Photo()

/// The payload of a durable upload job.
struct UploadRequest: Codable, Sendable {
    /// The photo to upload, by its number in the app's library.
    var photo: Int
}

/// The app's upload client.
struct Uploader: Sendable {
    /// Uploads a photo; the key makes a repeated upload harmless.
    func upload(_ photo: Photo, idempotencyKey: String) async throws {}

    /// Uploads the photo a durable job names; the key makes a repeated upload harmless.
    func upload(_ request: UploadRequest, idempotencyKey: String) async throws {}
}

/// The app's upload client.
let uploader = Uploader()

/// Uploads whatever is pending.
func upload() async throws {}

/// The app's whole sync.
func syncNow() async throws {}

/// Syncs the app's metadata and returns how many records changed.
func syncMetadata() async throws -> Int { 0 }

/// Stands in for a value the snippets only need the type of.
private func unimplemented<Value>() -> Value {
    fatalError("the snippets are only typechecked")
}
