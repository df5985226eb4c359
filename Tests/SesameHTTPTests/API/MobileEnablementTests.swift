import Foundation
import SesameService
import SesameSoftwareAuthenticator
import Testing

/// The operator's path to native passkeys: PATCH the client's mobile settings, and the well-known
/// files and the passkey endpoints follow at once (both are read from the store per request).
@Suite("Management API: enabling Android and iOS apps end to end")
struct MobileEnablementTests {
    let api: APIHarness
    let token: String

    init() throws {
        api = try APIHarness()
        token = try api.managementToken()
    }

    static let fingerprintBytes: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 11) % 256) }
    static var fingerprint: String { fingerprintBytes.map { String(format: "%02X", $0) }.joined(separator: ":") }

    @Test("PATCH mobile.android → assetlinks.json lists the app → an Android authenticator signs up and logs in")
    func android() throws {
        let client = api.bootstrap.clientID
        let phone = api.authenticator(origin: .androidApp(signingCertificateSHA256: Self.fingerprintBytes))
        // Before: the app's origin is not accepted and assetlinks.json is empty.
        #expect(api.send(.get, "/.well-known/assetlinks.json").body == Array("[]".utf8))
        #expect(throws: APIHarnessError.self) { _ = try api.signUp(phone, email: "early@example.com") }

        let patch = api.send(
            .patch, "/api/v2/clients/\(client)",
            json: APIHarness.encode([
                "mobile": [
                    "android": [
                        "app_package_name": "com.example.notes",
                        "sha256_cert_fingerprints": [Self.fingerprint.lowercased()],
                    ]
                ]
            ]), token: token)
        #expect(patch.status == 200)

        let links = api.send(.get, "/.well-known/assetlinks.json")
        #expect(links.status == 200)
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(links.body)) as? [[String: Any]])
        #expect(statements.count == 1)
        let statement = try #require(statements.first)
        #expect(
            statement["relation"] as? [String] == [
                "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
            ])
        let target = try #require(statement["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.notes")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])

        let signup = try api.signUp(phone, email: "android@example.com")
        let login = try api.logIn(phone)
        #expect(login.userID == signup.userID)

        // Removing the app withdraws its origin again.
        #expect(api.send(.patch, "/api/v2/clients/\(client)", json: #"{"mobile":null}"#, token: token).status == 200)
        #expect(api.send(.get, "/.well-known/assetlinks.json").body == Array("[]".utf8))
        #expect(throws: APIHarnessError.self) { _ = try api.logIn(phone) }
    }

    @Test("PATCH mobile.ios → apple-app-site-association lists TEAMID.bundle → https://<rpID> signs up and logs in")
    func iOS() throws {
        let client = api.bootstrap.clientID
        let phone = api.authenticator(origin: .iOSApp(rpID: api.tenant.rpID))
        let empty = api.send(.get, "/.well-known/apple-app-site-association")
        #expect(((empty.json["webcredentials"] as? [String: Any])?["apps"] as? [String]) == [])
        #expect(throws: APIHarnessError.self) { _ = try api.signUp(phone, email: "early@example.com") }

        let patch = api.send(
            .patch, "/api/v2/clients/\(client)",
            json: #"{"mobile":{"ios":{"team_id":"ABCDE12345","app_bundle_identifier":"com.example.Notes"}}}"#,
            token: token)
        #expect(patch.status == 200)

        let association = api.send(.get, "/.well-known/apple-app-site-association")
        #expect(association.status == 200)
        #expect(association.headers["Content-Type"] == "application/json")
        let apps = (association.json["webcredentials"] as? [String: Any])?["apps"] as? [String]
        #expect(apps == ["ABCDE12345.com.example.Notes"])

        let signup = try api.signUp(phone, email: "ios@example.com")
        let login = try api.logIn(phone)
        #expect(login.userID == signup.userID)

        // Another client without iOS settings does not get the iOS origin.
        let other = api.send(
            .post, "/api/v2/clients", json: #"{"name":"Web","app_type":"spa"}"#, token: token)
        let otherID = try #require(other.json["client_id"] as? String)
        #expect(throws: APIHarnessError.self) { _ = try api.logIn(phone, clientID: otherID) }
    }
}
