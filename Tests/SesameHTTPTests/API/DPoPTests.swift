import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import Testing
import WebAuthn

/// A client's DPoP key that makes proofs (RFC 9449 §4.2), written here with SesameCrypto's
/// primitives only; the Python interop test checks the same contract with an independent library.
struct DPoPKey {
    let key: PrivateKey
    let algorithm: String

    static func es256() throws -> DPoPKey { DPoPKey(key: try PrivateKey.generate(.ec(.p256)), algorithm: "ES256") }
    static func ed25519() throws -> DPoPKey { DPoPKey(key: try PrivateKey.generate(.ed25519), algorithm: "EdDSA") }

    /// The public JWK members as a JSON object.
    var jwk: [String: Any] {
        let jwk = key.publicKey.jwk
        var members: [String: Any] = ["kty": jwk.kty]
        for (name, value) in [("crv", jwk.crv), ("x", jwk.x), ("y", jwk.y), ("n", jwk.n), ("e", jwk.e)] {
            if let value { members[name] = value }
        }
        return members
    }

    /// RFC 7638 thumbprint, base64url.
    var thumbprint: String { Base64URL.encode(JWKThumbprint.sha256(key.publicKey.components)) }

    /// A proof for `method` `url`; `accessToken` sets `ath`. The overrides change header or claims.
    func proof(
        _ method: String, _ url: String, accessToken: String? = nil, iat: Date, nonce: String? = nil,
        jti: String = UUID().uuidString, header overrides: [String: Any] = [:], claims extra: [String: Any] = [:]
    ) throws -> String {
        var header: [String: Any] = ["typ": "dpop+jwt", "alg": algorithm, "jwk": jwk]
        for (name, value) in overrides { header[name] = value }
        var claims: [String: Any] = ["jti": jti, "htm": method, "htu": url, "iat": Int(iat.timeIntervalSince1970)]
        if let accessToken { claims["ath"] = Base64URL.encode(Digest.sha256(Array(accessToken.utf8))) }
        if let nonce { claims["nonce"] = nonce }
        for (name, value) in extra { claims[name] = value }
        let input =
            Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])))
            + "." + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
        let scheme: SignatureAlgorithm = algorithm == "ES256" ? .ecdsa(.sha256) : .ed25519
        let signature = try key.signature(for: Array(input.utf8), algorithm: scheme, format: .raw)
        return input + "." + Base64URL.encode(signature)
    }
}

@Suite("DPoP (RFC 9449): bound tokens, proofs, replay, nonces")
struct DPoPTests {
    static let tokenURL = "http://login.test:8080/oauth/token"
    static let userInfoURL = "http://login.test:8080/userinfo"

    /// A passkey signup whose token request carries a proof by `key`.
    static func signUp(_ api: APIHarness, _ key: DPoPKey, email: String) throws -> APIReply {
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": email]]))
        let credential = try api.authenticator().makeCredential(optionsJSON: challenge.body)
        let body =
            APIHarness.encode([
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": api.bootstrap.clientID,
                "auth_session": challenge.json["auth_session"] as? String ?? "",
                "scope": "openid profile email offline_access",
            ]).dropLast() + #","authn_response":\#(credential.jsonString)}"#
        return api.send(
            .post, "/oauth/token", json: String(body),
            headers: [("DPoP", try key.proof("POST", tokenURL, iat: api.clock.now()))])
    }

