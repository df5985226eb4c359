import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The write end of the self-pipe the signal handler writes to (-1 when none is installed).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Runs a closure when the process receives SIGTERM or SIGINT (or other given signals), once per
/// delivery, on a dedicated thread. Keep the returned object alive while the handlers should stay
/// installed; releasing it restores the default dispositions. One instance at a time per process.
///
/// A plain `sigaction` handler writes the signal number to a pipe (async-signal-safe), so delivery
/// works whichever thread the kernel picks; libdispatch signal sources miss signals on Linux unless
/// every thread blocks them.
public final class ShutdownSignals: Sendable {
    private let signals: [Int32]
    private let writeEnd: Int32

    /// True when the handlers are in place (false only if the process could not create a pipe).
    public let isInstalled: Bool

    /// Installs handlers for `signals` (default SIGTERM and SIGINT) calling `handler` with the signal number.
    public init(signals: [Int32] = [SIGTERM, SIGINT], handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0, let readEnd = ends.first, let writeEnd = ends.last else {
            self.writeEnd = -1
            self.signals = []
            self.isInstalled = false
            return
        }
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        self.writeEnd = writeEnd
        self.signals = signals
        self.isInstalled = true
        signalPipeWriteEnd.store(writeEnd, ordering: .sequentiallyConsistent)

        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    handler(Int32(byte))
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(readEnd)
        }
        thread.name = "sesame.signals"
        thread.start()

        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let fd = signalPipeWriteEnd.load(ordering: .sequentiallyConsistent)
                guard fd >= 0 else { return }
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(fd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    deinit {
        for number in signals { signal(number, SIG_DFL) }
        guard writeEnd >= 0 else { return }
        _ = signalPipeWriteEnd.compareExchange(expected: writeEnd, desired: -1, ordering: .sequentiallyConsistent)
        close(writeEnd)  // the reader thread sees end-of-file and exits
    }
}
