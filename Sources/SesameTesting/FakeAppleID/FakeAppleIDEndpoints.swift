import Foundation
import SesameHTTP
import SesameService
import Synchronization

/// The fake's HTTP routes, `GET /auth/keys`, `POST /auth/token` and the web sign-in
/// `/auth/authorize`, and what they remember: the
/// registered client-secret keys, the codes already redeemed, and every token request.
final class FakeAppleIDEndpoints: Sendable {
    private struct State {
        var registrations: [String: AppleClientSecret.Registration] = [:]
        var redeemedCodes: Set<String> = []
        var requests: [FakeAppleTokenRequest] = []
    }

    let minter: FakeAppleIDMinter
    private let state = Mutex(State())
    private let observer: (@Sendable (FakeAppleTokenRequest) -> Void)?

    init(minter: FakeAppleIDMinter, observer: (@Sendable (FakeAppleTokenRequest) -> Void)?) {
        self.minter = minter
        self.observer = observer
    }

    /// The routes.
    func router() -> Router {
        var router = Router()
        router.get("/auth/keys") { [minter] _, _ in try HTTPResponse.json(minter.keys.keySet) }
        router.post("/auth/token") { [self] request, _ in token(request) }
        router.get("/auth/authorize") { request, _ in Self.signInPage(request) }
        router.post("/auth/authorize") { [self] request, _ in try signIn(request) }
        return router
    }

    /// Accepts client secrets signed by `registration`'s key (one per Key ID; a second replaces it).
    func register(_ registration: AppleClientSecret.Registration) {
        state.withLock { $0.registrations[registration.keyID] = registration }
    }

    /// `GET /auth/authorize`: Apple's web sign-in, faked: a page that asks which Apple ID to be
    /// (`sub`, `email`), carrying the request's parameters. Only `response_mode=form_post`.
    static func signInPage(_ request: HTTPRequest) -> HTTPResponse {
        let names = ["client_id", "redirect_uri", "state", "nonce", "response_type", "response_mode", "scope"]
        guard request.query("response_mode") == "form_post", let clientID = request.query("client_id"),
            request.query("redirect_uri") != nil
        else {
            return .html("<p>invalid_request: client_id, redirect_uri and response_mode=form_post</p>", status: 400)
        }
        let hidden = names.compactMap { name in
            request.query(name).map { value -> HTML in "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">" }
        }.joined()
        let page: HTML = """
            <!doctype html><html><head><meta charset="utf-8"><title>Fake Apple ID</title></head><body>
            <h1>Sign in with Apple (fake)</h1><p>for \(clientID)</p>
            <form method="post" action="/auth/authorize">\(hidden)
            <label>sub <input id="fake-apple-sub" name="sub" value="001234.fake.apple.user"></label>
            <label>email <input id="fake-apple-email" name="email" value="fake@privaterelay.appleid.com"></label>
            <button type="submit" id="fake-apple-continue">Continue</button>
            </form></body></html>
            """
        return .html(page.markup)
    }

    /// `POST /auth/authorize`: the chosen Apple ID's identity token (`aud` the client, `nonce` as
    /// the request sent it) and a code for it, posted back to `redirect_uri` with `state`.
    func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = HTTPQueryItem.parse(String(decoding: request.body, as: UTF8.self))
        func field(_ name: String) -> String? { form.first { $0.name == name }?.value }
        guard let clientID = field("client_id"), let redirectURI = field("redirect_uri"),
            let subject = field("sub"), !subject.isEmpty
        else { return .html("<p>invalid_request</p>", status: 400) }
        var claims = AppleIdentityClaims(audience: clientID, subject: subject, email: field("email"))
        claims.rawNonce = nil
        if let nonce = field("nonce") { claims.extra["nonce"] = .string(nonce) }
        let idToken = try minter.mintIdentityToken(claims)
        let code = try minter.mintAuthorizationCode(claims, redirectURI: redirectURI)
        var fields = [("code", code), ("id_token", idToken)]
        if let state = field("state") { fields.append(("state", state)) }
        let inputs = fields.map { field -> HTML in
            "<input type=\"hidden\" name=\"\(field.0)\" value=\"\(field.1)\">"
        }.joined()
        let page: HTML = """
            <!doctype html><html><head><meta charset="utf-8"><title>Fake Apple ID</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(redirectURI)">\(inputs)
            <noscript><button type="submit">Continue</button></noscript></form></body></html>
            """
        return .html(page.markup)
    }

