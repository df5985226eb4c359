import Foundation
import SesameSoftwareAuthenticator

/// The native passkey API as an app drives it, over one keep-alive connection.
struct SesameClient {
    let connection: HTTPConnection
    let clientID: String

    /// POST /passkey/register → authenticator → POST /oauth/token. Returns the token response body.
    func signUp(email: String, authenticator: SoftwareAuthenticator, scope: String) throws -> [UInt8] {
        let challenge = try connection.post(
            "/passkey/register", json: #"{"client_id":"\#(clientID)","user_profile":{"email":"\#(email)"}}"#)
        try Self.expect200(challenge, "POST /passkey/register")
        let registration = try authenticator.makeCredential(optionsJSON: challenge.body)
        guard let session = Self.stringField("auth_session", in: challenge.body) else {
            throw LoadError("no auth_session in the signup challenge")
        }
        let reply = try connection.post(
            "/oauth/token", json: tokenRequest(session: session, response: registration.jsonString, scope: scope))
        try Self.expect200(reply, "POST /oauth/token (signup)")
        return reply.body
    }

    /// The webauthn grant request body.
    func tokenRequest(session: String, response: String, scope: String) -> String {
        #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(clientID)","auth_session":"\#(session)","authn_response":\#(response),"scope":"\#(scope)"}"#
    }

    /// The refresh grant request body.
    func refreshRequest(_ token: String) -> String {
        #"{"grant_type":"refresh_token","client_id":"\#(clientID)","refresh_token":"\#(token)"}"#
    }

    static func expect200(_ response: HTTPConnection.Response, _ what: String) throws {
        guard response.status == 200 else {
            throw LoadError("\(what) answered \(response.status): \(response.text.prefix(300))")
        }
    }

    /// The value of the first `"name":"..."` in a JSON body (values here are base64url, JWTs or
    /// ids: no escapes). Cheaper than a JSON parse, so the load generator spends its core on load.
    static func stringField(_ name: String, in body: [UInt8]) -> String? {
        let key = Array("\"\(name)\":\"".utf8)
        guard body.count > key.count else { return nil }
        var index = 0
        while index + key.count <= body.count {
            if body[index] == key[0] && body[index..<(index + key.count)].elementsEqual(key) {
                let start = index + key.count
                guard let end = body[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: body[start..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    /// The `alg` of a JWT's protected header.
    static func jwtAlgorithm(_ jwt: String) -> String? {
        guard let header = jwt.split(separator: ".").first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return stringField("alg", in: Array(data))
    }
}
