/// The scheduler's index from job identifiers to job keys.
///
/// Most jobs carry a default identifier (``SyncJob/makeID()``): the launch's prefix, `#` and a counter.
/// Those are indexed by their counter in a ``KeyTable`` (an integer hash, no string hashing); every other
/// identifier, in a dictionary keyed by the string. Which side an identifier belongs to depends only on
/// its spelling (``JobIDGenerator/serial(of:)``), not on who made it: an identifier an app spelled like a
/// default one is indexed by its counter too, so it still collides with the default identifier it
/// equals. With `SipHash` on every insertion, lookup and removal, the string index was 40 % of the state
/// machine's time in `submit`.
struct JobIDIndex {
    private let generator: JobIDGenerator
    private var generated = KeyTable<UInt64>()
    private var named: [SyncJob.ID: UInt64] = [:]

    /// Creates an empty index that recognizes the identifiers of `generator` (the process's).
    init(generator: JobIDGenerator = .process) {
        self.generator = generator
    }

    /// The key of the unfinished job with the identifier; setting `nil` removes it.
    subscript(id: SyncJob.ID) -> UInt64? {
        get {
            if let serial = generator.serial(of: id) { return generated[serial] }
            return named[id]
        }
        set {
            if let serial = generator.serial(of: id) {
                generated[serial] = newValue
            } else {
                named[id] = newValue
            }
        }
    }
}
