import Dispatch
import Foundation
import Testing

@testable import SesameService

@Suite("The password hash gate")
struct PasswordHashGateTests {
    /// Runs `body` in a slot on another thread until `release` is signalled.
    static func hold(_ gate: PasswordHashGate, release: DispatchSemaphore) -> DispatchSemaphore {
        let acquired = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? gate.run {
                acquired.signal()
                release.wait()
            }
            finished.signal()
        }
        acquired.wait()
        return finished
    }

    @Test func withNoRoomToWaitTheExcessIsRefusedAtOnce() throws {
        let gate = PasswordHashGate(maxConcurrent: 1, maxWaiting: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = Self.hold(gate, release: release)
        #expect(gate.inFlight == 1)
        #expect(throws: PasswordHashGate.busy) { try gate.run {} }
        release.signal()
        finished.wait()
        #expect(gate.inFlight == 0)
        #expect(try gate.run { 42 } == 42)
    }

    @Test func aWaiterGetsTheSlotThatFrees() throws {
        let gate = PasswordHashGate(maxConcurrent: 1, maxWaiting: 1, maxWait: 30)
        let release = DispatchSemaphore(value: 0)
        let finished = Self.hold(gate, release: release)
        let waited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? gate.run {}
            waited.signal()
        }
        // Liveness bound only: the waiter is queued within moments.
        var queued = false
        for _ in 0..<1_000 where !queued {
            queued = gate.queued == 1
            if !queued { usleep(1_000) }
        }
        #expect(queued)
        // A second waiter finds the queue full.
        #expect(throws: PasswordHashGate.busy) { try gate.run {} }
        release.signal()
        finished.wait()
        waited.wait()
        #expect(gate.inFlight == 0 && gate.queued == 0)
    }

    @Test func aWaiterGivesUpAfterMaxWait() throws {
        let gate = PasswordHashGate(maxConcurrent: 1, maxWaiting: 4, maxWait: 0.05)
        let release = DispatchSemaphore(value: 0)
        let finished = Self.hold(gate, release: release)
        #expect(throws: PasswordHashGate.busy) { try gate.run {} }
        release.signal()
        finished.wait()
    }
}
