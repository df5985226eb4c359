import Foundation
import SesameWire

/// What the SDK says about itself in the `Auth0-Client` header of every request, in Auth0.swift's
/// shape: base64url (no padding) of `{"name", "version", "env"}`, where `env` names the Swift
/// version and the OS with its version (`{"swift": "6.x", "iOS": "17.4"}`). Sesame counts
/// platforms from the OS key of `env`. Set `SesameConfiguration.clientInfo` to nil to send nothing.
public struct SesameClientInfo: Sendable, Hashable {
    /// The library: "Sesame.swift", or the wrapping library's name.
    public var name: String
    /// The library's version.
    public var version: String
    /// "swift", the OS name ("iOS", "macOS", "android", "linux", …) and, when wrapped, "core"
    /// (this SDK's version), each to a version.
    public var environment: [String: String]

    /// The header's name.
    public static let headerName = "Auth0-Client"
    /// This SDK's name in the header.
    public static let libraryName = "Sesame.swift"
    /// This SDK's version.
    public static let libraryVersion = "0.1.0"

    /// Info from its parts.
    public init(name: String, version: String, environment: [String: String]) {
        self.name = name
        self.version = version
        self.environment = environment
    }

    /// This SDK on `device`'s platform and OS version (this device by default).
    public static func current(device: DeviceContext = .current) -> SesameClientInfo {
        SesameClientInfo(
            name: libraryName, version: libraryVersion,
            environment: ["swift": "6.x", device.platform.description: device.osVersion])
    }

    /// The info of a library built on this SDK, as Auth0.swift's `using(inLibrary:version:)`:
    /// its name and version, with this SDK's version as `env.core`.
    public func wrapped(inLibrary name: String, version: String) -> SesameClientInfo {
        var environment = self.environment
        environment["core"] = self.version
        return SesameClientInfo(name: name, version: version, environment: environment)
    }

    /// The header's value: base64url without padding of the compact JSON, keys sorted.
    public var headerValue: String {
        let json = WireValue.map([
            "name": .string(name), "version": .string(version), "env": .map(environment.mapValues(WireValue.string)),
        ])
        return Base64URL.encode(Data(json.json.utf8))
    }
}
