import Foundation
import SesameClient
import Testing

@Suite("Prefer-passkey stores")
struct PreferPasskeyStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-prefer-\(UUID().uuidString)")
    var nested: String { directory.appendingPathComponent("state").path }
    var file: String { directory.appendingPathComponent("state/prefer-passkey.json").path }

    let ada = PreferPasskeyKey(tenant: "https://login.example.com", userID: "user-ada")
    let bob = PreferPasskeyKey(tenant: "https://login.example.com", userID: "user-bob")
    let adaElsewhere = PreferPasskeyKey(tenant: "https://other.example.com", userID: "user-ada")

    @Test func theFileStoreSetsAndClearsPerUserAndTenant() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FilePreferPasskeyStore(directory: nested)
        #expect(store.prefersPasskey(ada) == false)
        try store.clearPrefersPasskey(ada)  // clearing what is not set is fine, and writes nothing
        #expect(!FileManager.default.fileExists(atPath: file))

        try store.setPrefersPasskey(ada)
        try store.setPrefersPasskey(ada)  // twice is once
        #expect(store.prefersPasskey(ada))
        #expect(!store.prefersPasskey(bob))
        #expect(!store.prefersPasskey(adaElsewhere))

        try store.setPrefersPasskey(bob)
        try store.clearPrefersPasskey(ada)
        #expect(!store.prefersPasskey(ada))
        #expect(store.prefersPasskey(bob))
    }

    @Test func theFileSurvivesReopeningAndIsPrivate() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FilePreferPasskeyStore(directory: nested).setPrefersPasskey(ada)
        try FilePreferPasskeyStore(directory: nested).setPrefersPasskey(adaElsewhere)

        let reopened = FilePreferPasskeyStore(directory: nested)
        #expect(reopened.path == file)
        #expect(reopened.prefersPasskey(ada))
        #expect(reopened.prefersPasskey(adaElsewhere))
        #expect(!reopened.prefersPasskey(bob))

        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let parent = try FileManager.default.attributesOfItem(atPath: nested)
        #expect((parent[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested) == ["prefer-passkey.json"])

        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""format" : "sesame-prefer-passkey""#))
        #expect(text.contains(#""user_id" : "user-ada""#))
    }

    @Test(arguments: [
        "", "{", "[]", #"{"format":"other","version":1,"users":[]}"#,
        #"{"format":"sesame-prefer-passkey","version":2,"users":[{"tenant":"https://login.example.com","user_id":"user-ada"}]}"#,
        #"{"format":"sesame-prefer-passkey","version":1,"users":[{"tenant":"https://login.example.com"}]}"#,
    ])
    func aBadFileCountsAsUnsetAndTheNextChangeRepairsIt(contents: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        let store = FilePreferPasskeyStore(directory: nested)
        #expect(!store.prefersPasskey(ada))

        try store.setPrefersPasskey(bob)
        #expect(store.prefersPasskey(bob))
        #expect(FilePreferPasskeyStore(directory: nested).prefersPasskey(bob))
        #expect(!FilePreferPasskeyStore(directory: nested).prefersPasskey(ada))
    }

    @Test func aFileThatCannotBeReadCountsAsUnset() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory where the file should be: unreadable as a file, and not replaceable either.
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
        let store = FilePreferPasskeyStore(directory: nested)
        #expect(!store.prefersPasskey(ada))
        #expect(throws: CredentialsStoreError.self) { try store.setPrefersPasskey(ada) }
    }

    @Test func theMemoryStoreKeepsASet() {
        let store = InMemoryPreferPasskeyStore([bob])
        #expect(store.prefersPasskey(bob))
        store.setPrefersPasskey(ada)
        store.clearPrefersPasskey(bob)
        #expect(store.flagged == [ada])
    }

    @Test func aKeyNamesTheTenantAsTheConfigurationDoes() {
        let configuration = SesameConfiguration(
            domain: URL(string: "https://login.example.com/") ?? Fixture.domain, clientID: "c")
        #expect(PreferPasskeyKey(configuration: configuration, userID: "user-ada") == ada)
    }
}

@Suite("The prefer-passkey flag follows token responses and enrollments")
struct PreferPasskeyWiringTests {
    func tokens(authMethod: String, sub: String = "user-ada") -> String {
        #"{"access_token":"\#(Fixture.jwt(sub: sub))","id_token":"\#(Fixture.jwt(sub: sub))","token_type":"Bearer","#
            + #""expires_in":3600,"auth_method":"\#(authMethod)"}"#
    }

    @Test func aPasskeySignInSetsTheFlagOfTheUserItNames() async throws {
        let store = InMemoryPreferPasskeyStore()
        let transport = StubTransport([.http(200, Fixture.loginChallenge), .http(200, tokens(authMethod: "passkey"))])
        let authentication = SesameAuthentication(
            configuration: Fixture.configuration, transport: transport, now: { Fixture.start },
            preferPasskeyStore: store)
        let credentials = try await authentication.logIn(provider: StubProvider())
        #expect(credentials.authMethod == .passkey)
        #expect(credentials.userID == "user-ada")
        #expect(store.flagged == [Fixture.user("user-ada")])
    }

    @Test(arguments: ["password", "refresh", "device_key"])
    func otherMethodsLeaveTheFlagAlone(method: String) async throws {
        let store = InMemoryPreferPasskeyStore()
        let transport = StubTransport([.http(200, tokens(authMethod: method))])
        let authentication = SesameAuthentication(
            configuration: Fixture.configuration, transport: transport, now: { Fixture.start },
            preferPasskeyStore: store)
        _ = try await authentication.renew(withRefreshToken: "rt-1")
        #expect(store.flagged.isEmpty)
    }