    static func renew(_ api: APIHarness, _ token: String, proof: String?) -> APIReply {
        api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": api.bootstrap.clientID, "refresh_token": token,
            ]), headers: proof.map { [("DPoP", $0)] } ?? [])
    }

    @Test(
        "a login with a proof gets DPoP-bound tokens; userinfo and My Account take them with the DPoP scheme only",
        arguments: HarnessStore.allCases)
    func boundTokens(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let key = try DPoPKey.es256()
        let login = try Self.signUp(api, key, email: "dpop@example.com")
        #expect(login.status == 200, "\(login.json)")
        #expect(login.json["token_type"] as? String == "DPoP")
        let accessToken = try #require(login.json["access_token"] as? String)
        let claims = try APIAudienceTests.parts(accessToken).claims
        #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint)

        let now = api.clock.now()
        let ok = api.send(
            .get, "/userinfo", authorization: "DPoP \(accessToken)",
            headers: [("DPoP", try key.proof("GET", Self.userInfoURL, accessToken: accessToken, iat: now))])
        #expect(ok.status == 200, "\(ok.json)")
        #expect(ok.json["email"] as? String == "dpop@example.com")

        // A bound token is no bearer token (RFC 9449 §7.2).
        let bearer = api.send(.get, "/userinfo", token: accessToken)
        #expect(bearer.status == 401)
        #expect(bearer.error == "invalid_token")

        func refused(_ reply: APIReply, _ error: String, _ note: String) {
            #expect(reply.status == 401, "\(note)")
            #expect(reply.error == error, "\(note)")
            #expect(reply.headers["WWW-Authenticate"]?.hasPrefix("DPoP error=\"\(error)\"") == true, "\(note)")
        }
        refused(api.send(.get, "/userinfo", authorization: "DPoP \(accessToken)"), "invalid_dpop_proof", "no proof")
        let replayed = try key.proof("GET", Self.userInfoURL, accessToken: accessToken, iat: now, jti: "once")
        #expect(
            api.send(.get, "/userinfo", authorization: "DPoP \(accessToken)", headers: [("DPoP", replayed)]).status
                == 200)
        refused(
            api.send(.get, "/userinfo", authorization: "DPoP \(accessToken)", headers: [("DPoP", replayed)]),
            "invalid_dpop_proof", "replay")
        let other = try DPoPKey.ed25519()
        for (proof, note) in [
            (try other.proof("GET", Self.userInfoURL, accessToken: accessToken, iat: now), "another key"),
            (try key.proof("POST", Self.userInfoURL, accessToken: accessToken, iat: now), "wrong htm"),
            (try key.proof("GET", "http://login.test:8080/other", accessToken: accessToken, iat: now), "wrong htu"),
            (try key.proof("GET", Self.userInfoURL, accessToken: "something else", iat: now), "wrong ath"),
            (try key.proof("GET", Self.userInfoURL, iat: now), "no ath"),
        ] {
            refused(
                api.send(.get, "/userinfo", authorization: "DPoP \(accessToken)", headers: [("DPoP", proof)]),
                "invalid_dpop_proof", note)
        }
        refused(
            api.send(
                .get, "/userinfo", authorization: "DPoP not-a-token",
                headers: [("DPoP", try key.proof("GET", Self.userInfoURL, accessToken: "not-a-token", iat: now))]),
            "invalid_token", "bad token")

        // A My Account token bound the same way works there with DPoP (the SDKs' useDPoP()).
        let refreshToken = try #require(login.json["refresh_token"] as? String)
        let myAccount = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": api.bootstrap.clientID, "refresh_token": refreshToken,
                "audience": TokenService.myAccountAudience(api.tenant),
            ]), headers: [("DPoP", try key.proof("POST", Self.tokenURL, iat: now))])
        #expect(myAccount.status == 200, "\(myAccount.json)")
        let accountToken = try #require(myAccount.json["access_token"] as? String)
        let methodsURL = "http://login.test:8080/me/v1/authentication-methods"
        let methods = api.send(
            .get, "/me/v1/authentication-methods", authorization: "DPoP \(accountToken)",
            headers: [("DPoP", try key.proof("GET", methodsURL, accessToken: accountToken, iat: now))])
        #expect(methods.status == 200, "\(methods.json)")
        let unproven = api.send(.get, "/me/v1/authentication-methods", authorization: "DPoP \(accountToken)")
        #expect(unproven.status == 401)
        #expect(unproven.json["title"] as? String == "invalid_dpop_proof")
        #expect(unproven.headers["WWW-Authenticate"]?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)
    }

    @Test(
        "a public client's refresh token is bound: renewals need a proof by the same key, and a refusal burns nothing",
        arguments: HarnessStore.allCases)
    func boundRefreshTokens(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let key = try DPoPKey.es256()
        let login = try Self.signUp(api, key, email: "bound@example.com")
        let token = try #require(login.json["refresh_token"] as? String)
        let now = api.clock.now()

        let none = Self.renew(api, token, proof: nil)
        #expect(none.status == 400)
        #expect(none.error == "invalid_dpop_proof")
        let stranger = Self.renew(api, token, proof: try DPoPKey.es256().proof("POST", Self.tokenURL, iat: now))
        #expect(stranger.status == 400)
        #expect(stranger.error == "invalid_dpop_proof")

        let renewed = Self.renew(api, token, proof: try key.proof("POST", Self.tokenURL, iat: now))
        #expect(renewed.status == 200, "\(renewed.json)")
        #expect(renewed.json["token_type"] as? String == "DPoP")
        let successor = try #require(renewed.json["refresh_token"] as? String)
        #expect(Self.renew(api, successor, proof: nil).error == "invalid_dpop_proof")
        #expect(Self.renew(api, successor, proof: try key.proof("POST", Self.tokenURL, iat: now)).status == 200)
    }

    @Test("the token endpoint refuses bad proofs with invalid_dpop_proof", arguments: HarnessStore.allCases)
    func badProofs(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let key = try DPoPKey.es256()
        let login = try api.signUpForTokens(api.authenticator(), email: "bad@example.com")
        let token = try #require(login["refresh_token"] as? String)
        let now = api.clock.now()
        var privateJWK = key.jwk
        privateJWK["d"] = "AAAA"
        let cases: [(String, String)] = [
            (try key.proof("POST", Self.tokenURL, iat: now, header: ["typ": "JWT"]), "typ"),
            (try key.proof("POST", Self.tokenURL, iat: now, header: ["alg": "HS256"]), "alg"),
            (try key.proof("POST", Self.tokenURL, iat: now, header: ["alg": "none"]), "none"),
            (try key.proof("POST", Self.tokenURL, iat: now, header: ["jwk": privateJWK]), "private jwk"),
            (try key.proof("POST", Self.tokenURL, iat: now.addingTimeInterval(-301)), "too old"),
            (try key.proof("POST", Self.tokenURL, iat: now.addingTimeInterval(61)), "future"),
            (try key.proof("POST", Self.tokenURL, accessToken: "x", iat: now), "ath at the token endpoint"),
            (try key.proof("POST", "https://evil.example/oauth/token", iat: now), "htu"),
            (try key.proof("PUT", Self.tokenURL, iat: now), "htm"),
            (try key.proof("POST", Self.tokenURL, iat: now, claims: ["jti": 5]), "jti"),
            (String(try key.proof("POST", Self.tokenURL, iat: now).dropLast(4)) + "AAAA", "signature"),
            ("not.a.jwt", "garbage"),
        ]
        for (proof, note) in cases {
            let reply = Self.renew(api, token, proof: proof)
            #expect(reply.status == 400, "\(note)")
            #expect(reply.error == "invalid_dpop_proof", "\(note): \(reply.json)")
        }
        let two = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": api.bootstrap.clientID, "refresh_token": token,
            ]),
            headers: [
                ("DPoP", try key.proof("POST", Self.tokenURL, iat: now)),
                ("DPoP", try key.proof("POST", Self.tokenURL, iat: now)),
            ])
        #expect(two.error == "invalid_dpop_proof")
        let once = try key.proof("POST", Self.tokenURL, iat: now, jti: "token-once")
        let first = Self.renew(api, token, proof: once)
        #expect(first.status == 200)
        let replay = Self.renew(api, try #require(first.json["refresh_token"] as? String), proof: once)
        #expect(replay.error == "invalid_dpop_proof")
        #expect(replay.errorDescription == "the DPoP proof was already used; make a new one per request")
        // The token stayed usable through every refusal (an unbound, confidential-less family).
        let discovery = api.send(.get, "/.well-known/openid-configuration").json
        #expect(discovery["dpop_signing_alg_values_supported"] as? [String] == ["ES256", "EdDSA", "RS256"])
    }

    @Test(
        "with nonces required: use_dpop_nonce with a DPoP-Nonce, then the retry with it succeeds; the same at userinfo",
        arguments: HarnessStore.allCases)
    func nonces(store: HarnessStore) throws {
        let api = try APIHarness(store: store, requireDPoPNonce: true)
        let key = try DPoPKey.ed25519()
        let login = try api.signUpForTokens(api.authenticator(), email: "nonce@example.com")
        let token = try #require(login["refresh_token"] as? String)
        let now = api.clock.now()

        let first = Self.renew(api, token, proof: try key.proof("POST", Self.tokenURL, iat: now))
        #expect(first.status == 400)
        #expect(first.error == "use_dpop_nonce")
        let nonce = try #require(first.headers["DPoP-Nonce"])
        let stale = Self.renew(api, token, proof: try key.proof("POST", Self.tokenURL, iat: now, nonce: "stale"))
        #expect(stale.error == "use_dpop_nonce")
        let retry = Self.renew(api, token, proof: try key.proof("POST", Self.tokenURL, iat: now, nonce: nonce))
        #expect(retry.status == 200, "\(retry.json)")
        #expect(retry.headers["DPoP-Nonce"] != nil)
        let accessToken = try #require(retry.json["access_token"] as? String)

        let userInfo = api.send(
            .get, "/userinfo", authorization: "DPoP \(accessToken)",
            headers: [("DPoP", try key.proof("GET", Self.userInfoURL, accessToken: accessToken, iat: now))])
        #expect(userInfo.status == 401)
        #expect(userInfo.headers["WWW-Authenticate"]?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
        let fresh = try #require(userInfo.headers["DPoP-Nonce"])
        let withNonce = api.send(
            .get, "/userinfo", authorization: "DPoP \(accessToken)",
            headers: [
                ("DPoP", try key.proof("GET", Self.userInfoURL, accessToken: accessToken, iat: now, nonce: fresh))
            ])
        #expect(withNonce.status == 200, "\(withNonce.json)")
        // A nonce lives for its window and the next one, then it is refused.
        api.clock.advance(by: 2 * DPoPVerifier.nonceWindow)
        let late = Self.renew(
            api, try #require(retry.json["refresh_token"] as? String),
            proof: try key.proof("POST", Self.tokenURL, iat: api.clock.now(), nonce: nonce))
        #expect(late.error == "use_dpop_nonce")
    }

    @Test(
        "an m2m client's DPoP-bound token works at the Management API with the DPoP scheme only",
        arguments: HarnessStore.allCases)
    func managementAPI(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let key = try DPoPKey.es256()
        let now = api.clock.now()
        let issued = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "client_credentials", "client_id": api.bootstrap.managementClientID,
                "client_secret": api.bootstrap.managementClientSecret,
                "audience": TokenService.managementAudience(api.tenant),
            ]), headers: [("DPoP", try key.proof("POST", Self.tokenURL, iat: now))])
        #expect(issued.status == 200, "\(issued.json)")
        #expect(issued.json["token_type"] as? String == "DPoP")
        let token = try #require(issued.json["access_token"] as? String)
        let clientsURL = "http://login.test:8080/api/v2/clients"
        let listed = api.send(
            .get, "/api/v2/clients", authorization: "DPoP \(token)",
            headers: [("DPoP", try key.proof("GET", clientsURL, accessToken: token, iat: now))])
        #expect(listed.status == 200, "\(listed.json)")
        #expect(api.send(.get, "/api/v2/clients", token: token).status == 401)
        let wrongKey = api.send(
            .get, "/api/v2/clients", authorization: "DPoP \(token)",
            headers: [("DPoP", try DPoPKey.es256().proof("GET", clientsURL, accessToken: token, iat: now))])
        #expect(wrongKey.status == 401)
        #expect(wrongKey.headers["WWW-Authenticate"]?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)
    }
}
