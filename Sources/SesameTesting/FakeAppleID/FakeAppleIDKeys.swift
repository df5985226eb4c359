import Foundation
import SesameCrypto
import SesameService
import WebAuthn

/// The fake Apple ID service's keys: two published RS256 signing keys (Apple publishes several and
/// a verifier must pick by `kid`), one RS256 key it never publishes (for tokens that must fail
/// verification), and a P-256 key that seals its own authorization codes and refresh tokens.
///
/// Kept in `<state directory>/fake-apple-keys.json` (mode 0600) so a restarted fake, and the
/// command line minting codes for it, use the same keys.
public final class FakeAppleIDKeys: Sendable {
    /// One private key and the `kid` tokens signed with it name.
    public struct SigningKey: Sendable {
        /// The JWK `kid`.
        public let keyID: String
        /// The private key.
        public let privateKey: PrivateKey
    }

    /// The file inside a state directory that holds the keys.
    public static let stateFileName = "fake-apple-keys.json"

    /// The keys `GET /auth/keys` publishes (RSA-2048, RS256), in order.
    public let published: [SigningKey]
    /// An RSA-2048 key the key set does not list.
    public let unpublished: SigningKey
    /// The P-256 key authorization codes and refresh tokens are signed with (ES256); never published.
    let sealing: SigningKey

    private init(published: [SigningKey], unpublished: SigningKey, sealing: SigningKey) {
        self.published = published
        self.unpublished = unpublished
        self.sealing = sealing
    }

    /// Fresh keys, kept in memory only.
    public static func generate(random: any RandomSource = SystemRandom()) throws -> FakeAppleIDKeys {
        var keyIDs: Set<String> = []
        func fresh(_ type: KeyType) throws -> SigningKey {
            var keyID = ""
            repeat {
                keyID = Base64URL.encode(try random.bytes(count: 6))
            } while !keyIDs.insert(keyID).inserted
            return SigningKey(keyID: keyID, privateKey: try PrivateKey.generate(type))
        }
        return FakeAppleIDKeys(
            published: [try fresh(.rsa(bits: 2048)), try fresh(.rsa(bits: 2048))],
            unpublished: try fresh(.rsa(bits: 2048)), sealing: try fresh(.ec(.p256)))
    }

    /// The keys in `directory`, generated and written there first when it has none. Two processes
    /// racing on an empty directory end up with the same keys (the first file written wins).
    public static func loadOrCreate(stateDirectory directory: String) throws -> FakeAppleIDKeys {
        let path = (directory as NSString).appendingPathComponent(stateFileName)
        if let bytes = try FakeAppleIDFiles.read(path) { return try decode(bytes, path: path) }
        let keys = try generate()
        if try FakeAppleIDFiles.createExclusively(try keys.encoded(), at: path) { return keys }
        guard let bytes = try FakeAppleIDFiles.read(path) else { throw FakeAppleIDError("\(path) vanished") }
        return try decode(bytes, path: path)
    }

    /// The JWK Set `GET /auth/keys` serves: `kty`, `kid`, `use` "sig", `alg` "RS256", `n`, `e`.
    public var keySet: JWKSet {
        JWKSet(
            keys: published.map { key in
                var jwk = key.privateKey.publicKey.jwk
                jwk.kid = key.keyID
                jwk.use = "sig"
                jwk.alg = "RS256"
                return jwk
            })
    }

    /// The `kid`s of the published keys, in order.
    public var keyIDs: [String] { published.map(\.keyID) }

    /// The state file's contents: version 1, every key as a private JWK carrying its `kid`.
    private struct StateFile: Codable {
        var version: Int
        var published: [JWK]
        var unpublished: JWK
        var sealing: JWK
    }

    private func encoded() throws -> [UInt8] {
        func jwk(_ key: SigningKey) throws -> JWK {
            var jwk = try key.privateKey.privateJWK()
            jwk.kid = key.keyID
            return jwk
        }
        let file = StateFile(
            version: 1, published: try published.map(jwk), unpublished: try jwk(unpublished), sealing: try jwk(sealing))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return [UInt8](try encoder.encode(file)) + [UInt8(ascii: "\n")]
    }

    private static func decode(_ bytes: [UInt8], path: String) throws -> FakeAppleIDKeys {
        let file: StateFile
        do {
            file = try JSONDecoder().decode(StateFile.self, from: Data(bytes))
        } catch {
            throw FakeAppleIDError("\(path) is not a fake Apple ID key file")
        }
        guard file.version == 1 else { throw FakeAppleIDError("\(path) has version \(file.version), not 1") }
        func key(_ jwk: JWK, _ role: String, rsa: Bool) throws -> SigningKey {
            guard let keyID = jwk.kid, !keyID.isEmpty else {
                throw FakeAppleIDError("\(path): the \(role) key has no kid")
            }
            let privateKey: PrivateKey
            do {
                privateKey = try PrivateKey(jwk: jwk)
            } catch {
                throw FakeAppleIDError("\(path): the \(role) key does not load (\(error))")
            }
            switch privateKey.type {
            case .rsa(let bits) where rsa && bits >= 2048: break
            case .ec(.p256) where !rsa: break
            default: throw FakeAppleIDError("\(path): the \(role) key is of the wrong type")
            }
            return SigningKey(keyID: keyID, privateKey: privateKey)
        }
        let published = try file.published.map { try key($0, "published", rsa: true) }
        guard published.count == 2, Set(published.map(\.keyID)).count == 2 else {
            throw FakeAppleIDError("\(path) must hold two published keys with distinct kids")
        }
        return FakeAppleIDKeys(
            published: published, unpublished: try key(file.unpublished, "unpublished", rsa: true),
            sealing: try key(file.sealing, "sealing", rsa: false))
    }
}
