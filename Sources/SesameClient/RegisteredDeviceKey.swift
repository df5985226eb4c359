import SesameWire

/// A device key the server accepted for the signed-in user: the server's key id and the local
/// handle of the key that goes with it. The app keeps it with the user's other settings (neither
/// value is a secret; the private key stays with the provider) and hands it to re-authentication.
public struct RegisteredDeviceKey: Sendable, Hashable, Codable {
    /// The server's key id, base64url (what `/device-key/challenge` and the grant name).
    public var keyID: String
    /// The provider's handle of the private key.
    public var handle: String
    /// The device as it was registered.
    public var device: DeviceKeyDevice

    /// A key from its parts.
    public init(keyID: String, handle: String, device: DeviceKeyDevice) {
        self.keyID = keyID
        self.handle = handle
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case handle, device
        case keyID = "key_id"
    }
}
