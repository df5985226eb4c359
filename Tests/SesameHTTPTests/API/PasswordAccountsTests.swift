import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import Synchronization
import Testing

/// Password accounts (docs/passwords.md) through the routed API, on every store: signup, both password
/// grants, the rules a connection publishes and enforces, hashing, imports and Management.
@Suite("Passwords: signup, the password grants, rules, imports")
struct PasswordAccountsTests {
    static let password = "correct horse battery staple"

    static func signUp(
        _ api: APIHarness, email: String, password: String = PasswordAccountsTests.password,
        extra: [String: Any] = [:]
    ) -> APIReply {
        var body: [String: Any] = [
            "client_id": api.bootstrap.clientID, "connection": Bootstrap.defaultConnectionName, "email": email,
            "password": password,
        ]
        body.merge(extra) { $1 }
        return api.send(.post, "/dbconnections/signup", json: APIHarness.encode(body))
    }

    static func logIn(
        _ api: APIHarness, username: String, password: String = PasswordAccountsTests.password,
        grant: String = "http://auth0.com/oauth/grant-type/password-realm", scope: String = "openid offline_access",
        from clientIP: String? = nil, via other: HTTPResponder? = nil
    ) -> APIReply {
        var body: [String: Any] = [
            "grant_type": grant, "client_id": api.bootstrap.clientID, "username": username, "password": password,
            "scope": scope,
        ]
        if grant.hasSuffix("password-realm") { body["realm"] = Bootstrap.defaultConnectionName }
        return api.send(.post, "/oauth/token", json: APIHarness.encode(body), via: other, clientIP: clientIP)
    }

