import SesameCrypto
import WebAuthn

/// The origin a client reports in `clientDataJSON.origin`: a web origin, the `https://<rpId>` that
/// iOS and macOS apps report, or the `android:apk-key-hash:…` that Android apps report.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// The exact string written into clientDataJSON.
    public let value: String

    /// An origin written exactly as given.
    public init(_ value: String) {
        self.value = value
    }

    /// The origin string.
    public var description: String { value }

    /// A web origin such as "https://login.example.com" (scheme, host and non-default port, no path).
    public static func web(_ origin: String) -> Origin {
        Origin(origin)
    }

    /// What an Apple app using AuthenticationServices reports: "https://<rpId>".
    public static func iOSApp(rpID: String) -> Origin {
        Origin("https://\(rpID)")
    }

    /// What an Android app using Credential Manager reports:
    /// "android:apk-key-hash:<base64url of the SHA-256 of the APK signing certificate>".
    public static func androidApp(signingCertificateSHA256: [UInt8]) -> Origin {
        Origin("android:apk-key-hash:\(Base64URL.encode(signingCertificateSHA256))")
    }

    /// The Android origin for a signing certificate given as DER (its SHA-256 is taken here).
    public static func androidApp(signingCertificateDER: [UInt8]) -> Origin {
        androidApp(signingCertificateSHA256: Digest.sha256(signingCertificateDER))
    }

    /// The Android origin for a fingerprint as `assetlinks.json` and `keytool` write it:
    /// 32 hex bytes separated by colons ("AB:CD:…"), either case.
    public static func androidApp(sha256CertFingerprint: String) throws(AuthenticatorError) -> Origin {
        let parts = sha256CertFingerprint.split(separator: ":", omittingEmptySubsequences: false)
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else {
                throw AuthenticatorError(
                    .invalidOptions, "SHA-256 certificate fingerprint must be 32 colon-separated hex bytes")
            }
            bytes.append(byte)
        }
        guard bytes.count == 32 else {
            throw AuthenticatorError(
                .invalidOptions, "SHA-256 certificate fingerprint has \(bytes.count) bytes, expected 32")
        }
        return androidApp(signingCertificateSHA256: bytes)
    }
}
