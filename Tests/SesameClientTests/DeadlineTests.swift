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
        do {
            _ = try await Deadline.run(seconds: 0.1) { () async -> Int in
                // Never answers in time and ignores cancellation, like a lost URLSession completion.
                for _ in 0..<20 { try? await Task.sleep(nanoseconds: 100_000_000) }
                return 1
            }
            Issue.record("the deadline did not fire")
        } catch let error as URLError {
            #expect(error.code == .timedOut)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
