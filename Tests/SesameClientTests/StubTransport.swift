import Foundation
import SesameClient
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from a queue of canned replies and records every request.
final class StubTransport: HTTPTransport {
    enum Reply: Sendable {
        case http(Int, String, headers: [String: String] = [:])
        case failure(any Error & Sendable)
    }

    private let state = Mutex<(replies: [Reply], requests: [URLRequest])>(([], []))

    init(_ replies: [Reply] = []) {
        state.withLock { $0.replies = replies }
    }

    func enqueue(_ reply: Reply) {
        state.withLock { $0.replies.append(reply) }
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The JSON body of request `index`, as an object.
    func body(_ index: Int) throws -> [String: Any] {
        let requests = self.requests
        guard requests.indices.contains(index), let data = requests[index].httpBody,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw StubError.noBody }
        return object
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let reply: Reply? = state.withLock { state in
            state.requests.append(request)
            return state.replies.isEmpty ? nil : state.replies.removeFirst()
        }
        switch reply {
        case .none:
            throw StubError.noReply
        case .failure(let error):
            throw error
        case .http(let status, let body, let headers):
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else { throw StubError.noReply }
            return (Data(body.utf8), response)
        }
    }
}

enum StubError: Error {
    case noReply
    case noBody
}

/// Fixtures shared by the unit tests.
enum Fixture {
    static let domain = URL(string: "https://login.example.com") ?? URL(fileURLWithPath: "/")
    static let configuration = SesameConfiguration(domain: domain, clientID: "client-1", timeout: 7)
    static let start = Date(timeIntervalSince1970: 1_900_000_000)

    static let signupChallenge = #"""
        {"authn_params_public_key":{"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","timeout":60000,
        "rp":{"id":"login.example.com","name":"login.example.com"},
        "pubKeyCredParams":[{"type":"public-key","alg":-8},{"type":"public-key","alg":-7}],
        "authenticatorSelection":{"residentKey":"required","userVerification":"preferred"},
        "user":{"id":"dXNlci1oYW5kbGU","name":"ada@example.com","displayName":"Ada"},
        "excludeCredentials":[{"type":"public-key","id":"Y3JlZC0x","transports":["internal"]}]},
        "auth_session":"session-1"}
        """#

    static let loginChallenge = #"""
        {"authn_params_public_key":{"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","timeout":60000,
        "rpId":"login.example.com","userVerification":"preferred"},"auth_session":"session-2"}
        """#

    static let tokens = #"""
        {"access_token":"at-1","id_token":"id-1","refresh_token":"rt-1","token_type":"Bearer","expires_in":3600,
        "scope":"openid profile email offline_access"}
        """#

    static let passkey = PasskeyCredential(
        json: Data(
            #"{"id":"Y3JlZC0x","rawId":"Y3JlZC0x","type":"public-key","response":{"clientDataJSON":"e30"}}"#.utf8),
        id: "Y3JlZC0x")

    /// An unsigned JWT whose payload is `{"sub": sub}` (the SDK reads `sub`, never the signature).
    static func jwt(sub: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "." + encode(#"{"sub":"\#(sub)"}"#) + ".c2ln"
    }

    /// The prefer-passkey key of `userID` at the fixture tenant.
    static func user(_ userID: String) -> PreferPasskeyKey {
        PreferPasskeyKey(configuration: configuration, userID: userID)
    }

    static func authentication(_ transport: StubTransport, now: Date = start) -> SesameAuthentication {
        SesameAuthentication(configuration: configuration, transport: transport, now: { now })
    }
}

/// A provider that returns a fixed credential, or throws.
struct StubProvider: PasskeyProvider {
    var credential: PasskeyCredential = Fixture.passkey
    var error: (any Error & Sendable)?

    func register(_ challenge: PasskeySignupChallenge) async throws -> PasskeyCredential {
        if let error { throw error }
        return credential
    }

    func assert(_ challenge: PasskeyLoginChallenge) async throws -> PasskeyCredential {
        if let error { throw error }
        return credential
    }
}
