internal import CTaskThreads
import Glibc

/// Starts detached pthreads with a name, for the threads of this module (and their users) that
/// replace libdispatch's workers.
package enum NamedThread {
    /// Runs `body` on a new detached thread named `name` (cut to 15 bytes).
    package static func start(name: String, stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
            ctaskthreads_set_thread_name(start.name)
            start.body()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        precondition(status == 0, "pthread_create failed: \(status)")
    }
}

/// What a new thread is handed.
private final class ThreadStart {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
