import Dispatch
import Synchronization

/// Where a batching recorder (auth events, the audit log, last-used times) runs the flush that a
/// full buffer asks for, so that the request which filled the buffer does not pay for writing
/// everyone's records. Without one (tests, tools), that request flushes inline.
///
/// Asking again while a flush is queued does nothing: the queued flush takes everything that is
/// waiting when it starts.
public final class BackgroundFlush: Sendable {
    private let queue: DispatchQueue
    private let queued = Atomic<Bool>(false)

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs the flushes on `queue` (tests suspend it to hold every flush back).
    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Queues `work` unless a flush is already queued and not yet started.
    func request(_ work: @escaping @Sendable () -> Void) {
        guard queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        queue.async { [self] in
            queued.store(false, ordering: .releasing)
            work()
        }
    }

    /// Returns once every flush asked for so far has run (tests).
    func drain() { queue.sync {} }

    /// What a recorder does once `waiting` records wait: nothing below `batchSize`; from there
    /// ask `background` to run `flush`; run `inline` (by default `flush`) on the caller's thread
    /// when there is no background, or when it has fallen four batches behind (so memory stays
    /// bounded).
    static func whenFull(
        waiting: Int, batchSize: Int, background: BackgroundFlush?, flush: @escaping @Sendable () -> Void,
        inline: (() -> Void)? = nil
    ) {
        guard waiting >= batchSize else { return }
        if let background, waiting < batchSize * 4 {
            background.request(flush)
        } else {
            (inline ?? flush)()
        }
    }
}

/// How a recorder's flush writes: in transactions of at most `size` records, so that a request's
/// own write waits behind one small transaction rather than behind the whole batch (a batch of
/// 256 auth events and 256 audit entries in one transaction held the writer for about 15 ms).
public enum FlushChunks {
    /// Records per transaction.
    public static let size = 32

    /// Writes `records` a chunk at a time through `write`, in order, and stops at the first chunk
    /// that throws. Returns how many were written and the error, if one stopped it.
    static func write<Element>(
        _ records: [Element], _ write: (ArraySlice<Element>) throws -> Void
    ) -> (written: Int, error: (any Error)?) {
        var written = 0
        for chunk in split(records) {
            do {
                try write(chunk)
            } catch {
                return (written, error)
            }
            written += chunk.count
        }
        return (written, nil)
    }

    /// `records` cut into runs of at most `size`, in order.
    static func split<Element>(_ records: [Element], size: Int = FlushChunks.size) -> [ArraySlice<Element>] {
        stride(from: 0, to: records.count, by: max(1, size)).map {
            records[$0..<min($0 + max(1, size), records.count)]
        }
    }
}
