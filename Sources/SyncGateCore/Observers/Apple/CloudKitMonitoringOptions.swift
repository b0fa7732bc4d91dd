/// The settings of the iCloud sources that ``SyncEnvironment/init(monitoring:cloudKit:)`` creates on
/// Apple platforms: which CloudKit container, which Core Data container's sync events, what to call when
/// the iCloud storage is full, and how to retry an account check.
///
/// Other platforms have no iCloud sources and ignore these settings.
public struct CloudKitMonitoringOptions: Sendable {
    /// The CloudKit container whose account status is checked (`CKContainer(identifier:)`); `nil` for
    /// `CKContainer.default()`. The container is created only when the account is monitored.
    public var containerIdentifier: String?
    /// The one `NSPersistentCloudKitContainer` whose sync events are followed, as
    /// `ObjectIdentifier(container)`; `nil` follows every container of the process.
    public var syncEventContainer: ObjectIdentifier?
    /// Called when a sync event fails because the iCloud storage is full.
    public var quotaExceeded: QuotaExceededHook?
    /// When to check the account again after a transient error.
    public var accountRetry: CloudAccountRetry

    /// Creates the settings; the defaults use the default container and follow every Core Data
    /// container.
    public init(
        containerIdentifier: String? = nil,
        syncEventContainer: ObjectIdentifier? = nil,
        quotaExceeded: QuotaExceededHook? = nil,
        accountRetry: CloudAccountRetry = CloudAccountRetry()
    ) {
        self.containerIdentifier = containerIdentifier
        self.syncEventContainer = syncEventContainer
        self.quotaExceeded = quotaExceeded
        self.accountRetry = accountRetry
    }
}
