import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import SesameTesting
import Synchronization
import Testing
import WebAuthn

/// The fake Apple ID service other suites point Sign in with Apple at: its key set, its tokens
/// (the good one and each bad one a verifier must refuse), and its token endpoint's checks of
/// codes, refresh tokens and client secrets, over a real loopback port.
@Suite("Fake Apple ID service")
struct FakeAppleIDTests {
    /// One set of RSA keys for the suite (generating them is the slow part).
    static let keys: FakeAppleIDKeys? = try? FakeAppleIDKeys.generate()
    static let bundleID = "com.example.notes"
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"

    /// A fake on a manual clock, with `p8`'s key registered for `teamID` and `keyID`.
    struct Setup {
        let fake: FakeAppleID
        let clock = ManualClock()
        let p8Key: PrivateKey

        init() throws {
            let keys: FakeAppleIDKeys = try #require(FakeAppleIDTests.keys)
            var configuration = FakeAppleID.Configuration()
            configuration.keys = keys
            configuration.clock = clock
            fake = try FakeAppleID(configuration)
            p8Key = try FakeAppleID.privateKey(p8: try FakeAppleID.makeP8())
            try fake.register(
                teamID: FakeAppleIDTests.teamID, keyID: FakeAppleIDTests.keyID, publicKey: p8Key.publicKey)
        }

        /// A correct client secret for `clientID`, issued now.
        func secret(clientID: String = FakeAppleIDTests.bundleID) throws -> String {
            try AppleClientSecret.make(
                teamID: FakeAppleIDTests.teamID, keyID: FakeAppleIDTests.keyID, clientID: clientID, privateKey: p8Key,
                issuedAt: clock.now())
        }

