import Foundation
import SesameClient
import Testing

@Suite("The Auth0-Client header")
struct SesameClientInfoTests {
    /// A header value decoded from base64url (which it must be: no padding, no `+` or `/`).
    func text(_ value: String?) throws -> String {
        let value = try #require(value)
        #expect(!value.contains("=") && !value.contains("+") && !value.contains("/"))
        var standard = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return String(decoding: try #require(Data(base64Encoded: standard)), as: UTF8.self)
    }

    /// A header value decoded into its JSON object.
    func decoded(_ value: String?) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text(value).utf8)) as? [String: Any])
    }

    @Test func everyRequestSaysWhichSDKAndWhichOS() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge), .http(204, "")])
        _ = try await Fixture.authentication(transport).passkeyLoginChallenge()
        try await MyAccount(configuration: Fixture.configuration, accessToken: "t", transport: transport)
            .deletePasskey(id: "passkey|1")
        #expect(transport.requests.count == 2)
        for request in transport.requests {
            let info = try decoded(request.value(forHTTPHeaderField: "Auth0-Client"))
            #expect(info["name"] as? String == "Sesame.swift")
            #expect(info["version"] as? String == SesameClientInfo.libraryVersion)
            let environment = try #require(info["env"] as? [String: String])
            #expect(environment["swift"] == "6.x")
            let platform = ClientPlatform.current.description
            #expect(environment[platform] == OSVersion.current.description)
            #expect(environment.count == 2)
        }
    }

    @Test func theEnvironmentNamesThePlatformAsAuth0SwiftDoes() throws {
        let iPhone = SesameClientInfo.current(device: DeviceContext(platform: .iOS, osVersion: "17.4"))
        #expect(iPhone.environment == ["swift": "6.x", "iOS": "17.4"])
        let mac = SesameClientInfo.current(device: DeviceContext(platform: .other("macOS"), osVersion: "14.5"))
        #expect(mac.environment == ["swift": "6.x", "macOS": "14.5"])
        // Compact JSON with sorted keys, so the value is stable.
        #expect(
            try text(iPhone.headerValue)
                == #"{"env":{"iOS":"17.4","swift":"6.x"},"name":"Sesame.swift","version":"0.1.0"}"#)
    }

    @Test func aLibraryOnTopNamesItselfAndKeepsTheSDKAsCore() throws {
        let wrapped = SesameClientInfo.current(device: DeviceContext(platform: .android, osVersion: "14"))
            .wrapped(inLibrary: "SesameFlutter", version: "2.0.1")
        #expect(wrapped.name == "SesameFlutter")
        #expect(wrapped.version == "2.0.1")
        #expect(wrapped.environment == ["swift": "6.x", "android": "14", "core": SesameClientInfo.libraryVersion])
    }

    @Test func theAppCanReplaceOrDropTheHeader() async throws {
        var configuration = Fixture.configuration
        configuration.clientInfo = SesameClientInfo(name: "Notes", version: "3", environment: ["iOS": "18.1"])
        let custom = StubTransport([.http(200, Fixture.loginChallenge)])
        _ = try await SesameAuthentication(configuration: configuration, transport: custom).passkeyLoginChallenge()
        let info = try decoded(custom.requests.first?.value(forHTTPHeaderField: "Auth0-Client"))
        #expect(info["name"] as? String == "Notes")
        #expect(info["env"] as? [String: String] == ["iOS": "18.1"])

        configuration.clientInfo = nil
        let none = StubTransport([.http(200, Fixture.loginChallenge)])
        _ = try await SesameAuthentication(configuration: configuration, transport: none).passkeyLoginChallenge()
        #expect(none.requests.first?.value(forHTTPHeaderField: "Auth0-Client") == nil)
    }
}
