import Foundation
import SesameClient
import SesameCrypto
import SesameSoftwarePasskey
import SesameWire
import Testing

@Suite("SoftwareDeviceKeyProvider")
struct SoftwareDeviceKeyProviderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-dk-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("keys/device-keys.json").path }
    let message = DeviceKeySignedBytes.message(
        purpose: .reauth, challenge: Array(repeating: 7, count: 32), clientIDDigest: Digest.sha256(Array("c".utf8)),
        keyID: Array(repeating: 9, count: 16))

    /// The SesameCrypto key for a device key's JWK.
    func publicKey(_ key: DeviceKey) throws -> PublicKey {
        try PublicKey(jwk: JWK(kty: key.publicKey.kty, crv: key.publicKey.crv, x: key.publicKey.x, y: key.publicKey.y))
    }

    @Test(arguments: [ECDSASignatureFormat.der, .raw])
    func signaturesVerifyWithTheExportedPublicKey(format: ECDSASignatureFormat) async throws {
        let provider = SoftwareDeviceKeyProvider(signatureFormat: format)
        let key = try await provider.createKey()
        #expect(key.publicKey.kty == "EC")
        #expect(key.publicKey.crv == "P-256")
        let signature = try await provider.sign(message, handle: key.handle)
        if format == .raw { #expect(signature.count == 64) } else { #expect(signature.first == 0x30) }
        let verifier = try publicKey(key)
        #expect(try verifier.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256), format: format))
        var other = message
        other[other.count - 1] ^= 1
        #expect(try !verifier.isValidSignature(signature, for: other, algorithm: .ecdsa(.sha256), format: format))
    }

    @Test func eachKeyIsItsOwnAndDeletedKeysAreGone() async throws {
        let provider = SoftwareDeviceKeyProvider()
        let first = try await provider.createKey()
        let second = try await provider.createKey()
        #expect(first.handle != second.handle)
        #expect(first.publicKey != second.publicKey)
        #expect(try provider.handles() == [first.handle, second.handle].sorted())
        let signature = try await provider.sign(message, handle: second.handle)
        #expect(try !publicKey(first).isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256)))

        try await provider.deleteKey(handle: first.handle)
        try await provider.deleteKey(handle: first.handle)  // deleting nothing is fine
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await provider.sign(message, handle: first.handle)
        }
        #expect(error?.kind == .deviceKey)
        #expect(error?.code == "device_key_not_found")
        #expect(try provider.handles() == [second.handle])
    }

    @Test func keysSurviveReopeningTheFileWhichIsPrivate() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try await SoftwareDeviceKeyProvider(path: path).createKey()
        let reopened = SoftwareDeviceKeyProvider(path: path)
        let signature = try await reopened.sign(message, handle: key.handle)
        #expect(try publicKey(key).isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256)))

        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = directory.appendingPathComponent("keys").path
        #expect(
            (try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber)?.intValue
                == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["device-keys.json"])

        try await reopened.deleteKey(handle: key.handle)
        #expect(try SoftwareDeviceKeyProvider(path: path).handles().isEmpty)
    }

    @Test func aCorruptFileIsAnErrorAndIsLeftAsItIs() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await SoftwareDeviceKeyProvider(path: path).createKey()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast(10)
        try bytes.write(to: URL(fileURLWithPath: path))
        let provider = SoftwareDeviceKeyProvider(path: path)
        let error = await #expect(throws: AuthenticationError.self) { _ = try await provider.createKey() }
        #expect(error?.code == "corrupt_store")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aFileWithAForeignKeyIsCorrupt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let p384 = try PrivateKey.generate(.ec(.p384))
        let text =
            #"{"format":"sesame-device-keys","version":1,"keys":[{"handle":"h","pkcs8":"\#(Data(p384.pkcs8DER).base64EncodedString())"}]}"#
        try FileManager.default.createDirectory(
            atPath: directory.appendingPathComponent("keys").path, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await SoftwareDeviceKeyProvider(path: path).sign(message, handle: "h")
        }
        #expect(error?.code == "corrupt_store")
    }

    @Test func aPublicKeyFromItsUncompressedPointIsTheSameJWK() throws {
        let key = try PrivateKey.generate(.ec(.p256))
        guard case .ec(_, let x, let y) = key.publicKey.components else {
            Issue.record("not an EC key")
            return
        }
        let jwk = try ECPublicKeyJWK(uncompressedPoint: [0x04] + x + y)
        #expect(jwk.x == key.publicKey.jwk.x)
        #expect(jwk.y == key.publicKey.jwk.y)
        #expect(jwk.kty == "EC" && jwk.crv == "P-256")
        for bad in [[0x04] + x, [0x02] + x + y, [], [0x04] + x + y + [0]] {
            let error = #expect(throws: AuthenticationError.self) { _ = try ECPublicKeyJWK(uncompressedPoint: bad) }
            #expect(error?.code == "invalid_public_key")
        }
    }
}
