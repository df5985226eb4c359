import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file whole, for the SDK's file stores: a temporary file (mode 0600) in the same
/// directory is written, flushed to disk and renamed over the target, and the rename is flushed
/// too. A reader sees the old contents or the new ones, never half. A missing directory is created
/// with mode 0700. Package access: the software providers (SesameSoftwarePasskey) write their files
/// the same way.
package enum AtomicFile {
    /// Why a write failed, naming the file.
    package struct Failure: Error {
        package var message: String
    }

    package static func write(_ data: Data, to path: String) throws(Failure) {
        let file = URL(fileURLWithPath: path)
        let directory = file.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Failure(message: "cannot create directory \(directory): \(error.localizedDescription)")
            }
        }
        let temporary = directory + "/." + file.lastPathComponent + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot create \(temporary): \(errnoText())")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { break }
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write \(temporary): \(errnoText())"
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot flush \(temporary): \(errnoText())" }
        if close(descriptor) != 0, failure == nil { failure = "cannot close \(temporary): \(errnoText())" }
        if failure == nil, rename(temporary, path) != 0 {
            failure = "cannot replace \(path): \(errnoText())"
        }
        if let failure {
            unlink(temporary)
            throw Failure(message: failure)
        }
        // Make the rename durable too.
        let directoryDescriptor = open(directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