    /// Every token request so far, oldest first.
    var requests: [FakeAppleTokenRequest] { state.withLock { $0.requests } }

    /// `POST /auth/token`: 200 with the tokens, or 400 `{"error": code}`.
    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form = HTTPQueryItem.parse(String(decoding: request.body, as: UTF8.self))
        let secret = form.first { $0.name == "client_secret" }.flatMap { FakeAppleJWS.peek($0.value) }
        var record = FakeAppleTokenRequest(
            form: form, clientSecretHeader: secret?.header, clientSecretClaims: secret?.claims, status: 200)
        let response: HTTPResponse
        do {
            response = try HTTPResponse.json(try grant(request, form))
        } catch let refusal as FakeAppleTokenError {
            record.status = 400
            record.refusal = refusal
            response = HTTPResponse.json(bytes: Array(#"{"error":"\#(refusal.code)"}"#.utf8), status: 400)
        } catch {
            record.status = 500
            record.refusal = FakeAppleTokenError(code: "server_error", reason: "\(error)")
            response = HTTPResponse.json(bytes: Array(#"{"error":"server_error"}"#.utf8), status: 500)
        }
        state.withLock { $0.requests.append(record) }
        observer?(record)
        var answer = response
        answer.headers.add(name: "Cache-Control", value: "no-store")
        answer.headers.add(name: "Pragma", value: "no-cache")
        return answer
    }

    /// The checks in Apple's order as far as it is known: the form, the grant type, the client,
    /// then the grant.
    private func grant(_ request: HTTPRequest, _ form: [HTTPQueryItem]) throws -> [String: JWTClaimValue] {
        guard request.mediaType == "application/x-www-form-urlencoded" else {
            throw FakeAppleTokenError.invalidRequest("the body is not application/x-www-form-urlencoded")
        }
        var fields: [String: String] = [:]
        for item in form {
            guard fields.updateValue(item.value, forKey: item.name) == nil else {
                throw FakeAppleTokenError.invalidRequest("\(item.name) is repeated")
            }
        }
        func required(_ name: String) throws(FakeAppleTokenError) -> String {
            guard let value = fields[name], !value.isEmpty else { throw .invalidRequest("\(name) is missing") }
            return value
        }
        let grantType = try required("grant_type")
        guard grantType == "authorization_code" || grantType == "refresh_token" else {
            throw FakeAppleTokenError.unsupportedGrantType("grant_type \(grantType) is not supported")
        }
        let clientID = try required("client_id")
        let secret = try required("client_secret")
        let registrations = state.withLock { $0.registrations }
        try AppleClientSecret.verify(
            secret, clientID: clientID, registrations: registrations, now: minter.clock.now())

        if grantType == "refresh_token" {
            try minter.openRefreshToken(try required("refresh_token"), clientID: clientID)
            return [
                "access_token": .string(try minter.mintAccessToken()), "token_type": "Bearer", "expires_in": 3_600,
            ]
        }
        let code = try minter.openCode(try required("code"), clientID: clientID, redirectURI: fields["redirect_uri"])
        let idToken = try minter.identityToken(for: code, clientID: clientID)
        let refreshToken = try minter.mintRefreshToken(
            clientID: clientID, subject: code.carriedClaims["sub"]?.stringValue ?? "")
        let accessToken = try minter.mintAccessToken()
        // Single use: the first redemption that gets here wins; a later one is refused.
        guard state.withLock({ $0.redeemedCodes.insert(code.id).inserted }) else {
            throw FakeAppleTokenError.invalidGrant("the code was already redeemed")
        }
        return [
            "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3_600,
            "refresh_token": .string(refreshToken), "id_token": .string(idToken),
        ]
    }
}
