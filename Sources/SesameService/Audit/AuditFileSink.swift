import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Appends each stored batch of audit entries to a file as JSON lines (one entry per line, with
/// its `tenant_id`). The file is opened `O_APPEND` (mode 0600 when created), so several writers
/// never interleave inside a line, and each batch is `fsync`ed before `ship` returns: a batch is
/// at most one second of entries, so the cost is one sync a second at most. `reopen()` closes
/// and opens the path again, for log rotation (`sesame serve` calls it on SIGHUP).
public final class AuditFileSink: AuditSink {
    public let path: String
    private let descriptor: Mutex<Int32>
    private let failures = Atomic<Int>(0)
    private let lost = Atomic<Int>(0)

    /// Opens (creating) `path` for appending; throws when it cannot.
    public init(path: String) throws {
        self.path = path
        descriptor = Mutex(try Self.open(path))
    }

    deinit {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd) }
        }
    }

    struct OpenFailure: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "cannot open \(path) for appending: \(String(cString: strerror(code)))" }
    }

    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OpenFailure(path: path, code: errno) }
        return fd
    }

    public func ship(_ entries: [AuditEntry]) {
        guard !entries.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += entry.jsonLine()
            bytes.append(0x0A)
        }
        let written = descriptor.withLock { fd -> Bool in
            guard fd >= 0 else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    write(fd, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return fsync(fd) == 0
        }
        if !written {
            failures.add(1, ordering: .relaxed)
            lost.add(entries.count, ordering: .relaxed)
        }
    }

    /// Closes the file and opens `path` again (after a rotation moved it away).
    public func reopen() throws {
        let fresh = try Self.open(path)
        descriptor.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = fresh
        }
    }

    /// Batches that could not be written whole (a full disk, an I/O error).
    public var failedWrites: Int { failures.load(ordering: .relaxed) }

    public var metricsName: String { "file" }
    /// The entries of the batches that could not be written whole (some may be in the file).
    public var droppedEntries: Int { lost.load(ordering: .relaxed) }
}
