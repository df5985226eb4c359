import SesameService
import SesameWire

/// The members a device key's registration and import share: its public key and its device.
enum DeviceKeyBodies {
    /// A P-256 public key as a JWK (RFC 7517); the service checks the curve and the point.
    static let publicKey = WireType.named(
        "PublicKeyJWK",
        WireObject([
            WireField("kty", .text(8)).required, WireField("crv", .text(16)).required,
            WireField("x", .text(64)).required, WireField("y", .text(64)).required,
            WireField("alg", .text(4_096)), WireField("use", .text(4_096)), WireField("kid", .text(4_096)),
            WireField("key_ops", .texts(4_096, maxItems: 100)), WireField("ext", .boolean),
        ]))

    /// The device the key lives on.
    static let device = WireType.named(
        "Device",
        WireObject([
            WireField("id", printable(128, bytes: 128)).required,
            WireField("name", printable(100, bytes: 400)).required,
            WireField("platform", .vocabulary(DevicePlatform.self)).required,
            WireField("os_version", .string(maxLength: 32, pattern: osVersionPattern)).required,
            WireField("model", printable(64, bytes: 256), nullable: true),
        ]))

    /// 1 to `count` characters with no control character (`DeviceKeyService.validated`), within `bytes`.
    static func printable(_ count: Int, bytes: Int) -> WireType {
        .string(maxLength: bytes, pattern: "^[^\\u0000-\\u001F]{1,\(count)}$")
    }

    /// An OS version such as 16.4 or 14 (`OSVersion`): one to four numbers of up to five digits.
    static let osVersionPattern = "^[0-9]{1,5}(\\.[0-9]{1,5}){0,3}$"

    /// The key's device, read from a body checked by `device`'s table.
    static func device(_ body: APIBody) throws -> DeviceKeyDevice {
        guard let device = try body.object("device") else { throw ServiceError.invalidRequest("device is required") }
        let platformName = try device.requiredString("platform")
        guard let platform = DevicePlatform(rawValue: platformName) else {
            throw ServiceError.invalidRequest("device.platform must be one of ios, android, web")
        }
        return DeviceKeyDevice(
            id: try device.requiredString("id"), name: try device.requiredString("name"), platform: platform,
            osVersion: try device.requiredString("os_version"), model: try device.optionalString("model"))
    }
}
