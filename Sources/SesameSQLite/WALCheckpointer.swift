import CSQLite
import Dispatch
import Synchronization

/// Moves the WAL checkpoint off the writer.
///
/// SQLite's own auto-checkpoint runs inside the commit that takes the WAL past 1,000 pages. That
/// commit then copies the WAL into the database and syncs the file while it holds the writer lock,
/// and on a virtual disk the sync alone takes tens of milliseconds. Every request that writes waits
/// behind it, and with one server thread every request waits.
///
/// The writer connection reports each commit's WAL size here (`sqlite3_wal_hook`, which also turns
/// SQLite's auto-checkpoint off). At `threshold` pages, one passive checkpoint is queued on a
/// connection and thread of its own. A passive checkpoint takes no lock that a writer or reader
/// waits for: it copies what no reader still needs, and the next writer starts the WAL again from
/// its beginning. If the background falls behind (a reader that holds an old snapshot, a stuck
/// disk), the writer checkpoints inline again at `backstop` pages, so the WAL stays bounded.
final class WALCheckpointer: Sendable {
    /// SQLite's own auto-checkpoint size, in pages.
    static let defaultThreshold: Int32 = 1_000
    /// The inline checkpoint's size, as a multiple of the threshold.
    static let backstopFactor: Int32 = 16

    let threshold: Int32
    let backstop: Int32
    private let connection: SQLiteConnection
    private let queue: DispatchQueue
    private let queued = Atomic<Bool>(false)
    private let backgroundRuns = Atomic<Int>(0)
    private let inlineRuns = Atomic<Int>(0)

    /// `connection` is the checkpointer's own (never the writer's); `threshold` is in pages.
    init(connection: SQLiteConnection, threshold: Int32 = defaultThreshold) throws {
        // A connection opens the WAL only when it first reads the database; until then its
        // checkpoint does nothing.
        _ = try connection.query("SELECT count(*) FROM sqlite_schema") { $0.integer(0) }
        self.connection = connection
        self.threshold = max(threshold, 1)
        self.backstop = self.threshold * Self.backstopFactor
        queue = DispatchQueue(label: "sesame.sqlite.checkpoint", qos: .utility)
    }

    /// Called by the writer after each commit, with the WAL's size in pages; `writer` is the
    /// connection that committed. Returns an SQLite result code (the hook's contract).
    func committed(pages: Int32, writer: SQLiteConnection) -> Int32 {
        if pages >= backstop {
            inlineRuns.add(1, ordering: .relaxed)
            // SQLITE_BUSY only means a checkpoint is already running; the commit stands either way.
            _ = writer.checkpointPassive()
            return SQLITE_OK
        }
        if pages >= threshold, !queued.exchange(true, ordering: .acquiringAndReleasing) {
            queue.async { [self] in
                queued.store(false, ordering: .releasing)
                backgroundRuns.add(1, ordering: .relaxed)
                _ = connection.checkpointPassive()
            }
        }
        return SQLITE_OK
    }

    // MARK: For tests

    /// Checkpoints run on the background thread and inline, so far.
    var runs: (background: Int, inline: Int) {
        (backgroundRuns.load(ordering: .relaxed), inlineRuns.load(ordering: .relaxed))
    }

    /// Returns once every checkpoint queued so far has run.
    func drain() { queue.sync {} }

    /// Holds back the background thread until `resume()` (a checkpointer that falls behind).
    func suspend() { queue.suspend() }
    func resume() { queue.resume() }
}
