internal import CSQLite
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Moves the WAL checkpoint off the writer.
///
/// SQLite's own auto-checkpoint runs inside the commit that takes the WAL past 1,000 pages. That
/// commit then copies the WAL into the database and syncs the file while it holds the writer lock,
/// and on a virtual disk the sync alone takes tens of milliseconds. Every request that writes waits
/// behind it, and with one server thread every request waits.
///
/// The writer connection reports each commit's WAL size here (`sqlite3_wal_hook`, which also turns
/// SQLite's auto-checkpoint off). At `threshold` pages, a thread of its own runs one passive
/// checkpoint on a connection of its own. A passive checkpoint takes no lock that a writer or
/// reader waits for: it copies what no reader still needs, and the next writer starts the WAL
/// again from its beginning. The thread runs at a lower CPU priority (nice 10), so on a busy core
/// the requests come first and the copy fills the gaps. If it falls behind anyway (a reader that
/// holds an old snapshot, a stuck disk, a saturated core), the writer checkpoints inline again at
/// `backstop` pages, so the WAL stays bounded.
final class WALCheckpointer: @unchecked Sendable {
    /// SQLite's own auto-checkpoint size, in pages.
    static let defaultThreshold: Int32 = 1_000
    /// Past the threshold, a checkpoint is asked for again every threshold / retryDivisor pages.
    static let retryDivisor: Int32 = 8
    /// The inline checkpoint's size, as a multiple of the threshold.
    static let backstopFactor: Int32 = 16
    /// The thread's nice value (0 is the requests'; 19 the lowest).
    static let niceness: Int32 = 10

    let threshold: Int32
    let backstop: Int32
    /// Past the threshold, the pages of growth after which a checkpoint is asked for again.
    let retry: Int32
    private let connection: SQLiteConnection
    /// Set by the writer when it asks for a checkpoint, cleared when one starts (the writer's
    /// lock-free check, so commits past the threshold do not each take `condition`).
    private let queued = Atomic<Bool>(false)
    /// The WAL's size when the writer last asked for a checkpoint (0 after the WAL starts again),
    /// and at its last commit. Only the writer sets them, under its lock.
    private let requestedAt = Atomic<Int32>(0)
    private let lastPages = Atomic<Int32>(0)
    private let backgroundRuns = Atomic<Int>(0)
    private let inlineRuns = Atomic<Int>(0)
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The thread's nice value as the kernel reports it (tests).
    private let niceness = Atomic<Int32>(0)
    /// Guards the fields below it.
    private let condition = NSCondition()
    private var requested = false
    private var running = false
    private var stopping = false
    private var suspended = false

    /// `connection` is the checkpointer's own (never the writer's); `threshold` is in pages.
    /// Starts the thread; `stop()` ends it.
    init(connection: SQLiteConnection, threshold: Int32 = defaultThreshold) throws {
        // A connection opens the WAL only when it first reads the database; until then its
        // checkpoint does nothing.
        _ = try connection.query("SELECT count(*) FROM sqlite_schema") { $0.integer(0) }
        self.connection = connection
        self.threshold = max(threshold, 1)
        self.backstop = self.threshold * Self.backstopFactor
        self.retry = max(self.threshold / Self.retryDivisor, 1)
        Thread { [self] in run() }.start()
        started.wait()
    }

    /// Called by the writer after each commit, with the WAL's size in pages; `writer` is the
    /// connection that committed. Returns an SQLite result code (the hook's contract).
    func committed(pages: Int32, writer: SQLiteConnection) -> Int32 {
        // A smaller WAL than the last commit's means the writer started it again from its beginning.
        if pages < lastPages.load(ordering: .relaxed) { requestedAt.store(0, ordering: .relaxed) }
        lastPages.store(pages, ordering: .relaxed)
        if pages >= backstop {
            inlineRuns.add(1, ordering: .relaxed)
            // SQLITE_BUSY only means a checkpoint is already running; the commit stands either way.
            writer.checkpointPassive()
            return SQLITE_OK
        }
        // At `threshold` pages, then every `retry` pages more until the WAL starts again. A
        // checkpoint copies the frames the WAL holds when it starts; under steady writes more
        // arrive while it runs, and the WAL starts again only once a writer finds it copied whole.
        // Asking at every commit past the threshold would sync the database file every commit or
        // two. In the last threshold before the backstop it does ask at every commit, so that what
        // the inline checkpoint there must still copy, and sync inside a commit, stays small.
        let last = requestedAt.load(ordering: .relaxed)
        let due = last == 0 ? threshold : (pages >= backstop - threshold ? last : last + retry)
        if pages >= due, !queued.exchange(true, ordering: .acquiringAndReleasing) {
            requestedAt.store(pages, ordering: .relaxed)
            condition.lock()
            requested = true
            condition.broadcast()
            condition.unlock()
        }
        return SQLITE_OK
    }

    /// Ends the thread (a checkpoint asked for and not begun is dropped: closing the last
    /// connection checkpoints) and waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        // On Linux the nice value belongs to the thread, and `who` 0 names the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
        niceness.store(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), ordering: .relaxed)
        started.signal()
        condition.lock()
        while true {
            while !stopping, !requested || suspended { condition.wait() }
            if stopping { break }
            requested = false
            running = true
            queued.store(false, ordering: .releasing)
            condition.unlock()
            backgroundRuns.add(1, ordering: .relaxed)
            connection.checkpointPassive()
            condition.lock()
            running = false
            condition.broadcast()
        }
        condition.unlock()
        finished.signal()
    }

    // MARK: For tests

    /// Checkpoints run on the background thread and inline, so far.
    var runs: (background: Int, inline: Int) {
        (backgroundRuns.load(ordering: .relaxed), inlineRuns.load(ordering: .relaxed))
    }

    /// The WAL's size in pages at the last commit.
    var walPages: Int32 { lastPages.load(ordering: .relaxed) }

    /// The background thread's nice value, read back from the kernel.
    var threadNiceness: Int32 { niceness.load(ordering: .relaxed) }

    /// Returns once every checkpoint asked for so far has run (not while suspended).
    func drain() {
        condition.lock()
        while (requested && !suspended) || running { condition.wait() }
        condition.unlock()
    }

    /// Holds back the background thread until `resume()` (a checkpointer that falls behind).
    func suspend() {
        condition.lock()
        suspended = true
        condition.unlock()
    }

    func resume() {
        condition.lock()
        suspended = false
        condition.broadcast()
        condition.unlock()
    }
}
