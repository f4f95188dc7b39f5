import FoundationEssentials
import Glibc

/// A parent may start us with SIGTERM blocked (Swift's Foundation `Process` passes its mask on);
/// unblock the signals we promise to handle.
enum SignalMask {
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
