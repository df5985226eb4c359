@preconcurrency import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a closure when the process receives SIGTERM or SIGINT (or other given signals), once per
/// signal delivery, on a background queue. Keep the returned object alive as long as the handlers
/// should stay installed; releasing it restores the default dispositions.
public final class ShutdownSignals: @unchecked Sendable {  // immutable after init; sources are only cancelled
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    /// Installs handlers for `signals` (default SIGTERM and SIGINT) calling `handler` with the signal number.
    public init(signals: [Int32] = [SIGTERM, SIGINT], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "sesame.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)  // so the default action (terminate) does not win over the source
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        self.signals = signals
    }

    deinit {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
