import Dispatch
import Testing

@testable import SesameHTTP

#if canImport(Glibc)
    import Glibc
#endif

@Suite("ShutdownSignals")
struct ShutdownSignalsTests {
    @Test func deliversTheSignalToTheClosure() throws {
        let received = DispatchSemaphore(value: 0)
        let signals = ShutdownSignals(signals: [SIGUSR2]) { number in
            if number == SIGUSR2 { received.signal() }
        }
        #expect(signals.isInstalled)
        kill(getpid(), SIGUSR2)
        #expect(received.wait(timeout: .now() + 10) == .success)
        withExtendedLifetime(signals) {}
    }
}
