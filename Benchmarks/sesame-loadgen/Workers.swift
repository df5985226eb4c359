import Foundation
import Synchronization

/// Runs `count` worker threads (real threads: they block on sockets, so GCD's core-sized pool
/// would not keep the server busy) and returns what each returned, in worker order.
enum Workers {
    static func run<Result: Sendable>(
        count: Int, _ body: @escaping @Sendable (_ worker: Int) throws -> Result
    ) throws -> [Result] {
        let results = Mutex<[Int: Swift.Result<Result, any Error>]>([:])
        let done = DispatchSemaphore(value: 0)
        for worker in 0..<count {
            let thread = Thread {
                let outcome = Swift.Result { try body(worker) }
                results.withLock { $0[worker] = outcome }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<count { done.wait() }
        let collected = results.withLock { $0 }
        var ordered: [Result] = []
        for worker in 0..<count {
            guard let outcome = collected[worker] else { throw LoadError("worker \(worker) returned nothing") }
            ordered.append(try outcome.get())
        }
        return ordered
    }
}