    @Test func anythingThatLoginsGoesThroughTheSamePlace() async throws {
        // A password login answered auth_method passkey (a server that says so) sets it too: the
        // token endpoint's answer decides, whatever the grant.
        let store = InMemoryPreferPasskeyStore()
        let transport = StubTransport([.http(200, tokens(authMethod: "passkey", sub: "user-bob"))])
        let authentication = SesameAuthentication(
            configuration: Fixture.configuration, transport: transport, now: { Fixture.start },
            preferPasskeyStore: store)
        _ = try await authentication.login(usernameOrEmail: "bob", password: "pw", realmOrConnection: "db")
        #expect(store.flagged == [Fixture.user("user-bob")])
    }

    @Test func withoutAStoreNothingIsWrittenAndTheLoginStillWorks() async throws {
        let transport = StubTransport([.http(200, tokens(authMethod: "passkey"))])
        let credentials = try await Fixture.authentication(transport).renew(withRefreshToken: "rt-1")
        #expect(credentials.accessToken == Fixture.jwt(sub: "user-ada"))
    }

    @Test func aStoreThatCannotBeWrittenDoesNotFailTheSignIn() async throws {
        let transport = StubTransport([.http(200, tokens(authMethod: "passkey"))])
        let authentication = SesameAuthentication(
            configuration: Fixture.configuration, transport: transport, now: { Fixture.start },
            preferPasskeyStore: BrokenPreferPasskeyStore())
        let credentials = try await authentication.renew(withRefreshToken: "rt-1")
        #expect(credentials.authMethod == .passkey)
    }

    @Test func aPasskeyEnrollmentSetsTheFlag() async throws {
        let store = InMemoryPreferPasskeyStore()
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]),
            .http(201, #"{"id":"passkey|abc","type":"passkey","name":"Phone","key_id":"Y3JlZC0x"}"#),
        ])
        let account = MyAccount(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "user-ada"), transport: transport,
            preferPasskeyStore: store)
        #expect(account.userID == "user-ada")
        _ = try await account.enrollPasskey(provider: StubProvider())
        #expect(store.flagged == [Fixture.user("user-ada")])
    }

    @Test(arguments: [
        // My Account's RFC 9457 problem, as the server answers it.
        #"{"type":"urn:sesame:error:already_registered","status":409,"title":"already_registered","#
            + #""detail":"a passkey from this provider exists","provider":"iCloud Keychain"}"#,
        // The OAuth form of the same error.
        #"{"error":"already_registered","error_description":"a passkey from this provider exists","#
            + #""provider":"iCloud Keychain"}"#,
    ])
    func alreadyRegisteredNamesTheProviderAndThereIsAPasskeyToPrefer(answer: String) async throws {
        let store = InMemoryPreferPasskeyStore()
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]), .http(409, answer),
        ])
        let account = MyAccount(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "user-ada"), transport: transport,
            preferPasskeyStore: store)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await account.enrollPasskey(provider: StubProvider())
        }
        #expect(error?.code == "already_registered")
        #expect(error?.isAlreadyRegistered == true)
        #expect(error?.statusCode == 409)
        #expect(error?.errorDescription == "a passkey from this provider exists")
        #expect(error?.alreadyRegisteredProvider == "iCloud Keychain")
        #expect(store.flagged == [Fixture.user("user-ada")])
    }

    @Test func anAlreadyRegisteredWithoutAProviderStillSetsTheFlag() async throws {
        let store = InMemoryPreferPasskeyStore()
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]),
            .http(409, #"{"error":"already_registered","error_description":"a passkey from this provider exists"}"#),
        ])
        let account = MyAccount(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "user-ada"), transport: transport,
            preferPasskeyStore: store)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await account.enrollPasskey(provider: StubProvider())
        }
        #expect(error?.isAlreadyRegistered == true)
        #expect(error?.alreadyRegisteredProvider == nil)
        #expect(store.flagged == [Fixture.user("user-ada")])
        // Another conflict names no provider.
        let conflict = AuthenticationError(
            kind: .server, code: "conflict", errorDescription: "x", statusCode: 409,
            body: Data(#"{"error":"conflict","provider":"iCloud Keychain"}"#.utf8))
        #expect(!conflict.isAlreadyRegistered && conflict.alreadyRegisteredProvider == nil)
    }

    @Test func aFailedEnrollmentDoesNotSetIt() async throws {
        let store = InMemoryPreferPasskeyStore()
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]),
            .http(400, #"{"error":"invalid_request","error_description":"the attestation does not verify"}"#),
        ])
        let account = MyAccount(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "user-ada"), transport: transport,
            preferPasskeyStore: store)
        await #expect(throws: AuthenticationError.self) {
            _ = try await account.enrollPasskey(provider: StubProvider())
        }
        #expect(store.flagged.isEmpty)
    }
}

/// A store whose every write fails.
struct BrokenPreferPasskeyStore: PreferPasskeyStore {
    func prefersPasskey(_ user: PreferPasskeyKey) throws -> Bool { throw CredentialsStoreError(.io, "broken") }
    func setPrefersPasskey(_ user: PreferPasskeyKey) throws { throw CredentialsStoreError(.io, "broken") }
    func clearPrefersPasskey(_ user: PreferPasskeyKey) throws { throw CredentialsStoreError(.io, "broken") }
}
