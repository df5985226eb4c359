import Foundation
import SesameWire

/// One of the signed-in user's passkeys, as the My Account API lists it.
public struct PasskeyAuthenticationMethod: Sendable, Equatable {
    /// The method id (`passkey|…`), for rename and delete.
    public let id: String
    /// The user-visible name.
    public let name: String
    /// When the passkey was registered.
    public let createdAt: Date?
    /// When it last signed the user in; nil if never.
    public let lastAuthAt: Date?
    /// The credential id, base64url.
    public let keyID: String
    /// The authenticator model (AAGUID, 8-4-4-4-12 hex).
    public let aaguid: String?
    /// `multi_device` (synced) or `single_device`.
    public let credentialDeviceType: String?
    /// Whether the passkey is currently backed up.
    public let credentialBackedUp: Bool
    /// The transports the authenticator reported.
    public let transports: [String]
    /// The user's WebAuthn user handle, base64url.
    public let userHandle: String?

    /// A method from its parts.
    public init(
        id: String, name: String, createdAt: Date?, lastAuthAt: Date?, keyID: String, aaguid: String?,
        credentialDeviceType: String?, credentialBackedUp: Bool, transports: [String], userHandle: String?
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastAuthAt = lastAuthAt
        self.keyID = keyID
        self.aaguid = aaguid
        self.credentialDeviceType = credentialDeviceType
        self.credentialBackedUp = credentialBackedUp
        self.transports = transports
        self.userHandle = userHandle
    }

    /// A method from its wire form; timestamps must be ISO 8601 (with or without fractional seconds).
    public init(_ wire: AuthenticationMethodResponse) throws(AuthenticationError) {
        self.init(
            id: wire.id, name: wire.name ?? "", createdAt: try Self.date(wire.createdAt, "created_at"),
            lastAuthAt: try Self.date(wire.lastAuthAt, "last_auth_at"), keyID: wire.keyId ?? "", aaguid: wire.aaguid,
            credentialDeviceType: wire.credentialDeviceType, credentialBackedUp: wire.credentialBackedUp ?? false,
            transports: wire.transports ?? [], userHandle: wire.userHandle)
    }

    private static func date(_ text: String?, _ field: String) throws(AuthenticationError) -> Date? {
        guard let text else { return nil }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        throw AuthenticationError.invalidResponse("\(field) \"\(text)\" is not an ISO 8601 timestamp")
    }
}
