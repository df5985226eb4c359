import Foundation
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// The in-memory and file-backed credential stores.
@Suite struct CredentialStoreTests {
    /// A fresh directory under the system temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sesame-authn-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func record(id: [UInt8], user: [UInt8] = [1], rpID: String = Fixtures.rpID) -> AuthenticatorCredential {
        AuthenticatorCredential(
            rpID: rpID, id: id, userHandle: user, userName: "u", userDisplayName: "U", algorithm: .es256,
            privateKeyPKCS8: [0x30, 0x00], signCount: 0, backupEligible: true, created: Fixtures.now)
    }

    @Test(arguments: ["memory", "file"])
    func storeSemantics(kind: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any CredentialStore =
            kind == "memory"
            ? InMemoryCredentialStore() : FileCredentialStore(path: directory.appendingPathComponent("s.json").path)
        #expect(try store.allCredentials().isEmpty)
        try store.save(Self.record(id: [1], user: [1]))
        try store.save(Self.record(id: [2], user: [2]))
        try store.save(Self.record(id: [3], user: [3], rpID: "other.example"))
        #expect(try store.credentials(rpID: Fixtures.rpID).map(\.id) == [[1], [2]])
        // Same RP and user handle: the old credential is replaced and the new one is newest.
        try store.save(Self.record(id: [4], user: [1]))
        #expect(try store.allCredentials().map(\.id) == [[2], [3], [4]])
        #expect(try store.incrementSignCount(credentialID: [2]).signCount == 1)
        #expect(try store.incrementSignCount(credentialID: [2]).signCount == 2)
        #expect(try store.credential(id: [2])?.signCount == 2)
        #expect(Fixtures.error { _ = try store.incrementSignCount(credentialID: [9]) }?.code == .notAllowed)
        #expect(try store.removeCredential(id: [3]))
        #expect(try !store.removeCredential(id: [3]))
        #expect(try store.allCredentials().map(\.id) == [[2], [4]])
    }

    @Test func fileStorePersistsAcrossInstancesWithMode0600() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/credentials.json").path
        let relyingParty = Fixtures.relyingParty()
        let first = Fixtures.authenticator(
            AuthenticatorConfiguration(signCounter: .increment, origin: .web(Fixtures.webOrigin)),
            store: FileCredentialStore(path: path))
        let (registration, verified) = try Fixtures.register(first, with: relyingParty)
        _ = try Fixtures.authenticate(first, with: relyingParty, stored: Fixtures.stored(verified))

        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("nested").path)
        #expect(leftovers == ["credentials.json"])

        // A new instance on the same file signs with the same key and continues the counter.
        let second = Fixtures.authenticator(
            AuthenticatorConfiguration(signCounter: .increment, origin: .web(Fixtures.webOrigin)),
            store: FileCredentialStore(path: path))
        var expected = registration.storedCredential
        expected.signCount = 1
        #expect(try second.store.allCredentials() == [expected])
        let (assertion, authenticated) = try Fixtures.authenticate(
            second, with: relyingParty, stored: Fixtures.stored(verified, signCount: 1))
        #expect(assertion.authenticatorData.signCount == 2)
        #expect(authenticated.signCount == 2)
    }

    @Test func fileHoldsTheDocumentedFormat() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.json").path
        try FileCredentialStore(path: path).save(Self.record(id: [0xFB, 0xFF]))
        let document = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(document["format"]?.stringValue == "sesame-software-authenticator")
        #expect(document["version"] == .number("1"))
        let entry = document["credentials"]?.arrayValue?.first
        #expect(entry?["credentialId"]?.stringValue == "-_8")
        #expect(entry?["privateKeyPKCS8"]?.stringValue == "MAA=")
        #expect(entry?["rpId"]?.stringValue == Fixtures.rpID)
    }

    @Test(arguments: [
        ("", "not a credential store JSON document"),
        ("{", "not a credential store JSON document"),
        (#"{"format":"other","version":1,"credentials":[]}"#, "format is \"other\""),
        (#"{"format":"sesame-software-authenticator","version":2,"credentials":[]}"#, "unsupported version 2"),
        (
            #"{"format":"sesame-software-authenticator","version":1,"credentials":[{"rpId":"a","credentialId":"A","userHandle":"AQ","userName":"u","userDisplayName":"U","algorithm":-7,"privateKeyPKCS8":"MAA=","signCount":0,"backupEligible":true,"created":0}]}"#,
            "credentials[0]: base64url"
        ),
        (
            #"{"format":"sesame-software-authenticator","version":1,"credentials":[{"rpId":"a","credentialId":"AQ","userHandle":"AQ","userName":"u","userDisplayName":"U","algorithm":-1,"privateKeyPKCS8":"MAA=","signCount":0,"backupEligible":true,"created":0}]}"#,
            "credentials[0].algorithm -1 is not a known COSE algorithm"
        ),
        (
            #"{"format":"sesame-software-authenticator","version":1,"credentials":[{"rpId":"a","credentialId":"AQ","userHandle":"AQ","userName":"u","userDisplayName":"U","algorithm":-7,"privateKeyPKCS8":"MAA=","signCount":-1,"backupEligible":true,"created":0}]}"#,
            "not a credential store JSON document"
        ),
    ])
    func corruptFileThrowsAndIsLeftAlone(contents: String, reason: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let store = FileCredentialStore(path: path)
        let prefix = "credential store \(path) is corrupt: \(reason)"
        for operation in [{ _ = try store.allCredentials() }, { try store.save(Self.record(id: [7])) }] {
            let error = Fixtures.error(operation)
            #expect(error?.code == .corruptStore)
            #expect(error?.message.hasPrefix(prefix) == true, "\(String(describing: error))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contents.utf8))
    }

    @Test func aValidFileWithOneEntryLoads() throws {
        // The same document the corrupt cases break, unbroken.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.json").path
        let contents =
            #"{"format":"sesame-software-authenticator","version":1,"credentials":[{"rpId":"a","credentialId":"AQ","userHandle":"AQ","userName":"u","userDisplayName":"U","algorithm":-7,"privateKeyPKCS8":"MAA=","signCount":0,"backupEligible":true,"created":0}]}"#
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try FileCredentialStore(path: path).allCredentials().map(\.id) == [[1]])
    }

    @Test func storeIsSafeUnderConcurrentUse() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores: [any CredentialStore] = [
            InMemoryCredentialStore(), FileCredentialStore(path: directory.appendingPathComponent("c.json").path),
        ]
        for store in stores {
            try store.save(Self.record(id: [1]))
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { _ = try? store.incrementSignCount(credentialID: [1]) }
                }
            }
            #expect(try store.credential(id: [1])?.signCount == 20)
        }
    }
}
