import Foundation
import SesameWire

extension ECPublicKeyJWK {
    /// The JWK of a P-256 public key given as its uncompressed point, `0x04 ‖ x ‖ y` (65 bytes):
    /// what `SecKeyCopyExternalRepresentation` returns for an EC public key (ANSI X9.63).
    public init(uncompressedPoint point: [UInt8]) throws(AuthenticationError) {
        guard point.count == 65, point.first == 0x04 else {
            throw AuthenticationError.deviceKey(
                "a P-256 public key is 65 bytes starting with 0x04, not \(point.count) bytes",
                code: "invalid_public_key")
        }
        self.init(
            x: Base64URL.encode(Data(point[1..<33])), y: Base64URL.encode(Data(point[33..<65])))
    }
}
