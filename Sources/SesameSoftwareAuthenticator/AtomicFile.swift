import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file whole: write a temporary file (mode 0600) in the same directory, fsync it,
/// rename it over the target, fsync the directory. Readers see the old contents or the new.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(AuthenticatorError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw failure("cannot create directory \(directory): \(error.localizedDescription)")
        }
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary): \(lastError())") }
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
        if failed == nil, rename(temporary, path) != 0 { failed = "cannot rename onto \(path): \(lastError())" }
        if let failed {
            unlink(temporary)
            throw failure(failed)
        }
        // Make the rename itself durable; a failure here leaves a complete file, so it is ignored.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
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

    private static func failure(_ message: String) -> AuthenticatorError {
        AuthenticatorError(.storeIO, message)
    }
}
