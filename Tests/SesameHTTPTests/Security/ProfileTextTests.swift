import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Audit items 7 and 13: identifiers were compared byte for byte, so NFC `josé@…` and NFD
/// `jose\u{301}@…` (or `Åsa` and `A\u{30A}sa`) became two users; and signup stored NUL, CR/LF, ESC
/// and U+202E in profile names that the Management API refused, from where they reached id tokens.
/// Identifiers are now NFC (emails also lower-cased) before uniqueness and lookup, and one rule
/// (`TextRules`) checks profile text on both paths.
@Suite("Audits 7 and 13: one form for identifiers, one rule for profile text")
struct ProfileTextTests {
    func signupChallenge(_ api: APIHarness, _ profile: [String: Any]) -> APIReply {
        api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": profile]))
    }

    func signUp(_ api: APIHarness, _ profile: [String: Any]) throws -> APIReply {
        let challenge = signupChallenge(api, profile)
        guard challenge.status == 200 else { return challenge }
        let credential = try api.authenticator().makeCredential(optionsJSON: challenge.body)
        return api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString,
            scope: "openid profile email")
    }

    @Test(arguments: HarnessStore.allCases)
    func composedAndDecomposedEmailsAreOneUser(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(try signUp(api, ["email": "jos\u{E9}@example.com"]).status == 200)
        for twin in ["jose\u{301}@example.com", "JOSE\u{301}@EXAMPLE.COM", "Jos\u{C9}@Example.com"] {
            let taken = signupChallenge(api, ["email": twin])
            #expect(taken.status == 400, "\(twin.unicodeScalars.map(\.value))")
            #expect(taken.errorDescription == "a user with this identifier already exists")
        }
        // The stored form is NFC, lower-cased.
        let users = api.send(.get, "/api/v2/users", token: try api.managementToken()).list
        #expect(
            users.compactMap { $0["email"] as? String }.map { Array($0.utf8) } == [Array("jos\u{E9}@example.com".utf8)])
    }

    @Test(arguments: HarnessStore.allCases)
    func composedAndDecomposedUsernamesAreOneUser(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(try signUp(api, ["email": "a@example.com", "username": "\u{C5}sa"]).status == 200)
        for twin in ["A\u{30A}sa", "\u{E5}sa", "a\u{30A}SA"] {
            let taken = signupChallenge(api, ["email": "b@example.com", "username": twin])
            #expect(taken.status == 400, "\(twin.unicodeScalars.map(\.value))")
        }
        // Through the Management API too: another user cannot take the decomposed form.
        let token = try api.managementToken()
        #expect(try signUp(api, ["email": "c@example.com"]).status == 200)
        let other = try #require(
            api.send(.get, "/api/v2/users?q=c%40example.com", token: token).list.first?["user_id"] as? String)
        let patched = api.send(
            .patch, "/api/v2/users/\(other.replacingOccurrences(of: "|", with: "%7C"))",
            json: APIHarness.encode(["username": "A\u{30A}sa"]), token: token)
        #expect(patched.status == 409)
        let email = api.send(
            .patch, "/api/v2/users/\(other.replacingOccurrences(of: "|", with: "%7C"))",
            json: APIHarness.encode(["email": "A@EXAMPLE.COM"]), token: token)
        #expect(email.status == 409)
    }

    static let unsafeNames = [
        "Ada\u{0}Lovelace", "Ada\r\nSet-Cookie: x", "Ada\u{1B}[31m", "Ada \u{202E}ecalevoL", "Ada\u{200B}", "Ada\u{85}",
        "\u{FEFF}Ada", "Ada\u{2028}",
    ]

    @Test(arguments: unsafeNames)
    func signupAndManagementRefuseTheSameUnsafeText(_ name: String) throws {
        let api = try APIHarness()
        let signup = signupChallenge(api, ["email": "ada@example.com", "name": name])
        #expect(signup.status == 400)
        #expect(
            signup.errorDescription
                == "user_profile.name must not contain control, invisible or bidirectional formatting characters")
        #expect(try signUp(api, ["email": "ada@example.com"]).status == 200)
        let token = try api.managementToken()
        let user = try #require(api.send(.get, "/api/v2/users", token: token).list.first?["user_id"] as? String)
        let patched = api.send(
            .patch, "/api/v2/users/\(user.replacingOccurrences(of: "|", with: "%7C"))",
            json: APIHarness.encode(["nickname": name]), token: token)
        #expect(patched.status == 400)
        #expect(
            patched.errorDescription
                == "nickname must not contain control, invisible or bidirectional formatting characters")
    }

    @Test(arguments: HarnessStore.allCases)
    func textThatScriptsAndEmojiNeedIsKeptOnBothPaths(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // emoji joined by ZWJ
        let persian = "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}"  // with ZWNJ
        let reply = try signUp(api, ["email": "ada@example.com", "name": family, "nickname": persian])
        #expect(reply.status == 200)
        let idToken = try #require(reply.json["id_token"] as? String)
        let claims = try #require(
            try JSONSerialization.jsonObject(
                with: Data(base64URL: String(idToken.split(separator: ".")[1])) ?? Data()) as? [String: Any])
        #expect(claims["name"] as? String == family)
        #expect(claims["nickname"] as? String == persian)
        let token = try api.managementToken()
        let user = try #require(api.send(.get, "/api/v2/users", token: token).list.first?["user_id"] as? String)
        let patched = api.send(
            .patch, "/api/v2/users/\(user.replacingOccurrences(of: "|", with: "%7C"))",
            json: APIHarness.encode(["given_name": family]), token: token)
        #expect(patched.status == 200)
    }

    @Test func identifiersWithUnsafeCharactersAreInvalid() throws {
        let api = try APIHarness()
        for email in ["ada\u{0}@example.com", "ada\u{202E}@example.com", "ada@exa\u{200B}mple.com"] {
            let reply = signupChallenge(api, ["email": email])
            #expect(reply.status == 400)
            #expect(reply.errorDescription == "user_profile.email is not valid")
        }
    }
}

extension Data {
    /// Decodes unpadded base64url (test helper).
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
