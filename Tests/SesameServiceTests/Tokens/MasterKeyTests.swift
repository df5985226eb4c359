import Foundation
import SesameCrypto
import SesameService
import Testing
import WebAuthn

@Suite("Master key")
struct MasterKeyTests {
    static let bytes = (0..<32).map { UInt8($0) }
    static let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    @Test("hex and base64url encodings give the same key")
    func encodings() throws {
        let fromHex = try MasterKey(encoded: Self.hex + "\n")
        let fromBase64 = try MasterKey(encoded: Base64URL.encode(Self.bytes))
        let fromPadded = try MasterKey(encoded: Base64URL.encode(Self.bytes) + "=")
        let sealed = try fromHex.seal([1, 2, 3], associatedData: [9])
        #expect(try fromBase64.open(sealed, associatedData: [9]) == [1, 2, 3])
        #expect(try fromPadded.open(sealed, associatedData: [9]) == [1, 2, 3])
        #expect(try MasterKey(encoded: Self.hex.uppercased()).open(sealed, associatedData: [9]) == [1, 2, 3])
    }

    @Test(
        "bad encodings are refused",
        arguments: [
            "", "00", String(repeating: "g", count: 64), String(repeating: "A", count: 42),
            String(repeating: "+", count: 43), String(repeating: "0", count: 66),
        ])
    func badEncodings(text: String) {
        #expect(throws: MasterKeyError.invalidEncoding) { try MasterKey(encoded: text) }
    }

    @Test("a key is exactly 32 bytes")
    func size() {
        #expect(throws: MasterKeyError.wrongSize(31)) { try MasterKey(bytes: Array(Self.bytes.prefix(31))) }
    }

    @Test("sealed data opens only with the same key and associated data")
    func sealOpen() throws {
        let key = try MasterKey(bytes: Self.bytes)
        let other = try MasterKey(bytes: Self.bytes.map { $0 ^ 0xFF })
        let sealed = try key.seal(Array("secret".utf8), associatedData: Array("tenant\0kid".utf8))
        #expect(try key.open(sealed, associatedData: Array("tenant\0kid".utf8)) == Array("secret".utf8))
        #expect(throws: CryptoError.authenticationFailed) {
            try key.open(sealed, associatedData: Array("tenant\0kie".utf8))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try other.open(sealed, associatedData: Array("tenant\0kid".utf8))
        }
    }

    @Test("the description never shows the key")
    func redacted() throws {
        let key = try MasterKey(bytes: Self.bytes)
        #expect("\(key)" == "MasterKey(redacted)")
    }

    // MARK: File

    @Test("the key file is created 0600 with 32 bytes, then read back")
    func createThenRead() throws {
        let directory = try TokenFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let created = try MasterKey.loadOrCreateFile(in: directory, random: DeterministicRandom(seed: 7))
        let path = directory + "/master.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let contents = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(contents) == (try DeterministicRandom(seed: 7).bytes(count: 32)))
        let sealed = try created.seal([42], associatedData: [])
        let reread = try MasterKey.loadOrCreateFile(in: directory, random: DeterministicRandom(seed: 8))
        #expect(try reread.open(sealed, associatedData: []) == [42])
    }

    @Test("a key file group or others can read is refused", arguments: [0o640, 0o604, 0o660, 0o700])
    func permissions(mode: Int) throws {
        let directory = try TokenFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/master.key"
        _ = try MasterKey.loadOrCreateFile(in: directory)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        if mode & 0o077 == 0 {
            _ = try MasterKey.loadOrCreateFile(in: directory)
        } else {
            #expect(throws: MasterKeyError.insecurePermissions(path: path, mode: "0" + String(mode, radix: 8))) {
                try MasterKey.loadOrCreateFile(in: directory)
            }
        }
    }

    @Test("a key file of the wrong size is refused")
    func wrongFileSize() throws {
        let directory = try TokenFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/master.key"
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data(Self.bytes + [0]), attributes: [.posixPermissions: 0o600]))
        #expect(throws: MasterKeyError.wrongFileSize(path: path, size: 33)) {
            try MasterKey.loadOrCreateFile(in: directory)
        }
    }

    @Test("a symlink or a directory in place of the key file is refused")
    func notARegularFile() throws {
        let directory = try TokenFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/master.key"
        let target = directory + "/elsewhere.key"
        #expect(
            FileManager.default.createFile(
                atPath: target, contents: Data(Self.bytes), attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: MasterKeyError.notARegularFile(path: path)) { try MasterKey.loadOrCreateFile(in: directory) }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: MasterKeyError.notARegularFile(path: path)) { try MasterKey.loadOrCreateFile(in: directory) }
    }

    @Test("SESAME_MASTER_KEY wins over the file, and no file is created")
    func environmentFirst() throws {
        let directory = try TokenFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try MasterKey.load(environment: ["SESAME_MASTER_KEY": Self.hex], dataDirectory: directory)
        #expect(!FileManager.default.fileExists(atPath: directory + "/master.key"))
        let sealed = try MasterKey(bytes: Self.bytes).seal([5], associatedData: [])
        #expect(try key.open(sealed, associatedData: []) == [5])
        #expect(throws: MasterKeyError.invalidEncoding) {
            try MasterKey.load(environment: ["SESAME_MASTER_KEY": "nope"], dataDirectory: directory)
        }
        _ = try MasterKey.load(environment: [:], dataDirectory: directory)
        #expect(FileManager.default.fileExists(atPath: directory + "/master.key"))
    }

    @Test("a missing data directory is an I/O error that names the path")
    func missingDirectory() throws {
        let directory = "/nonexistent-sesame-\(UUID().uuidString)"
        #expect(throws: MasterKeyError.io(path: directory + "/master.key", reason: "No such file or directory")) {
            try MasterKey.loadOrCreateFile(in: directory)
        }
    }
}