        /// `POST /auth/token` with `fields`, form-encoded (or with `contentType`).
        func token(
            _ fields: [(String, String)], contentType: String = "application/x-www-form-urlencoded"
        ) throws -> RawHTTPClient.Response {
            let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
            let client = try RawHTTPClient(port: fake.port)
            try client.send(
                "POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            return try client.readResponse()
        }

        /// Redeems `code` as `clientID` with `secret` (a correct one when nil).
        func redeem(
            _ code: String, clientID: String = FakeAppleIDTests.bundleID, secret: String? = nil,
            redirectURI: String? = nil
        ) throws -> RawHTTPClient.Response {
            var fields = [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
                ("client_secret", try secret ?? self.secret(clientID: clientID)),
            ]
            if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
            return try token(fields)
        }

        /// A verifier over the key set the fake serves on `/auth/keys`.
        func verifier() throws -> JWTVerifier {
            let response = try RawHTTPClient(port: fake.port).get("/auth/keys")
            let set = try JSONDecoder().decode(JWKSet.self, from: Data(response.body))
            return JWTVerifier(
                keys: try set.keys.map { jwk in
                    try JWTVerificationKey(
                        keyID: try #require(jwk.kid), algorithm: .rs256, publicKey: try PublicKey(jwk: jwk))
                }, allowedAlgorithms: [.rs256])
        }

        /// Expectations for a token meant for `audience`, now.
        func expecting(_ audience: String = FakeAppleIDTests.bundleID) -> JWTExpectations {
            JWTExpectations(issuer: "https://appleid.apple.com", audience: audience, type: .idToken, now: clock.now())
        }

        static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "-._~").union(.alphanumerics))
                ?? text
        }
    }

    static func object(_ response: RawHTTPClient.Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    static func error(_ response: RawHTTPClient.Response) -> String? {
        response.status == 400 && response.json.count == 1 ? response.json["error"] : nil
    }

    @Test("the key set lists two public RS256 signing keys with distinct kids, as Apple's does")
    func keySetShape() throws {
        let setup = try Setup()
        let response = try RawHTTPClient(port: setup.fake.port).get("/auth/keys")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let keys = try #require(Self.object(response)["keys"] as? [[String: String]])
        #expect(keys.count == 2)
        for key in keys {
            #expect(Set(key.keys) == ["kty", "kid", "use", "alg", "n", "e"])
            #expect(key["kty"] == "RSA")
            #expect(key["use"] == "sig")
            #expect(key["alg"] == "RS256")
            #expect(key["e"] == "AQAB")
        }
        #expect(Set(keys.compactMap { $0["kid"] }).count == 2)
        #expect(keys.compactMap { $0["kid"] } == setup.fake.keys.keyIDs)
        #expect(setup.fake.keySet.keys.allSatisfy { !$0.hasPrivateMembers })
    }

    @Test("an identity token verifies against the served key set and carries Apple's claims")
    func identityTokenVerifies() throws {
        let setup = try Setup()
        var claims = AppleIdentityClaims(
            audience: Self.bundleID, subject: "001234.abcdef", rawNonce: "abc", email: "x1y2@privaterelay.appleid.com")
        claims.extra["transfer_sub"] = "002345.fedcba"
        let verifier = try setup.verifier()
        for index in 0..<2 {
            let token = try setup.fake.mintIdentityToken(claims, signing: .publishedKey(index))
            let verified = try verifier.verify(token, expecting: setup.expecting())
            #expect(verified.keyID == setup.fake.keys.keyIDs[index])
            #expect(verified.type == nil)
            let header = try #require(String(token.split(separator: ".")[0]).base64URLJSON)
            #expect(Set(header.keys) == ["kid", "alg"])
            let now = Int64(setup.clock.now().timeIntervalSince1970)
            let expected: [String: JWTClaimValue] = [
                "iss": "https://appleid.apple.com", "aud": .string(Self.bundleID), "sub": "001234.abcdef",
                "iat": .int(now), "exp": .int(now + 300), "auth_time": .int(now),
                // SHA-256("abc"), FIPS 180-2 appendix B.1.
                "nonce": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "nonce_supported": true, "email": "x1y2@privaterelay.appleid.com", "email_verified": "true",
                "is_private_email": "true", "real_user_status": 2, "transfer_sub": "002345.fedcba",
            ]
            #expect(verified.claims == expected)
        }
        // Booleans as JSON booleans, no nonce, no email: what a managed account's token can look like.
        var plain = AppleIdentityClaims(audience: "com.example.services", subject: "001234.abcdef")
        plain.emailVerified = .boolean(false)
        plain.isPrivateEmail = .boolean(false)
        plain.realUserStatus = nil
        plain.nonceSupported = false
        let verified = try verifier.verify(
            try setup.fake.mintIdentityToken(plain), expecting: setup.expecting("com.example.services"))
        #expect(verified.claims["email_verified"] == .bool(false))
        #expect(verified.claims["is_private_email"] == .bool(false))
        #expect(verified.claims["nonce_supported"] == .bool(false))
        for absent in ["nonce", "email", "real_user_status"] { #expect(verified.claims[absent] == nil, "\(absent)") }
    }

    @Test("each deliberately bad identity token fails verification for its own reason")
    func badIdentityTokens() throws {
        let setup = try Setup()
        let verifier = try setup.verifier()
        let claims = AppleIdentityClaims(audience: Self.bundleID, subject: "001234.abcdef")
        var expired = claims
        expired.lifetime = -120
        var otherIssuer = claims
        otherIssuer.issuer = "https://appleid.example.com"
        let cases: [(String, String, JWTError)] = [
            ("unpublished key", try setup.fake.mintIdentityToken(claims, signing: .unpublishedKey), .invalidSignature),
            ("unknown kid", try setup.fake.mintIdentityToken(claims, signing: .unknownKeyID("NOPE")), .unknownKey),
            ("HS256", try setup.fake.mintHS256IdentityToken(claims), .unsupportedAlgorithm("HS256")),
            ("expired", try setup.fake.mintIdentityToken(expired), .expired),
            ("issuer", try setup.fake.mintIdentityToken(otherIssuer), .wrongIssuer),
        ]
        for (name, token, expected) in cases {
            #expect(throws: expected, "\(name)") { try verifier.verify(token, expecting: setup.expecting()) }
        }
        // alg none: the header says so and the signature is empty (this verifier refuses the shape first).
        let unsecured = try setup.fake.mintUnsecuredIdentityToken(claims)
        #expect(unsecured.hasSuffix("."))
        #expect(String(unsecured.split(separator: ".")[0]).base64URLJSON?["alg"] as? String == "none")
        #expect(throws: JWTError.self) { try verifier.verify(unsecured, expecting: setup.expecting()) }
        #expect(throws: JWTError.wrongAudience) {
            try verifier.verify(try setup.fake.mintIdentityToken(claims), expecting: setup.expecting("com.other"))
        }
        // The HS256 token is keyed with the public PEM, the classic algorithm-confusion forgery.
        let hs256 = try setup.fake.mintHS256IdentityToken(claims).split(separator: ".")
        let pem = Array(try PublicKey(jwk: setup.fake.keySet.keys[0]).pem.utf8)
        #expect(
            HMAC.isValid(
                try Base64URL.decode(String(hs256[2])), for: Array("\(hs256[0]).\(hs256[1])".utf8), key: pem))
    }

    @Test("a code redeems once, for an id token of its claims, and the request is recorded")
    func codeRedeemsOnce() throws {
        let setup = try Setup()
        let claims = AppleIdentityClaims(
            audience: Self.bundleID, subject: "001234.abcdef", rawNonce: "n-0S6_WzA2Mj", email: "ada@example.com")
        let code = try setup.fake.mintAuthorizationCode(claims)
        setup.clock.advance(by: 30)
        let first = try setup.redeem(code)
        #expect(first.status == 200)
        #expect(first.header("Cache-Control") == "no-store")
        let body = Self.object(first)
        #expect(Set(body.keys) == ["access_token", "token_type", "expires_in", "refresh_token", "id_token"])
        #expect(body["token_type"] as? String == "Bearer")
        #expect(body["expires_in"] as? Int == 3600)
        #expect((body["access_token"] as? String)?.isEmpty == false)
        #expect((body["refresh_token"] as? String)?.isEmpty == false)
        let verified = try setup.verifier().verify(
            try #require(body["id_token"] as? String), expecting: setup.expecting())
        let now = Int64(setup.clock.now().timeIntervalSince1970)
        #expect(verified.subject == "001234.abcdef")
        #expect(verified.claims["iat"] == .int(now))
        #expect(verified.claims["auth_time"] == .int(now - 30))
        #expect(verified.claims["nonce"] == .string(AppleIdentityClaims.nonceHash("n-0S6_WzA2Mj")))
        #expect(verified.claims["email"] == "ada@example.com")
        #expect(verified.claims["email_verified"] == "true")
        #expect(verified.claims["is_private_email"] == nil)

        let second = try setup.redeem(code)
        #expect(Self.error(second) == "invalid_grant")

        let requests = setup.fake.tokenRequests
        #expect(requests.count == 2)
        #expect(requests.map(\.status) == [200, 400])
        #expect(requests[1].refusal?.reason == "the code was already redeemed")
        let recorded = try #require(requests.first)
        #expect(recorded.grantType == "authorization_code")
        #expect(recorded.clientID == Self.bundleID)
        #expect(recorded.code == code)
        #expect(recorded.redirectURI == nil)
        #expect(recorded.clientSecretHeader == ["alg": "ES256", "kid": .string(Self.keyID)])
        #expect(recorded.clientSecretClaims?["iss"] == .string(Self.teamID))
        #expect(recorded.clientSecretClaims?["sub"] == .string(Self.bundleID))
        #expect(recorded.clientSecretClaims?["aud"] == "https://appleid.apple.com")
    }

    @Test("a client secret that breaks one of Apple's rules is invalid_client, and the code stays unused")
    func badClientSecrets() throws {
        let setup = try Setup()
        let otherKey = try PrivateKey.generate(.ec(.p256))
        let now = setup.clock.now()
        func secret(
            teamID: String = Self.teamID, keyID: String = Self.keyID, clientID: String = Self.bundleID,
            key: PrivateKey? = nil, issuedAt: Date? = nil, lifetime: Int = 3_600,
            audience: String = "https://appleid.apple.com", format: ECDSASignatureFormat = .raw
        ) throws -> String {
            try AppleClientSecret.make(
                teamID: teamID, keyID: keyID, clientID: clientID, privateKey: key ?? setup.p8Key,
                issuedAt: issuedAt ?? now, lifetime: lifetime, audience: audience, signatureFormat: format)
        }
        let cases: [(String, String)] = [
            ("another kid", try secret(keyID: "KEY7654321")),
            ("another team", try secret(teamID: "TEAM654321")),
            ("another sub", try secret(clientID: "com.example.services")),
            ("another aud", try secret(audience: "https://appleid.apple.com/")),
            ("expired", try secret(issuedAt: now.addingTimeInterval(-7_200))),
            ("issued in the future", try secret(issuedAt: now.addingTimeInterval(3_600))),
            ("longer than six months", try secret(lifetime: AppleClientSecret.maximumLifetime + 1)),
            ("another key", try secret(key: otherKey)),
            ("a DER signature", try secret(format: .der)),
            ("not a JWT", "secret"),
        ]
        let code = try setup.fake.mintAuthorizationCode(AppleIdentityClaims(audience: Self.bundleID, subject: "001"))
        for (name, bad) in cases {
            #expect(Self.error(try setup.redeem(code, secret: bad)) == "invalid_client", "\(name)")
        }
        #expect(setup.fake.tokenRequests.allSatisfy { $0.refusal?.code == "invalid_client" })
        // Six months to the second is still accepted.
        #expect(try setup.redeem(code, secret: try secret(lifetime: AppleClientSecret.maximumLifetime)).status == 200)
    }

    @Test("a code is invalid_grant for another client, after five minutes, or with another redirect_uri")
    func badCodes() throws {
        let setup = try Setup()
        let claims = AppleIdentityClaims(audience: Self.bundleID, subject: "001")
        let services = "com.example.services"
        #expect(
            Self.error(try setup.redeem(try setup.fake.mintAuthorizationCode(claims), clientID: services))
                == "invalid_grant")

        let late = try setup.fake.mintAuthorizationCode(claims)
        setup.clock.advance(by: 301)
        #expect(Self.error(try setup.redeem(late)) == "invalid_grant")

        let web = try setup.fake.mintAuthorizationCode(claims, redirectURI: "https://example.com/apple/callback")
        #expect(Self.error(try setup.redeem(web)) == "invalid_grant")
        #expect(Self.error(try setup.redeem(web, redirectURI: "https://example.com/other")) == "invalid_grant")
        #expect(try setup.redeem(web, redirectURI: "https://example.com/apple/callback").status == 200)
        let native = try setup.fake.mintAuthorizationCode(claims)
        #expect(
            Self.error(try setup.redeem(native, redirectURI: "https://example.com/apple/callback")) == "invalid_grant")

        let stranger = FakeAppleIDMinter(keys: try FakeAppleIDKeys.generate(), clock: setup.clock)
        #expect(Self.error(try setup.redeem(try stranger.mintAuthorizationCode(claims))) == "invalid_grant")
        #expect(Self.error(try setup.redeem("not-a-code")) == "invalid_grant")
        // An identity token is not a code either.
        #expect(Self.error(try setup.redeem(try setup.fake.mintIdentityToken(claims))) == "invalid_grant")
    }

    @Test("malformed token requests get Apple's error codes")
    func malformedRequests() throws {
        let setup = try Setup()
        let code = try setup.fake.mintAuthorizationCode(AppleIdentityClaims(audience: Self.bundleID, subject: "001"))
        let secret = try setup.secret()
        let good = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", Self.bundleID),
            ("client_secret", secret),
        ]
        for missing in good.map(\.0) {
            #expect(Self.error(try setup.token(good.filter { $0.0 != missing })) == "invalid_request", "\(missing)")
        }
        #expect(Self.error(try setup.token(good + [("client_id", Self.bundleID)])) == "invalid_request")
        #expect(Self.error(try setup.token(good, contentType: "application/json")) == "invalid_request")
        var password = good
        password[0] = ("grant_type", "password")
        #expect(Self.error(try setup.token(password)) == "unsupported_grant_type")
        // None of that used the code up.
        #expect(try setup.token(good).status == 200)
    }

    @Test("a refresh grant answers access_token, token_type and expires_in only, for its own client")
    func refreshGrant() throws {
        let setup = try Setup()
        let code = try setup.fake.mintAuthorizationCode(AppleIdentityClaims(audience: Self.bundleID, subject: "001"))
        let refreshToken = try #require(Self.object(try setup.redeem(code))["refresh_token"] as? String)
        func refresh(_ token: String, clientID: String = Self.bundleID) throws -> RawHTTPClient.Response {
            try setup.token([
                ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID),
                ("client_secret", try setup.secret(clientID: clientID)),
            ])
        }
        let response = try refresh(refreshToken)
        #expect(response.status == 200)
        let body = Self.object(response)
        #expect(Set(body.keys) == ["access_token", "token_type", "expires_in"])
        #expect(body["token_type"] as? String == "Bearer")
        #expect(body["expires_in"] as? Int == 3600)
        // Refresh tokens are not used up, are bound to their client, and are not codes.
        #expect(try refresh(refreshToken).status == 200)
        #expect(Self.error(try refresh(refreshToken, clientID: "com.example.services")) == "invalid_grant")
        #expect(Self.error(try refresh(code)) == "invalid_grant")
        #expect(Self.error(try setup.redeem(refreshToken)) == "invalid_grant")
        #expect(setup.fake.tokenRequests.last?.refreshToken == nil)
        #expect(setup.fake.tokenRequests.dropLast().last?.refreshToken == code)
    }

    @Test("a state directory keeps the keys, and a code minted by the command line redeems at a fake serving it")
    func stateDirectoryAndCommandLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-apple-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try FakeAppleIDKeys.loadOrCreate(stateDirectory: directory.path)
        #expect(try FakeAppleIDKeys.loadOrCreate(stateDirectory: directory.path).keyIDs == keys.keyIDs)
        let mode =
            try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(FakeAppleIDKeys.stateFileName).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        var configuration = FakeAppleID.Configuration()
        configuration.stateDirectory = directory.path
        let fake = try FakeAppleID(configuration)
        defer { fake.stop(gracePeriod: 0) }
        #expect(fake.keys.keyIDs == keys.keyIDs)
        let p8Path = directory.appendingPathComponent("AuthKey.p8").path
        let lines = Lines()
        #expect(FakeAppleIDCommandLine.run(["p8", "--out", p8Path], streams: lines.streams) == 0)
        #expect(FakeAppleIDCommandLine.run(["p8", "--out", p8Path], streams: lines.streams) == 1)
        try fake.register(teamID: Self.teamID, keyID: Self.keyID, p8: String(contentsOfFile: p8Path, encoding: .utf8))

        lines.clear()
        let mint = [
            "code", "--state", directory.path, "--aud", Self.bundleID, "--sub", "001", "--email", "a@example.com",
        ]
        #expect(FakeAppleIDCommandLine.run(mint, streams: lines.streams) == 0)
        let code = try #require(lines.output.first)
        lines.clear()
        let secretArguments = [
            "client-secret", "--p8", p8Path, "--team-id", Self.teamID, "--key-id", Self.keyID, "--client-id",
            Self.bundleID,
        ]
        #expect(FakeAppleIDCommandLine.run(secretArguments, streams: lines.streams) == 0)
        let secret = try #require(lines.output.first)
        let client = try RawHTTPClient(port: fake.port)
        let body = "grant_type=authorization_code&code=\(code)&client_id=\(Self.bundleID)&client_secret=\(secret)"
        try client.send(
            "POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let response = try client.readResponse()
        #expect(response.status == 200, "\(response.text)")

        lines.clear()
        let mintToken = ["identity-token", "--state", directory.path, "--aud", Self.bundleID, "--sub", "001"]
        #expect(FakeAppleIDCommandLine.run(mintToken, streams: lines.streams) == 0)
        let rawNonce = try #require(lines.errors.first?.split(separator: " ").last.map(String.init))
        let token = try #require(lines.output.first)
        let claims = try #require(String(token.split(separator: ".")[1]).base64URLJSON)
        #expect(claims["nonce"] as? String == AppleIdentityClaims.nonceHash(rawNonce))
        #expect(claims["aud"] as? String == Self.bundleID)
    }

    @Test("the command line answers a bad command line with one line and status 2")
    func commandLineUsage() throws {
        let cases: [[String]] = [
            [], ["launch"], ["serve"], ["serve", "--state", "/tmp/x", "--port", "70000"],
            ["serve", "--state", "/tmp/x", "--team-id", "T"], ["p8"], ["identity-token", "--state", "/tmp/x"],
            ["identity-token", "--state", "/tmp/x", "--aud", "a", "--sub", "s", "--lifetime", "soon"],
            ["identity-token", "--state", "/tmp/x", "--aud", "a", "--sub", "s", "--nonce", "n", "--no-nonce"],
            ["code", "--state", "/tmp/x", "--aud", "a", "--sub", "s", "--sub", "t"],
            ["code", "--aud", "a", "--sub", "s"],
            ["code", "stray"], ["client-secret", "--p8", "f", "--team-id", "T", "--key-id", "K"],
            ["p8", "--out"], ["p8", "--out", "f", "--force"],
        ]
        for arguments in cases {
            let lines = Lines()
            #expect(FakeAppleIDCommandLine.run(arguments, streams: lines.streams) == 2, "\(arguments)")
            if !arguments.isEmpty {
                #expect(lines.errors.count == 1, "\(arguments)")
                #expect(lines.output.isEmpty, "\(arguments)")
            }
        }
    }
}

/// What a command wrote, line by line.
final class Lines: Sendable {
    private let state = Mutex<(output: [String], errors: [String])>(([], []))

    var streams: FakeAppleIDCommandLine.Streams {
        FakeAppleIDCommandLine.Streams(
            output: { line in self.state.withLock { $0.output.append(line) } },
            errors: { line in self.state.withLock { $0.errors.append(line) } })
    }
    var output: [String] { state.withLock { $0.output } }
    var errors: [String] { state.withLock { $0.errors } }
    func clear() { state.withLock { $0 = ([], []) } }
}

extension String {
    /// The JSON object this base64url text encodes.
    fileprivate var base64URLJSON: [String: Any]? {
        guard let bytes = try? Base64URL.decode(self) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }
}
