import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting

/// `TestSesame` in process over the in-memory store, with the raw-request helpers the hostile-input
/// suites use.
final class InProcessSesame: @unchecked Sendable {  // immutable after init
    let sesame: TestSesame
    var store: any SesameStore { sesame.store }
    var clock: ManualClock { sesame.clock }
    var application: SesameApplication { sesame.application }
    var bootstrap: BootstrapResult { sesame.bootstrap }
    var tenant: TenantRecord { sesame.tenant }
    let host = "login.example.test"
    var origin: String { "https://\(host)" }

    init(rateLimitPerMinute: Int = 0) throws {
        var options = TestSesame.Options()
        options.rateLimitPerMinute = rateLimitPerMinute
        sesame = try TestSesame(.inProcess(publicURL: "https://login.example.test"), options: options)
    }

    /// Routes one request as the server would (errors become their wire form).
    func send(
        _ method: HTTPMethod, _ target: String, body: String? = nil, contentType: String? = "application/json",
        headers: [String: String] = [:], host: String? = nil
    ) -> HTTPResponse {
        var fields = HTTPHeaders()
        fields.add(name: "Host", value: host ?? self.host)
        if let contentType, body != nil { fields.add(name: "Content-Type", value: contentType) }
        for (name, value) in headers { fields.add(name: name, value: value) }
        return sesame.respond(
            HTTPRequest(method: method, target: target, headers: fields, body: Array((body ?? "").utf8)))
    }

    func authenticator(origin: Origin? = nil) -> SoftwareAuthenticator {
        TestSesame.authenticator(origin: origin ?? .web(self.origin))
    }

    static func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    func counts() throws -> (users: Int, passkeys: Int) {
        try store.read { transaction in
            let users = try transaction.users.search(tenantID: tenant.id, query: nil, page: Page(offset: 0, limit: 100))
            let passkeys = try users.reduce(0) {
                $0 + (try transaction.passkeys.list(tenantID: tenant.id, userID: $1.id).count)
            }
            return (users.count, passkeys)
        }
    }

    /// A signup challenge for `email`; returns (auth_session, options body).
    func signupChallenge(email: String, clientID: String? = nil) -> (String, [UInt8]) {
        let response = send(
            .post, "/passkey/register",
            body: #"{"client_id":"\#(clientID ?? bootstrap.clientID)","user_profile":{"email":"\#(email)"}}"#)
        return (Self.json(response)["auth_session"] as? String ?? "", response.body)
    }

    func loginChallenge(clientID: String? = nil) -> (String, [UInt8]) {
        let response = send(.post, "/passkey/challenge", body: #"{"client_id":"\#(clientID ?? bootstrap.clientID)"}"#)
        return (Self.json(response)["auth_session"] as? String ?? "", response.body)
    }

    func tokenBody(session: String, response: String, clientID: String? = nil) -> String {
        #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(clientID ?? bootstrap.clientID)","auth_session":"\#(session)","authn_response":\#(response)}"#
    }

    /// Adds a client without the webauthn grant, and a second public native client.
    func addClient(id: String, grants: [OAuthGrantType]) throws {
        try store.write(.durable) { transaction in
            try transaction.clients.insert(
                ClientRecord(
                    tenantID: tenant.id, id: id, name: id, appType: .native, grantTypes: grants,
                    createdAt: clock.now(), updatedAt: clock.now()))
        }
    }
}
