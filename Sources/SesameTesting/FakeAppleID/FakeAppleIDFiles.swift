import Foundation
import SesameSoftwareAuthenticator

/// The fake's files: created whole and only once (mode 0600), so two processes starting on the
/// same state directory agree on its keys, and a new .p8 never replaces an existing file.
enum FakeAppleIDFiles {
    /// Writes `bytes` to `path` unless a file is there (`AtomicFile`, hard-linked: atomic, and
    /// refused when `path` exists). Returns false when `path` already existed.
    static func createExclusively(_ bytes: [UInt8], at path: String) throws(FakeAppleIDError) -> Bool {
        do {
            return try AtomicFile.place(bytes, at: path, replacing: false)
        } catch {
            throw FakeAppleIDError(error.message)
        }
    }

    /// The contents of `path`, nil when there is no such file.
    static func read(_ path: String) throws(FakeAppleIDError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FakeAppleIDError("cannot read \(path)")
        }
        return [UInt8](data)
    }
}
