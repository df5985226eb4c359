import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts a file in place whole: a temporary file (mode 0600) in the same directory is written and
/// fsynced, then renamed over the target or hard-linked to it, and the directory is fsynced.
/// Readers see the old contents or the new. Package access: the fake Apple ID service
/// (SesameTesting) creates its files the same way.
package enum AtomicFile {
    /// Why a file could not be put in place, naming the file.
    package struct Failure: Error {
        package let message: String
    }

    /// Replaces the file at `path` whole.
    static func write(_ bytes: [UInt8], to path: String) throws(AuthenticatorError) {
        do {
            _ = try place(bytes, at: path, replacing: true)
        } catch {
            throw AuthenticatorError(.storeIO, error.message)
        }
    }

    /// Writes `bytes` to a temporary file in `path`'s directory (created, mode 0700, when missing)
    /// and puts it at `path`: renamed over whatever is there when `replacing`, else hard-linked,
    /// which is refused when `path` exists. Returns false when it was refused so.
    package static func place(_ bytes: [UInt8], at path: String, replacing: Bool) throws(Failure) -> Bool {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(message: "cannot create directory \(directory): \(error.localizedDescription)")
        }
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(message: "cannot create \(temporary): \(lastError())") }
        // Once renamed, the temporary name is gone; once linked, the file keeps its other name.
        defer { unlink(temporary) }
        var written = 0
        var failed: String?
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(descriptor, base + written, buffer.count - written)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                failed = "cannot write \(temporary): \(lastError())"
                break
            }
            written += result
        }
        if failed == nil, fchmod(descriptor, 0o600) != 0 { failed = "cannot chmod \(temporary): \(lastError())" }
        if failed == nil, fsync(descriptor) != 0 { failed = "cannot fsync \(temporary): \(lastError())" }
        if close(descriptor) != 0, failed == nil { failed = "cannot close \(temporary): \(lastError())" }
        if let failed { throw Failure(message: failed) }
        if replacing {
            guard rename(temporary, path) == 0 else {
                throw Failure(message: "cannot rename onto \(path): \(lastError())")
            }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { return false }
                throw Failure(message: "cannot create \(path): \(lastError())")
            }
        }
        // Make the new name itself durable; a failure here leaves a complete file, so it is ignored.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return true
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(descriptor, bytes, count)
        #else
            return Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
