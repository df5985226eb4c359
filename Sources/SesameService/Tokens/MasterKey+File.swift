import Foundation
import SesameCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension MasterKey {
    /// The environment variable that holds the master key (hex or base64url).
    public static let environmentVariable = "SESAME_MASTER_KEY"
    /// The key file's name inside the data directory.
    public static let fileName = "master.key"

    /// The master key from `SESAME_MASTER_KEY` when set, else from `<dataDirectory>/master.key`
    /// (created with mode 0600 and fresh random bytes on first use).
    public static func load(
        environment: [String: String], dataDirectory: String, random: any RandomSource = SystemRandom()
    ) throws -> MasterKey {
        if let text = environment[environmentVariable] {
            return try MasterKey(encoded: text)
        }
        return try loadOrCreateFile(in: dataDirectory, random: random)
    }

    /// Reads `<directory>/master.key`, or creates it (0600, exclusive create, fsynced) when absent.
    /// Refuses a file that group or others may access, that is not a regular file (symlinks are not
    /// followed), or that does not hold exactly 32 bytes.
    public static func loadOrCreateFile(in directory: String, random: any RandomSource = SystemRandom()) throws
        -> MasterKey
    {
        let path = (directory as NSString).appendingPathComponent(fileName)
        if let key = try readFile(path) { return key }
        let key = try random.bytes(count: size)
        let created = try createFile(path, bytes: key)
        if created { return try MasterKey(bytes: key) }
        // Another process created it between our read and our create: use theirs.
        guard let existing = try readFile(path) else { throw MasterKeyError.io(path: path, reason: "vanished") }
        return existing
    }

    /// The key in `path`, nil if the file does not exist.
    static func readFile(_ path: String) throws(MasterKeyError) -> MasterKey? {
        let descriptor = openFile(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw .notARegularFile(path: path) }
            throw .io(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        let permissions = info.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw .insecurePermissions(path: path, mode: "0" + String(permissions, radix: 8))
        }
        guard info.st_size == off_t(size) else { throw .wrongFileSize(path: path, size: Int(info.st_size)) }
        var buffer = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return read(descriptor, base + filled, raw.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        guard filled == size else { throw .wrongFileSize(path: path, size: filled) }
        return try MasterKey(bytes: Array(buffer.prefix(size)))
    }

    /// Writes `bytes` to a new file at `path` with mode 0600; false if the file already exists.
    private static func createFile(_ path: String, bytes: [UInt8]) throws(MasterKeyError) -> Bool {
        let descriptor = openFile(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            let code = errno
            if code == EEXIST { return false }
            throw .io(path: path, reason: String(cString: strerror(code)))
        }
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let put = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return write(descriptor, base + written, raw.count - written)
            }
            if put < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += put
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(path)
            throw .io(path: path, reason: String(cString: strerror(failure)))
        }
        return true
    }

    /// open(2); named apart because `MasterKey.open` (AEAD) shadows the C function here.
    private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
            return Glibc.open(path, flags, mode)
        #else
            return Darwin.open(path, flags, mode)
        #endif
    }
}
