import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fake's files: created whole and only once (mode 0600), so two processes starting on the
/// same state directory agree on its keys, and a new .p8 never replaces an existing file.
enum FakeAppleIDFiles {
    /// Writes `bytes` to `path` unless a file is there: a temporary file in the same directory is
    /// written, fsynced and hard-linked to `path` (atomic, and refused when `path` exists).
    /// Returns false when `path` already existed.
    static func createExclusively(_ bytes: [UInt8], at path: String) throws(FakeAppleIDError) -> Bool {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FakeAppleIDError("cannot create the directory \(directory): \(error.localizedDescription)")
        }
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FakeAppleIDError("cannot create \(temporary): \(lastError())") }
        defer { unlink(temporary) }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                failure = "cannot write \(temporary): \(lastError())"
                break
            }
            written += result
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot fsync \(temporary): \(lastError())" }
        if close(descriptor) != 0, failure == nil { failure = "cannot close \(temporary): \(lastError())" }
        if let failure { throw FakeAppleIDError(failure) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw FakeAppleIDError("cannot create \(path): \(lastError())")
        }
        return true
    }

    /// The contents of `path`, nil when there is no such file.
    static func read(_ path: String) throws(FakeAppleIDError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FakeAppleIDError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