    static func users(_ api: APIHarness) throws -> [UserRecord] {
        try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page(limit: 100)) }
    }

    static func claims(_ token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("signup, then both password grants, JSON and form", arguments: HarnessStore.allCases)
    func signUpAndLogIn(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let created = Self.signUp(api, email: "Ada@Example.com", extra: ["name": "Ada", "user_metadata": ["a": "b"]])
        #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
        #expect(created.json["email"] as? String == "ada@example.com")
        #expect(created.json["email_verified"] as? Bool == false)
        let id = try #require(created.json["_id"] as? String)
        #expect(!id.contains("|"))
        let stored = try #require(try Self.users(api).first)
        #expect(stored.id == "sesame|" + id)
        #expect(stored.password?.scheme == .argon2id)
        #expect(stored.password?.hash.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$") == true)
        #expect(stored.lastLoginAt == nil)

        let realm = Self.logIn(api, username: "ada@EXAMPLE.com")
        #expect(realm.status == 200, "\(String(decoding: realm.body, as: UTF8.self))")
        #expect(realm.json["refresh_token"] is String)
        let idToken = try Self.claims(try #require(realm.json["id_token"] as? String))
        #expect(idToken["sub"] as? String == stored.id)
        #expect(idToken["amr"] as? [String] == ["pwd"])
        let access = try Self.claims(try #require(realm.json["access_token"] as? String))
        #expect(access["amr"] as? [String] == ["pwd"])
        #expect(try Self.users(api).first?.lastLoginAt == api.clock.now())

        // The plain password grant uses the default connection, and the form body works too.
        let form =
            "grant_type=password&client_id=\(api.bootstrap.clientID)&username=ada%40example.com"
            + "&password=correct+horse+battery+staple&scope=openid"
        let plain = api.send(.post, "/oauth/token", json: form, contentType: "application/x-www-form-urlencoded")
        #expect(plain.status == 200, "\(String(decoding: plain.body, as: UTF8.self))")
        #expect(plain.json["refresh_token"] == nil)

        // The refresh token a password login gave renews.
        let refreshed = api.refresh(try #require(realm.json["refresh_token"] as? String))
        #expect(refreshed.status == 200)
    }

    @Test("an unknown user and a wrong password get the same 403, byte for byte", arguments: HarnessStore.allCases)
    func unknownAndWrongLookTheSame(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let wrong = Self.logIn(api, username: "ada@example.com", password: Self.password + "!")
        let unknown = Self.logIn(api, username: "nobody@example.com")
        #expect(wrong.status == 403)
        #expect(wrong.body == unknown.body)
        #expect(unknown.status == 403)
        #expect(
            String(decoding: wrong.body, as: UTF8.self)
                == #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#)
        // Never trimmed: a space more is another password.
        #expect(Self.logIn(api, username: "ada@example.com", password: Self.password + " ").status == 403)
    }

    @Test("a blocked user learns it only with the right password", arguments: HarnessStore.allCases)
    func blocked(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let id = try #require(Self.signUp(api, email: "ada@example.com").json["_id"] as? String)
        let token = try api.managementToken()
        #expect(
            api.send(.patch, "/api/v2/users/sesame%7C\(id)", json: #"{"blocked":true}"#, token: token).status == 200)
        let right = Self.logIn(api, username: "ada@example.com")
        #expect(right.status == 401)
        #expect(right.error == "unauthorized")
        #expect(right.errorDescription == "user is blocked")
        #expect(Self.logIn(api, username: "ada@example.com", password: "wrong password!").status == 403)
    }

    @Test("signup refusals in Auth0's database shape, and nothing written", arguments: HarnessStore.allCases)
    func signupRefusals(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let weak = Self.signUp(api, email: "ada@example.com", password: "short")
        #expect(weak.status == 400)
        #expect(weak.json["name"] as? String == "PasswordStrengthError")
        #expect(weak.json["code"] as? String == "invalid_password")
        #expect(weak.json["error"] as? String == "invalid_password")
        #expect(weak.json["message"] as? String == "Password is too weak")
        #expect(weak.json["statusCode"] as? Int == 400)
        let description = try #require(weak.json["description"] as? [String: Any])
        #expect(description["verified"] as? Bool == false)
        let rules = try #require(description["rules"] as? [[String: Any]])
        let length = try #require(rules.first { $0["code"] as? String == "lengthAtLeast" })
        #expect(length["format"] as? [Int] == [12])
        #expect(length["verified"] as? Bool == false)
        #expect((weak.json["policy"] as? String)?.contains("* At least 12 characters in length") == true)
        #expect(try Self.users(api).isEmpty)

        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let taken = Self.signUp(api, email: "ADA@example.com")
        #expect(taken.status == 400)
        #expect(
            taken.json["name"] as? String == "BadRequestError" && taken.json["code"] as? String == "user_exists"
                && taken.json["description"] as? String == "The user already exists.")

        // A tenant that hides taken identifiers answers invalid_signup.
        let token = try api.managementToken()
        #expect(
            api.send(
                .patch, "/api/v2/tenant/settings",
                json: #"{"flags":{"enable_public_signup_user_exists_error":false}}"#, token: token
            ).status == 200)
        let hidden = Self.signUp(api, email: "ada@example.com")
        #expect(hidden.status == 400)
        #expect(hidden.json["code"] as? String == "invalid_signup")
        #expect(hidden.json["description"] as? String == "Invalid sign up")

        // Malformed input is invalid_signup, naming the field.
        let malformed = Self.signUp(api, email: "not an email")
        #expect(malformed.status == 400)
        #expect(malformed.json["code"] as? String == "invalid_signup")
        #expect((malformed.json["description"] as? String)?.contains("email") == true)
        let noConnection = api.send(
            .post, "/dbconnections/signup",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "email": "b@example.com", "password": Self.password,
            ]))
        #expect(noConnection.json["code"] as? String == "invalid_signup")
        #expect(noConnection.json["description"] as? String == "connection is required")
        #expect(try Self.users(api).count == 1)
    }

    @Test("huge, NUL and invalid passwords get a 400 and write nothing", arguments: HarnessStore.allCases)
    func hostilePasswords(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let huge = String(repeating: "a", count: 1_025)
        for password in [huge, "correct horse\u{0}battery", ""] {
            let reply = Self.signUp(api, email: "ada@example.com", password: password)
            #expect(reply.status == 400, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.json["code"] as? String == "invalid_signup")
            let login = Self.logIn(api, username: "ada@example.com", password: password)
            #expect(login.status == 400)
            #expect(login.error == "invalid_request")
        }
        // 1,024 bytes of two-byte characters pass the byte limit; the rules' maxlength refuses them.
        let long = Self.signUp(api, email: "ada@example.com", password: String(repeating: "é", count: 512))
        #expect(long.json["code"] as? String == "invalid_password")
        // Invalid UTF-8 in the body.
        var bytes = Array(
            #"{"client_id":"\#(api.bootstrap.clientID)","connection":"Username-Password-Authentication","email":"x@example.com","password":"abc"#
                .utf8)
        bytes += [0xFF, 0xFE] + Array(#"defghijklmnop"}"#.utf8)
        let invalid = api.send(.post, "/dbconnections/signup", json: String(decoding: bytes, as: UTF8.self))
        #expect(invalid.status == 400)
        // Percent-escaped invalid UTF-8 in a form body, at the token endpoint.
        let form = api.send(
            .post, "/oauth/token",
            json:
                "grant_type=password&client_id=\(api.bootstrap.clientID)&username=ada%40example.com&password=%FF%FEabc",
            contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 400)
        #expect(form.error == "invalid_request")
        #expect(try Self.users(api).isEmpty)
    }

    @Test("a password is normalised (NFKC) before it is hashed and checked", arguments: HarnessStore.allCases)
    func normalisation(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        let connectionID = try #require(api.tenant.defaultConnectionID)
        #expect(
            api.send(
                .patch, "/api/v2/connections/\(connectionID)",
                json: #"{"options":{"password_policy":{"rules":"minlength: 8; allowed: unicode;"}}}"#, token: token
            ).status == 200)
        // Full-width letters and a decomposed é: NFKC gives "Password" + "é" precomposed.
        let typed = "Ｐａｓｓｗｏｒｄ e\u{301}"
        #expect(Self.signUp(api, email: "ada@example.com", password: typed).status == 200)
        #expect(Self.logIn(api, username: "ada@example.com", password: "Password \u{E9}").status == 200)
        #expect(Self.logIn(api, username: "ada@example.com", password: typed).status == 200)
    }

    @Test("the rules string is validated, published unchanged, and enforced", arguments: HarnessStore.allCases)
    func rules(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        let connectionID = try #require(api.tenant.defaultConnectionID)
        let published = api.send(.get, "/password-rules?client_id=\(api.bootstrap.clientID)")
        #expect(published.status == 200)
        #expect(published.json["rules"] as? String == PasswordPolicy.defaultRules)

        for (rules, problem) in [
            ("minlength: 0;", "at 11: minlength must not be 0"),
            ("minlength: 20; maxlength: 10;", "minlength 20 is over maxlength 10"),
            ("required: lower; bogus: 3;", #"at 17: unknown rule "bogus""#),
            ("allowed: [];", "at 9: the class is empty"),
        ] {
            let reply = api.send(
                .patch, "/api/v2/connections/\(connectionID)",
                json: APIHarness.encode(["options": ["password_policy": ["rules": rules]]]), token: token)
            #expect(reply.status == 400, "\(rules)")
            #expect(reply.errorDescription?.contains(problem) == true, "\(reply.errorDescription ?? "")")
        }
        let rules = "minlength: 10; required: lower; required: upper; required: digit; max-consecutive: 2;"
        #expect(
            api.send(
                .patch, "/api/v2/connections/\(connectionID)",
                json: APIHarness.encode(["options": ["password_policy": ["rules": rules]]]), token: token
            ).status == 200)
        let connection = api.send(.get, "/api/v2/connections/\(connectionID)", token: token)
        let options = try #require(connection.json["options"] as? [String: Any])
        #expect((options["password_policy"] as? [String: Any])?["rules"] as? String == rules)
        #expect((options["password_complexity_options"] as? [String: Any])?["min_length"] as? Int == 10)
        #expect(
            api.send(
                .get,
                "/password-rules?client_id=\(api.bootstrap.clientID)&connection=\(Bootstrap.defaultConnectionName)"
            ).json["rules"] as? String == rules)
        let missing = Self.signUp(api, email: "ada@example.com", password: "qwmzrtyplk1")
        #expect(missing.json["code"] as? String == "invalid_password")
        let verdicts = try #require((missing.json["description"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(verdicts.filter { $0["verified"] as? Bool == false }.count == 1)
        #expect(
            Self.signUp(api, email: "ada@example.com", password: "aaabcdefgH1").json["code"] as? String
                == "invalid_password")
        #expect(Self.signUp(api, email: "ada@example.com", password: "Xy7Qp2Lm9Za").status == 200)
        // Unknown client, unknown connection.
        #expect(api.send(.get, "/password-rules?client_id=nobody").status == 401)
        #expect(api.send(.get, "/password-rules?client_id=\(api.bootstrap.clientID)&connection=none").status == 400)
        #expect(api.send(.get, "/password-rules").status == 400)
    }

    @Test("a client needs the password grants enabled", arguments: HarnessStore.allCases)
    func grantMustBeEnabled(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        #expect(
            api.send(
                .patch, "/api/v2/clients/\(api.bootstrap.clientID)",
                json: #"{"grant_types":["urn:okta:params:oauth:grant-type:webauthn","refresh_token"]}"#, token: token
            ).status == 200)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let reply = Self.logIn(api, username: "ada@example.com")
        #expect(reply.status == 403)
        #expect(reply.error == "unauthorized_client")
    }

    @Test("Management sets a password; the method is listed; an old hash is replaced", arguments: HarnessStore.allCases)
    func managementPassword(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        let id = "sesame%7C" + (try #require(Self.signUp(api, email: "ada@example.com").json["_id"] as? String))
        let weak = api.send(.patch, "/api/v2/users/\(id)", json: #"{"password":"short"}"#, token: token)
        #expect(weak.status == 400)
        #expect(weak.json["name"] as? String == "PasswordStrengthError")
        let other = api.send(
            .patch, "/api/v2/users/\(id)", json: #"{"password":"another long passphrase","connection":"Other"}"#,
            token: token)
        #expect(other.status == 400)
        let methodsBefore = api.send(.get, "/api/v2/users/\(id)/authentication-methods", token: token).list
        #expect(
            api.send(
                .patch, "/api/v2/users/\(id)",
                json: #"{"password":"another long passphrase","connection":"Username-Password-Authentication"}"#,
                token: token
            ).status == 200)
        #expect(Self.logIn(api, username: "ada@example.com").status == 403)
        #expect(Self.logIn(api, username: "ada@example.com", password: "another long passphrase").status == 200)
        let methods = api.send(.get, "/api/v2/users/\(id)/authentication-methods", token: token).list
        #expect(methods.count == 1)
        #expect(methods.first?["type"] as? String == "password")
        #expect(methods.first?["id"] as? String == methodsBefore.first?["id"] as? String)
        #expect((methods.first?["id"] as? String)?.hasPrefix("password|") == true)

        // New hashing parameters: the next login rehashes with them.
        let connectionID = try #require(api.tenant.defaultConnectionID)
        #expect(
            api.send(
                .patch, "/api/v2/connections/\(connectionID)",
                json: #"{"options":{"password_hashing":{"memory_cost":12288,"time_cost":3}}}"#, token: token
            ).status == 200)
        let weakHashing = api.send(
            .patch, "/api/v2/connections/\(connectionID)",
            json: #"{"options":{"password_hashing":{"memory_cost":8192,"time_cost":1}}}"#, token: token)
        #expect(weakHashing.status == 400)
        #expect(Self.logIn(api, username: "ada@example.com", password: "another long passphrase").status == 200)
        let hash = try #require(try Self.users(api).first?.password?.hash)
        #expect(hash.hasPrefix("$argon2id$v=19$m=12288,t=3,p=1$"))

        // An administrator removes the password: no way in with it any more.
        let methodID = try #require(methods.first?["id"] as? String).replacingOccurrences(of: "|", with: "%7C")
        #expect(
            api.send(.delete, "/api/v2/users/\(id)/authentication-methods/\(methodID)", token: token).status == 204)
        #expect(Self.logIn(api, username: "ada@example.com", password: "another long passphrase").status == 403)
    }

    /// Vectors made by other implementations (scripts/password-hash-vectors.py).
    static func importVector(_ scheme: String) throws -> (password: String, hash: String) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data/password-hashes/vectors.json")
        let vectors = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        let vector = try #require(vectors.first { $0["scheme"] == scheme && $0["password"]?.utf8.count ?? 99 <= 72 })
        return (try #require(vector["password"]), try #require(vector["hash"]))
    }

    @Test("imported hashes work once, then are Argon2id", arguments: HarnessStore.allCases)
    func imports(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        var expected: [(String, String)] = []
        for (index, scheme) in ["bcrypt", "argon2", "pbkdf2", "sha256-salted"].enumerated() {
            let vector = try Self.importVector(scheme)
            var custom: [String: Any]
            if scheme == "sha256-salted" {
                let fields = vector.hash.split(separator: "$", omittingEmptySubsequences: false)
                custom = [
                    "algorithm": "sha256",
                    "hash": ["value": String(fields[4]) + "=", "encoding": "base64"],
                    "salt": ["value": String(fields[3]) + "=", "encoding": "base64", "position": String(fields[2])],
                ]
            } else {
                custom = ["algorithm": scheme, "hash": ["value": vector.hash]]
            }
            let email = "user\(index)@example.com"
            let created = api.send(
                .post, "/api/v2/users",
                json: APIHarness.encode([
                    "connection": Bootstrap.defaultConnectionName, "email": email, "email_verified": true,
                    "custom_password_hash": custom,
                ]), token: token)
            #expect(created.status == 201, "\(scheme): \(String(decoding: created.body, as: UTF8.self))")
            #expect(created.json["email_verified"] as? Bool == true)
            expected.append((email, vector.password))
        }
        let before = try Self.users(api)
        #expect(Set(before.compactMap { $0.password?.scheme }) == [.bcrypt, .argon2, .pbkdf2, .sha256Salted])
        for (email, password) in expected {
            #expect(Self.logIn(api, username: email, password: password + "x").status == 403, "\(email)")
            #expect(Self.logIn(api, username: email, password: password).status == 200, "\(email)")
        }
        let after = try Self.users(api)
        #expect(after.allSatisfy { $0.password?.scheme == .argon2id })
        for (email, password) in expected {
            #expect(Self.logIn(api, username: email, password: password).status == 200, "\(email)")
        }
        #expect(try Self.users(api).map(\.password) == after.map(\.password))
    }

    static let malformedImportCases: [(String, String)] = [
        (#"{"algorithm":"md5","hash":{"value":"x"}}"#, "custom_password_hash.algorithm"),
        (#"{"algorithm":"bcrypt","hash":{"value":"$2b$99$x"}}"#, "custom_password_hash.hash.value"),
        (
            #"{"algorithm":"argon2","hash":{"value":"$argon2id$v=19$m=9999999,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"}}"#,
            "custom_password_hash.hash.value"
        ),
        (#"{"algorithm":"sha256","hash":{"value":"zz","encoding":"hex"}}"#, "custom_password_hash.hash.encoding"),
        (#"{"algorithm":"sha256","hash":{"value":"abcd","encoding":"hex"}}"#, "custom_password_hash.hash.value"),
        (#"{"algorithm":"bcrypt","hash":{"value":"x"},"password":{"encoding":"utf16le"}}"#, "password.encoding"),
    ]

    @Test("a malformed import is refused naming the field, and nothing is written", arguments: HarnessStore.allCases)
    func malformedImports(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        for (custom, field) in Self.malformedImportCases {
            let reply = api.send(
                .post, "/api/v2/users",
                json:
                    #"{"connection":"Username-Password-Authentication","email":"a@example.com","custom_password_hash":"#
                    + custom + "}", token: token)
            #expect(reply.status == 400)
            #expect(reply.errorDescription?.contains(field) == true, "\(reply.errorDescription ?? "")")
        }
        let both = api.send(
            .post, "/api/v2/users",
            json:
                #"{"connection":"Username-Password-Authentication","email":"a@example.com","password":"long enough password","custom_password_hash":{"algorithm":"bcrypt","hash":{"value":"x"}}}"#,
            token: token)
        #expect(both.status == 400)
        #expect(try Self.users(api).isEmpty)
    }

    @Test("My Account lists the password and keeps one way in", arguments: HarnessStore.allCases)
    func myAccount(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let body: [String: Any] = [
            "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
            "username": "ada@example.com", "password": Self.password, "realm": Bootstrap.defaultConnectionName,
            "scope": "openid", "audience": TokenService.myAccountAudience(api.tenant),
        ]
        let login = api.send(.post, "/oauth/token", json: APIHarness.encode(body))
        let token = try #require(login.json["access_token"] as? String)
        let listed = api.send(.get, "/me/v1/authentication-methods", token: token)
        let methods = try #require(listed.json["authentication_methods"] as? [[String: Any]])
        #expect(methods.count == 1)
        #expect(methods.first?["type"] as? String == "password")
        #expect(methods.first?["usage"] as? [String] == ["primary"])
        let passwordID = try #require(methods.first?["id"] as? String)
        let escaped = passwordID.replacingOccurrences(of: "|", with: "%7C")
        // The password is the only way in: it stays.
        #expect(api.send(.delete, "/me/v1/authentication-methods/\(escaped)", token: token).status == 409)
        // With a passkey beside it, it can go.
        let passkey = try api.enroll(api.authenticator(), accessToken: token)
        let passwords = api.send(.get, "/me/v1/authentication-methods?type=password", token: token)
        #expect((passwords.json["authentication_methods"] as? [Any])?.count == 1)
        #expect(api.send(.delete, "/me/v1/authentication-methods/\(escaped)", token: token).status == 204)
        #expect(Self.logIn(api, username: "ada@example.com").status == 403)
        #expect(!passkey.isEmpty)
    }

    @Test("ten failures lock one account from one address, and nothing else", arguments: HarnessStore.allCases)
    func bruteForce(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        #expect(Self.signUp(api, email: "bob@example.com").status == 200)
        let attacker = "198.51.100.7"
        for _ in 0..<10 {
            #expect(
                Self.logIn(api, username: "ada@example.com", password: "guess guess guess", from: attacker).status
                    == 403)
        }
        let locked = Self.logIn(api, username: "ada@example.com", from: attacker)
        #expect(locked.status == 429)
        #expect(locked.error == "too_many_attempts")
        #expect(locked.headers["Retry-After"].flatMap(Int.init) == 3_600)
        // Another address, another account from the same address, and a passkey all still work.
        #expect(Self.logIn(api, username: "ada@example.com", from: "198.51.100.8").status == 200)
        #expect(Self.logIn(api, username: "bob@example.com", from: attacker).status == 200)
        // An unknown account locks the same way (the 429 tells nothing about who exists).
        for _ in 0..<10 { _ = Self.logIn(api, username: "nobody@example.com", from: attacker) }
        #expect(Self.logIn(api, username: "nobody@example.com", from: attacker).status == 429)
        // The window slides from the last failure; an hour later the pair may try again.
        api.clock.advance(by: 3_601)
        #expect(Self.logIn(api, username: "ada@example.com", from: attacker).status == 200)
        // A success clears the count: nine more failures do not lock.
        for _ in 0..<9 {
            _ = Self.logIn(api, username: "ada@example.com", password: "guess guess guess", from: attacker)
        }
        #expect(Self.logIn(api, username: "ada@example.com", from: attacker).status == 200)
        // A new password clears it for every address.
        for _ in 0..<10 {
            _ = Self.logIn(api, username: "ada@example.com", password: "guess guess guess", from: attacker)
        }
        #expect(Self.logIn(api, username: "ada@example.com", from: attacker).status == 429)
        let token = try api.managementToken()
        let id = try #require(try Self.users(api).first { $0.profile.email == "ada@example.com" }?.id)
        #expect(
            api.send(
                .patch, "/api/v2/users/\(id.replacingOccurrences(of: "|", with: "%7C"))",
                json: #"{"password":"a brand new passphrase"}"#, token: token
            ).status == 200)
        #expect(
            Self.logIn(api, username: "ada@example.com", password: "a brand new passphrase", from: attacker).status
                == 200)
    }

    @Test("failures from one address across accounts are capped too", arguments: HarnessStore.allCases)
    func perAddressLimit(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let address = "203.0.113.99"
        for index in 0..<100 {
            #expect(Self.logIn(api, username: "user\(index)@example.com", from: address).status == 403)
        }
        let capped = Self.logIn(api, username: "someone@example.com", from: address)
        #expect(capped.status == 429)
        #expect(capped.error == "too_many_attempts")
        #expect(Self.logIn(api, username: "someone@example.com", from: "203.0.113.100").status == 403)
    }

    static func requestReset(_ api: APIHarness, email: String) -> APIReply {
        api.send(
            .post, "/dbconnections/change_password",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "email": email, "connection": Bootstrap.defaultConnectionName,
            ]))
    }

    /// The ticket of the newest reset message to `email`, read through `GET /api/v2/outbox`.
    static func resetTicket(_ api: APIHarness, email: String) throws -> String? {
        try api.outboxTicket(to: email, template: "password_reset")
    }

    @Test(
        "a reset link by the outbox: single use, 30 minutes, the same answer for anyone",
        arguments: HarnessStore.allCases)
    func passwordReset(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let refresh = try #require(Self.logIn(api, username: "ada@example.com").json["refresh_token"] as? String)
        let asked = Self.requestReset(api, email: "ADA@example.com")
        #expect(asked.status == 200)
        #expect(asked.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(String(decoding: asked.body, as: UTF8.self) == "We've just sent you an email to reset your password.")
        let unknown = Self.requestReset(api, email: "nobody@example.com")
        #expect(unknown.status == 200)
        #expect(unknown.body == asked.body)
        let token = try api.managementToken()
        let outbox = api.send(.get, "/api/v2/outbox", token: token).list
        #expect(outbox.count == 1)
        #expect(outbox.first?["to"] as? String == "ada@example.com")
        #expect(outbox.first?["template"] as? String == "password_reset")
        #expect(outbox.first?["channel"] as? String == "email")
        let ticket = try #require(try Self.resetTicket(api, email: "ada@example.com"))
        #expect((outbox.first?["text"] as? String)?.contains("http://login.test:8080/u/reset-password?ticket=") == true)
        // The link is sealed at rest.
        let stored = try #require(
            try api.store.read { try $0.outbox.list(tenantID: api.tenant.id, page: Page()) }.first)
        #expect(!String(decoding: stored.sealedText, as: UTF8.self).contains(ticket))
        #expect(api.send(.get, "/api/v2/outbox", token: try api.managementToken(scope: "read:users")).status == 403)

        func reset(_ ticket: String, _ password: String) -> APIReply {
            api.send(
                .post, "/dbconnections/reset_password",
                json: APIHarness.encode(["ticket": ticket, "password": password]))
        }
        // A weak password is refused and the ticket is not spent.
        #expect(reset(ticket, "short").json["code"] as? String == "invalid_password")
        #expect(reset(ticket, "a new long passphrase").status == 200)
        #expect(reset(ticket, "another new passphrase").status == 400)
        #expect(reset(ticket, "another new passphrase").error == "invalid_grant")
        #expect(Self.logIn(api, username: "ada@example.com").status == 403)
        #expect(Self.logIn(api, username: "ada@example.com", password: "a new long passphrase").status == 200)
        // Every refresh token of the user was revoked.
        #expect(api.refresh(refresh).status == 400)

        // A ticket lives 30 minutes.
        #expect(Self.requestReset(api, email: "ada@example.com").status == 200)
        let late = try #require(try Self.resetTicket(api, email: "ada@example.com"))
        api.clock.advance(by: 30 * 60 + 1)
        #expect(reset(late, "yet another passphrase").error == "invalid_grant")
        // A password set after the ticket was sent voids it.
        #expect(Self.requestReset(api, email: "ada@example.com").status == 200)
        let voided = try #require(try Self.resetTicket(api, email: "ada@example.com"))
        let id = try #require(try Self.users(api).first?.id).replacingOccurrences(of: "|", with: "%7C")
        #expect(
            api.send(.patch, "/api/v2/users/\(id)", json: #"{"password":"set by an admin now"}"#, token: token).status
                == 200)
        #expect(reset(voided, "yet another passphrase").error == "invalid_grant")
        #expect(reset("not-a-ticket", "yet another passphrase").error == "invalid_grant")
        #expect(reset("", "yet another passphrase").status == 400)
    }

    @Test("at most five reset links wait per user", arguments: HarnessStore.allCases)
    func resetLinksAreCapped(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        for _ in 0..<7 { #expect(Self.requestReset(api, email: "ada@example.com").status == 200) }
        #expect(api.send(.get, "/api/v2/outbox", token: try api.managementToken()).list.count == 5)
    }

    static func enableBreachDetection(_ api: APIHarness, _ settings: [String: Any] = [:]) throws {
        var body = settings
        body["enabled"] = true
        let reply = api.send(
            .patch, "/api/v2/attack-protection/breached-password-detection", json: APIHarness.encode(body),
            token: try api.managementToken())
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
    }

    @Test(
        "breached passwords: refused at signup and reset, reported or blocked at login",
        arguments: HarnessStore.allCases)
    func breached(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        // Detection off: the test prefix is just a password.
        #expect(Self.signUp(api, email: "early@example.com", password: "AUTH0-TEST-early-one").status == 200)
        let token = try api.managementToken()
        let defaults = api.send(.get, "/api/v2/attack-protection/breached-password-detection", token: token)
        #expect(defaults.json["enabled"] as? Bool == false)
        try Self.enableBreachDetection(api)
        let settings = api.send(.get, "/api/v2/attack-protection/breached-password-detection", token: token).json
        #expect(
            (settings["stage"] as? [String: [String: [String]]])?["pre-user-registration"]?["shields"] == ["block"])
        for password in ["AUTH0-TEST-anything-at-all", "qwerty123456", "QWERTY123456", "Paat739!!WWXXYYZZ"] {
            let refused = Self.signUp(api, email: "ada@example.com", password: password)
            #expect(refused.status == 400, "\(password)")
            #expect(refused.json["code"] as? String == "password_leaked", "\(password)")
        }
        #expect(try Self.users(api).count == 1)
        // At login: reported, with what to move to.
        let reported = Self.logIn(api, username: "early@example.com", password: "AUTH0-TEST-early-one")
        #expect(reported.status == 200)
        #expect(reported.json["password_status"] as? String == "breached")
        #expect(reported.json["recommended_upgrades"] as? [String] == ["passkey", "strong_password"])
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        #expect(Self.logIn(api, username: "ada@example.com").json["password_status"] as? String == "ok")
        // Blocked, with Auth0's text, and the user told once an hour.
        try Self.enableBreachDetection(api, ["shields": ["block", "user_notification"]])
        let blocked = Self.logIn(api, username: "early@example.com", password: "AUTH0-TEST-early-one")
        #expect(blocked.status == 401)
        #expect(blocked.error == "password_leaked")
        #expect(blocked.errorDescription?.hasPrefix("This login attempt has been blocked because the password") == true)
        _ = Self.logIn(api, username: "early@example.com", password: "AUTH0-TEST-early-one")
        let notices = api.send(.get, "/api/v2/outbox?to=early@example.com", token: token).list
        #expect(notices.map { $0["template"] as? String } == ["breached_password"])
        // A reset to a breached password is refused; to a good one it works.
        api.clock.advance(by: 1)
        #expect(Self.requestReset(api, email: "early@example.com").status == 200)
        let ticket = try #require(try Self.resetTicket(api, email: "early@example.com"))
        let leaked = api.send(
            .post, "/dbconnections/reset_password",
            json: APIHarness.encode(["ticket": ticket, "password": "AUTH0-TEST-still-leaky"]))
        #expect(leaked.json["code"] as? String == "password_leaked")
        #expect(
            api.send(
                .post, "/dbconnections/reset_password",
                json: APIHarness.encode(["ticket": ticket, "password": "a fresh and private phrase"])
            ).status == 200)
        #expect(Self.logIn(api, username: "early@example.com", password: "a fresh and private phrase").status == 200)
        // A tightened rule makes an old password weak.
        let connectionID = try #require(api.tenant.defaultConnectionID)
        #expect(
            api.send(
                .patch, "/api/v2/connections/\(connectionID)",
                json: #"{"options":{"password_policy":{"rules":"minlength: 12; required: digit;"}}}"#, token: token
            ).status == 200)
        let weak = Self.logIn(api, username: "ada@example.com")
        #expect(weak.json["password_status"] as? String == "weak")
    }

    static let breachSettingsCases: [(String, String)] = [
        (#"{"shields":["block","shout"]}"#, "shields[1]"),
        (#"{"method":"enhanced"}"#, "range_url"),
        (#"{"range_url":"http://example.com/range/"}"#, "range_url"),
        (#"{"stage":{"pre-user-registration":{"shields":["user_notification"]}}}"#, "pre-user-registration"),
        (#"{"admin_notification_frequency":["hourly"]}"#, "admin_notification_frequency[0]"),
        (#"{"enabled":"yes"}"#, "enabled"),
    ]

    @Test(
        "breached-password settings are validated, and a refused change changes nothing",
        arguments: HarnessStore.allCases)
    func breachSettingsValidation(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        for (body, field) in Self.breachSettingsCases {
            let reply = api.send(
                .patch, "/api/v2/attack-protection/breached-password-detection", json: body, token: token)
            #expect(reply.status == 400)
            #expect(reply.errorDescription?.contains(field) == true, "\(reply.errorDescription ?? "")")
        }
        let tenant = try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) })
        #expect(tenant.breachedPasswords == BreachedPasswordSettings())
    }

    @Test("the enhanced method asks a k-anonymity range endpoint (a local fake)", arguments: HarnessStore.allCases)
    func rangeEndpoint(_ kind: HarnessStore) throws {
        // The fake lists SHA-1("correct horse battery staple") with padding lines of count 0.
        let listed = "correct horse battery staple"
        let digest = Digest.hash(Array(listed.utf8), with: .legacySHA1).map { String(format: "%02X", $0) }.joined()
        let padded = "\(String(digest.dropFirst(5))):3\r\n" + String(repeating: "0", count: 35) + ":0\r\n"
        let asked = Mutex<[String]>([])
        var router = Router()
        router.get("/range/{prefix}") { request, context in
            let prefix = try context.pathParameter("prefix")
            asked.withLock { $0.append(prefix + (request.headers["Add-Padding"] ?? "")) }
            return .text(prefix == String(digest.prefix(5)) ? padded : "")
        }
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        let server = try HTTPServer(
            configuration: configuration, router: router, metrics: Metrics(),
            log: RequestLog(level: .error, sink: { _ in }))
        let api = try APIHarness(store: kind)
        try Self.enableBreachDetection(
            api, ["method": "enhanced", "range_url": "http://127.0.0.1:\(server.port)/range/"])
        #expect(
            Self.signUp(api, email: "ada@example.com", password: listed).json["code"] as? String == "password_leaked")
        #expect(asked.withLock { $0 } == [String(digest.prefix(5)) + "true"])
        #expect(Self.signUp(api, email: "ada@example.com", password: "a phrase nobody has leaked").status == 200)
        // The endpoint down: the offline corpus still answers, and the signup is not held up.
        server.stop(gracePeriod: 0)
        #expect(Self.signUp(api, email: "bob@example.com", password: listed).status == 200)
        #expect(
            Self.signUp(api, email: "cat@example.com", password: "qwerty123456").json["code"] as? String
                == "password_leaked")
    }

    @Test("a password login finds the hash gate full: 503 with Retry-After, and nothing counted")
    func hashGateFull() throws {
        let api = try APIHarness()
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let gate = api.application.passwords.gate
        let replies = try gate.run {
            // Every slot (one per core) is taken by this and by the nested runs below.
            try Self.occupy(gate, remaining: gate.maxConcurrent - 1) {
                // The waiting room is full too: refused at once, more often than the lockout allows.
                try Self.fillQueue(gate) {
                    (0..<12).map { _ in Self.logIn(api, username: "ada@example.com", password: "wrong password!") }
                }
            }
        }
        #expect(replies.allSatisfy { $0.status == 503 })
        #expect(replies.first?.error == "temporarily_unavailable")
        #expect(replies.first?.headers["Retry-After"] == "1")
        // The refused attempts checked nothing, so they counted for nothing.
        #expect(Self.logIn(api, username: "ada@example.com").status == 200)
    }

    /// Runs `body` while `remaining` more slots of `gate` are held (nested, on this thread).
    static func occupy<T>(_ gate: PasswordHashGate, remaining: Int, _ body: () throws -> T) throws -> T {
        guard remaining > 0 else { return try body() }
        return try gate.run { try occupy(gate, remaining: remaining - 1, body) }
    }

    /// Runs `body` while the gate's waiting room is full (waiters parked on other threads).
    static func fillQueue<T>(_ gate: PasswordHashGate, _ body: () throws -> T) throws -> T {
        for _ in 0..<gate.maxWaiting { Thread.detachNewThread { _ = try? gate.run {} } }
        for _ in 0..<2_000 where gate.queued < gate.maxWaiting { usleep(1_000) }
        return try body()
    }

    @Test(
        "concurrent failures in two processes sharing the store lock at exactly ten",
        arguments: HarnessStore.allCases.filter { $0 != .memory })
    func concurrentFailuresAcrossProcesses(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(Self.signUp(api, email: "ada@example.com").status == 200)
        let peer = try api.peer()
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let reply = Self.logIn(
                api, username: "ada@example.com", password: "guess number \(index)", from: "198.51.100.9",
                via: index.isMultiple(of: 2) ? peer : nil)
            statuses.withLock { $0.append(reply.status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 403 }.count == 10, "\(all)")
        #expect(all.filter { $0 == 429 }.count == 10, "\(all)")
        #expect(Self.logIn(api, username: "ada@example.com", from: "198.51.100.9", via: peer).status == 429)
    }
}
