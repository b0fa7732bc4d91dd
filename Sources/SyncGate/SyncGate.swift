// The product users import: the layers, re-exported as one module. What picks the platform's sources
// (`SyncEnvironment(monitoring:)`) lives beside this file.
@_exported import SyncGateApple
@_exported import SyncGateCore
@_exported import SyncGateDurable
@_exported import SyncGateExecutors
@_exported import SyncGateLinux
