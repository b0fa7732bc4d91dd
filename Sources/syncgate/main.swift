// syncgate: the command-line face of SyncGate. Everything else lives in SyncGateCLI, so tests can import
// it; see `syncgate --help`.

import Foundation
import SyncGate
import SyncGateCLI

// A command of `syncgate daemon` on its way to exec (see JobLauncher): before anything else starts.
// Each byte kept: an argument that is not UTF-8 reaches a command of `run` or the daemon as given.
let processArguments = SystemBytes.arguments()
JobLauncher.runIfRequested(processArguments)
// Closed standard descriptors get /dev/null, before anything else would be given their numbers.
StandardDescriptors.reserve()
// Ctrl-\ quits, as it does any program (128 + SIGQUIT, a core where the system keeps them): the Swift
// runtime's crash reporter would otherwise take SIGQUIT, print a crash report, and go on.
signal(SIGQUIT, SIG_DFL)
// Before any other thread starts, so every thread inherits the mask (see SignalWatcher).
SignalWatcher.blockWatchedSignals()
let arguments = Array(processArguments.dropFirst())
#if os(Linux)
    // Executors that sleep while nothing happens: `syncgate watch` and `wait` may wait for days.
    QuietExecutors.runMain { await SyncGateTool.main(arguments: arguments) }
#else
    exit(await SyncGateTool.main(arguments: arguments))
#endif
