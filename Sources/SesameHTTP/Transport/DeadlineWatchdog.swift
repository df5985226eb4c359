import Dispatch
import Foundation

/// A thread that, four times a second, shuts down the connections whose request is overdue
/// (`ConnectionTable.reapOverdue`) and logs each (its address, nothing of the request).
final class DeadlineWatchdog: Sendable {
    /// How often the table is checked.
    static let interval: DispatchTimeInterval = .milliseconds(250)

    private let stopRequested = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(core: ServerCore) {
        let stopRequested = self.stopRequested
        let finished = self.finished
        let thread = Thread {
            while stopRequested.wait(timeout: .now() + Self.interval) == .timedOut {
                core.connections.reapOverdue { address in
                    core.responder.log.log(
                        .warn, "request deadline passed; connection closed", fields: [("client_ip", address)])
                }
            }
            finished.signal()
        }
        thread.name = "sesame-request-deadlines"
        thread.start()
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        stopRequested.signal()
        finished.wait()
    }
}
