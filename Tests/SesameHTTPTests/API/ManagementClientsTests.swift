import Foundation
import SesameCrypto
import SesameService
import SesameStore
import Testing

@Suite("Management API: clients")
struct ManagementClientsTests {
    let api: APIHarness
    let token: String

    init() throws {
        api = try APIHarness()
        token = try api.managementToken()
    }

    private func create(_ body: [String: Any]) -> APIReply {
        api.send(.post, "/api/v2/clients", json: APIHarness.encode(body), token: token)
    }

    @Test("create, read, list, patch and delete a public native client")
    func lifecycle() throws {
        let created = create([
            "name": "Notes", "app_type": "native", "callbacks": ["com.example.notes://callback"],
            "allowed_origins": ["HTTPS://Notes.Example.com:443"],
        ])
        #expect(created.status == 201)
        let id = try #require(created.json["client_id"] as? String)
        #expect(created.json["client_secret"] == nil)
        #expect(created.json["token_endpoint_auth_method"] as? String == "none")
        #expect(
            created.json["grant_types"] as? [String] == ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"])
        #expect(created.json["allowed_origins"] as? [String] == ["https://notes.example.com"])
        #expect((created.json["jwt_configuration"] as? [String: Any])?["alg"] as? String == "RS256")
        #expect(created.json["created_at"] as? String == "2027-01-15T08:00:00.000Z")

        let read = api.send(.get, "/api/v2/clients/\(id)", token: token)
        #expect(read.status == 200)
        #expect(read.json["name"] as? String == "Notes")
        #expect(read.json["callbacks"] as? [String] == ["com.example.notes://callback"])

        let list = api.send(.get, "/api/v2/clients", token: token)
        #expect(list.status == 200)
        #expect(list.list.compactMap { $0["client_id"] as? String }.contains(id))

        let patched = api.send(
            .patch, "/api/v2/clients/\(id)",
            json: #"{"name":"Notes 2","jwt_configuration":{"alg":"ES256"},"is_first_party":false}"#, token: token)
        #expect(patched.status == 200)
        #expect(patched.json["name"] as? String == "Notes 2")
        #expect(patched.json["is_first_party"] as? Bool == false)
        #expect((patched.json["jwt_configuration"] as? [String: Any])?["alg"] as? String == "ES256")
        #expect(patched.json["callbacks"] as? [String] == ["com.example.notes://callback"])  // merged, not replaced

        #expect(api.send(.delete, "/api/v2/clients/\(id)", token: token).status == 204)
        let gone = api.send(.get, "/api/v2/clients/\(id)", token: token)
        #expect(gone.status == 404)
        #expect(gone.error == "not_found")
        #expect(api.send(.delete, "/api/v2/clients/\(id)", token: token).status == 404)
    }

    @Test("a confidential client's secret is returned once and stored only as its SHA-256")
    func confidentialSecret() throws {
        let created = create(["name": "Backend", "app_type": "regular_web"])
        #expect(created.status == 201)
        #expect(created.json["token_endpoint_auth_method"] as? String == "client_secret_post")
        let id = try #require(created.json["client_id"] as? String)
        let secret = try #require(created.json["client_secret"] as? String)
        let record = try #require(try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: id) })
        #expect(record.secretHash == Digest.sha256(Array(secret.utf8)))
        #expect(api.send(.get, "/api/v2/clients/\(id)", token: token).json["client_secret"] == nil)
        #expect(!String(decoding: api.send(.get, "/api/v2/clients", token: token).body, as: UTF8.self).contains(secret))

        let rotated = api.send(.post, "/api/v2/clients/\(id)/rotate-secret", token: token)
        #expect(rotated.status == 200)
        let next = try #require(rotated.json["client_secret"] as? String)
        #expect(next != secret)
        let after = try #require(try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: id) })
        #expect(after.secretHash == Digest.sha256(Array(next.utf8)))
    }

    @Test("switching a public client to a confidential method returns a new secret; back to none drops it")
    func switchingAuthMethod() throws {
        let id = try #require(create(["name": "SPA", "app_type": "spa"]).json["client_id"] as? String)
        let confidential = api.send(
            .patch, "/api/v2/clients/\(id)", json: #"{"token_endpoint_auth_method":"client_secret_basic"}"#,
            token: token)
        #expect(confidential.status == 200)
        #expect((confidential.json["client_secret"] as? String)?.isEmpty == false)
        let again = api.send(.patch, "/api/v2/clients/\(id)", json: #"{"name":"SPA 2"}"#, token: token)
        #expect(again.json["client_secret"] == nil)
        let public_ = api.send(
            .patch, "/api/v2/clients/\(id)", json: #"{"token_endpoint_auth_method":"none"}"#, token: token)
        #expect(public_.status == 200)
        let record = try #require(try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: id) })
        #expect(record.secretHash == nil)
    }

    @Test("mobile settings are validated, normalised and merged; null removes one platform")
    func mobileSettings() throws {
        let fingerprint = (0..<32).map { String(format: "%02x", $0 * 7 % 256) }.joined(separator: ":")
        let created = create([
            "name": "Phone", "app_type": "native",
            "mobile": [
                "ios": ["team_id": "ABCDE12345", "app_bundle_identifier": "com.example.phone"],
                "android": ["app_package_name": "com.example.phone", "sha256_cert_fingerprints": [fingerprint]],
            ],
        ])
        #expect(created.status == 201)
        let id = try #require(created.json["client_id"] as? String)
        let mobile = try #require(created.json["mobile"] as? [String: Any])
        let android = try #require(mobile["android"] as? [String: Any])
        #expect(android["sha256_cert_fingerprints"] as? [String] == [fingerprint.uppercased()])
        #expect((mobile["ios"] as? [String: Any])?["team_id"] as? String == "ABCDE12345")

        let teamOnly = api.send(
            .patch, "/api/v2/clients/\(id)", json: #"{"mobile":{"ios":{"team_id":"ZZZZZ99999"}}}"#, token: token)
        #expect(teamOnly.status == 200)
        let ios = (teamOnly.json["mobile"] as? [String: Any])?["ios"] as? [String: Any]
        #expect(ios?["team_id"] as? String == "ZZZZZ99999")
        #expect(ios?["app_bundle_identifier"] as? String == "com.example.phone")

        let removed = api.send(.patch, "/api/v2/clients/\(id)", json: #"{"mobile":{"ios":null}}"#, token: token)
        #expect(removed.status == 200)
        let left = try #require(removed.json["mobile"] as? [String: Any])
        #expect(left["ios"] == nil)
        #expect(left["android"] != nil)

        let none = api.send(.patch, "/api/v2/clients/\(id)", json: #"{"mobile":null}"#, token: token)
        #expect(none.status == 200)
        #expect(none.json["mobile"] == nil)
    }

    @Test(
        "each broken field is refused with 400 naming it",
        arguments: [
            (#"{"bogus":1}"#, "unknown field bogus"),
            (#"{"name":5}"#, "name must be a string"),
            (#"{"name":""}"#, "name must be 1 to 255 characters"),
            (#"{"app_type":"tv"}"#, "app_type must be one of native, spa, regular_web, non_interactive"),
            (
                #"{"grant_types":["refresh_token","implicit"]}"#,
                "grant_types[1] is not a grant type Sesame supports (authorization_code, "
                    + "urn:okta:params:oauth:grant-type:webauthn, "
                    + "refresh_token, client_credentials, password, http://auth0.com/oauth/grant-type/password-realm, "
                    + "http://auth0.com/oauth/grant-type/mfa-otp, http://auth0.com/oauth/grant-type/mfa-oob, "
                    + "http://auth0.com/oauth/grant-type/mfa-recovery-code, urn:sesame:params:oauth:grant-type:device-key, urn:ietf:params:oauth:grant-type:token-exchange)"
            ),
            (#"{"grant_types":"refresh_token"}"#, "grant_types must be an array of strings"),
            (
                #"{"allowed_logout_urls":["https://app.test/#bye"]}"#,
                "allowed_logout_urls[0] is not an absolute URL without a fragment"
            ),
            (#"{"callbacks":["not a url"]}"#, "callbacks[0] is not an absolute URL without a fragment"),
            (
                #"{"allowed_origins":["https://ok.test","https://a.test/path"]}"#,
                "allowed_origins[1] is not an origin (http(s)://host[:port] with no path)"
            ),
            (#"{"is_first_party":"yes"}"#, "is_first_party must be a boolean"),
            (
                #"{"token_endpoint_auth_method":"private_key_jwt"}"#,
                "token_endpoint_auth_method must be one of none, client_secret_post, client_secret_basic"
            ),
            (#"{"jwt_configuration":{"alg":"HS256"}}"#, "jwt_configuration.alg must be one of RS256, ES256, EdDSA"),
            (
                #"{"jwt_configuration":{"lifetime_in_seconds":1}}"#,
                "unknown field jwt_configuration.lifetime_in_seconds"
            ),
            (
                #"{"mobile":{"ios":{"team_id":"abcde12345","app_bundle_identifier":"com.example.a"}}}"#,
                "mobile.ios.team_id must be 10 uppercase letters or digits"
            ),
            (
                #"{"mobile":{"ios":{"team_id":"ABCDE12345","app_bundle_identifier":"nodots"}}}"#,
                "mobile.ios.app_bundle_identifier is not a bundle identifier (e.g. com.example.app)"
            ),
            (#"{"mobile":{"ios":{"team_id":"ABCDE12345"}}}"#, "mobile.ios.app_bundle_identifier is required"),
            (
                #"{"mobile":{"android":{"app_package_name":"com.example.a","sha256_cert_fingerprints":["AB:CD"]}}}"#,
                "mobile.android.sha256_cert_fingerprints[0] is not a SHA-256 fingerprint (32 colon-separated hex bytes)"
            ),
            (
                #"{"mobile":{"android":{"app_package_name":"1bad.name","sha256_cert_fingerprints":[]}}}"#,
                "mobile.android.sha256_cert_fingerprints needs at least one fingerprint"
            ),
            (
                #"{"mobile":{"android":{"app_package_name":"com.example.a","sha256_cert_fingerprints":[3]}}}"#,
                "mobile.android.sha256_cert_fingerprints[0] must be a string"
            ),
            (#"{"mobile":{"android":{"package":"x"}}}"#, "unknown field mobile.android.package"),
            (#"{"mobile":{"windows":{}}}"#, "unknown field mobile.windows"),
            (#"{"client_id":"chosen"}"#, "unknown field client_id"),
            (
                #"{"grant_types":["client_credentials"],"token_endpoint_auth_method":"none"}"#,
                "grant_types includes client_credentials, which needs a confidential token_endpoint_auth_method"
            ),
        ])
    func validation(body: String, description: String) throws {
        let id = try #require(create(["name": "Valid", "app_type": "native"]).json["client_id"] as? String)
        let reply = api.send(.patch, "/api/v2/clients/\(id)", json: body, token: token)
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_request")
        #expect(reply.errorDescription == description)
        // Nothing changed.
        #expect(api.send(.get, "/api/v2/clients/\(id)", token: token).json["name"] as? String == "Valid")
    }

    @Test("create needs a name; malformed JSON and other media types are refused")
    func createRequiresName() {
        let missing = create(["app_type": "native"])
        #expect(missing.status == 400)
        #expect(missing.errorDescription == "name is required")
        let malformed = api.send(.post, "/api/v2/clients", json: #"{"name":"#, token: token)
        #expect(malformed.status == 400)
        #expect(malformed.error == "invalid_request")
        let form = api.send(
            .post, "/api/v2/clients", json: "name=x", token: token, contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
    }

    @Test("lists page with page/per_page and include_totals")
    func pagination() throws {
        for index in 0..<3 { #expect(create(["name": "App \(index)"]).status == 201) }
        let page = api.send(.get, "/api/v2/clients?page=1&per_page=2", token: token)
        #expect(page.status == 200)
        #expect(page.list.count == 2)
        let last = api.send(.get, "/api/v2/clients?page=2&per_page=2&include_totals=true", token: token)
        #expect(last.json["total"] as? Int == 5)
        #expect(last.json["start"] as? Int == 4)
        #expect(last.json["limit"] as? Int == 2)
        #expect(last.json["length"] as? Int == 1)
        #expect((last.json["clients"] as? [Any])?.count == 1)
        for (query, description) in [
            ("per_page=0", "per_page must be an integer from 1 to 100"),
            ("per_page=101", "per_page must be an integer from 1 to 100"),
            ("page=-1", "page must be an integer from 0 to 100000"),
            ("page=one", "page must be an integer"),
            ("include_totals=yes", "include_totals must be true or false"),
        ] {
            let reply = api.send(.get, "/api/v2/clients?\(query)", token: token)
            #expect(reply.status == 400)
            #expect(reply.errorDescription == description)
        }
    }

    @Test("the management client cannot delete itself")
    func selfDeletion() {
        let reply = api.send(.delete, "/api/v2/clients/\(api.bootstrap.managementClientID)", token: token)
        #expect(reply.status == 409)
        #expect(reply.error == "conflict")
    }
}
