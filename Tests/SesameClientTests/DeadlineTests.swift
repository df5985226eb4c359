import Foundation
import Testing

@testable import SesameClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Transport deadline")
struct DeadlineTests {
    @Test func aResultBeforeTheDeadlineIsReturned() async throws {
        let value = try await Deadline.run(seconds: 30) { 42 }
        #expect(value == 42)
    }

    @Test func anErrorBeforeTheDeadlineIsThrown() async {
        await #expect(throws: URLError.self) {
            _ = try await Deadline.run(seconds: 30) { () async throws -> Int in throw URLError(.cannotConnectToHost) }
        }
    }

    @Test func anOperationThatIgnoresCancellationStillEndsAtTheDeadline() async {
        let deadline = OneShotGate()
        let answer = OneShotGate()
        let timer: @Sendable (TimeInterval) async -> Void = { _ in await deadline.wait() }
        Task { await deadline.open() }
        do {
            _ = try await Deadline.run(seconds: 30, timer: timer) { () async -> Int in
                // Never answers before the deadline and ignores cancellation, like a lost
                // URLSession completion: only the deadline can end the call.
                await answer.wait()
                return 1
            }
            Issue.record("the deadline did not fire")
        } catch let error as URLError {
            #expect(error.code == .timedOut)
        } catch {
            Issue.record("unexpected \(error)")
        }
        await answer.open()
    }

    @Test func theOperationWinsWhenItAnswersFirst() async throws {
        let deadline = OneShotGate()
        let value = try await Deadline.run(seconds: 30, timer: { _ in await deadline.wait() }) { 7 }
        #expect(value == 7)
        await deadline.open()  // the deadline firing afterwards changes nothing
    }
}

/// A gate tasks wait on until it is opened once (no clock involved).
actor OneShotGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
