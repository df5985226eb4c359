import Foundation
import SesameCrypto
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Testing
import WebAuthn

@testable import SesameHTTP

/// FIDO metadata (docs/mds.md): the offline import of a BLOB the tests sign with their own root,
/// attestation trust and the per-connection requirement at registration, and names and icons.
@Suite("FIDO metadata")
struct MetadataTests {
    /// The AAGUID of the tests' attested authenticator model.
    static let aaguid: [UInt8] = [
        0x51, 0x2a, 0x7b, 0x00, 0x14, 0x3c, 0x4e, 0x9d, 0x8b, 0x01, 0x6c, 0x5f, 0x3e, 0x22, 0x90, 0xab,
    ]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15, the harness's clock
    static let today = "2027-01-15"

    /// A PKI, a valid BLOB and its parts.
    struct World {
        let pki: TestPKI
        let ca: TestAttestationCA
        func blob(
            serial: Int = 5, nextUpdate: String = "2027-02-15", statuses: [(String, String)]? = nil,
            roots: [X509Certificate]? = nil, icon: String? = TestMetadataBLOB.pngIcon
        ) throws -> [UInt8] {
            let entry = TestMetadataBLOB.entry(
                aaguid: MetadataTests.aaguid, description: "Sesame Test Key", roots: roots ?? [ca.root],
                statuses: statuses ?? [("FIDO_CERTIFIED_L1", "2026-01-01")], icon: icon)
            return try TestMetadataBLOB.sign(
                TestMetadataBLOB.payload(serial: serial, nextUpdate: nextUpdate, entries: [entry]), pki: pki)
        }
    }

    static func world() throws -> World {
        World(pki: try TestPKI.make(now: now), ca: try TestAttestationCA.make(aaguid: aaguid, now: now))
    }

    static func service(_ store: any SesameStore) -> MetadataService {
        MetadataService(store: store, clock: ManualClock(now))
    }

    // MARK: The import

    @Test("a valid BLOB imports, with its entries typed and stored", arguments: HarnessStore.allCases)
    func validImport(_ kind: HarnessStore) throws {
        let database = try TestDatabase(kind)
        let world = try Self.world()
        let report = try Self.service(database.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        #expect(report.serial == 5)
        #expect(report.previousSerial == nil)
        #expect(report.entries == 1)
        #expect(report.stale == false)
        #expect(report.warnings.isEmpty)
        let entry = try #require(
            try database.store.read { try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(Self.aaguid)) })
        #expect(entry.description == "Sesame Test Key")
        #expect(entry.icon == TestMetadataBLOB.pngIcon)
        #expect(entry.protocolFamily == .fido2)
        #expect(entry.attestationTypes == [.basicFull])
        #expect(entry.attestationRootCertificates == [world.ca.root.der])
        #expect(
            entry.statusReports == [MetadataStatusReport(status: .known(.fidoCertifiedL1), effectiveDate: "2026-01-01")]
        )
        let blob = try #require(try database.store.read { try $0.authenticatorMetadata.blob() })
        #expect(blob.serial == 5)
        #expect(blob.nextUpdate == "2027-02-15")
    }

    @Test("a BLOB whose signature was not made by the x5c leaf is refused")
    func badSignature() throws {
        let world = try Self.world()
        var blob = try world.blob()
        // Flip one byte of the signature (the last part).
        let last = blob.count - 3
        blob[last] = blob[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: MetadataImportError.self) {
            try Self.service(InMemoryStore()).importBLOB(blob, rootPEM: world.pki.rootPEM)
        }
        // Signed by another key than the one x5c certifies: a signature error, named so.
        let other = try PrivateKey.generate(.ec(.p256))
        let forged = try TestMetadataBLOB.sign(
            payloadBytes: TestMetadataBLOB.payload(serial: 1, nextUpdate: "2027-02-15", entries: []).serialized,
            key: other, chain: [world.pki.signer, world.pki.intermediate])
        do {
            _ = try Self.service(InMemoryStore()).importBLOB(forged, rootPEM: world.pki.rootPEM)
            Issue.record("a forged BLOB was imported")
        } catch {
            guard case .signature = error else { Issue.record("expected a signature error, got \(error)"); return }
        }
    }

    @Test(
        "a BLOB signed with another algorithm MDS allows verifies",
        arguments: [("RS256", KeyType.rsa(bits: 2048)), ("ES384", .ec(.p384)), ("ES512", .ec(.p521))])
    func otherAlgorithms(alg: String, keyType: KeyType) throws {
        let pki = try TestPKI.make(now: Self.now, keyType: keyType)
        let ca = try TestAttestationCA.make(aaguid: Self.aaguid, now: Self.now)
        let entry = TestMetadataBLOB.entry(aaguid: Self.aaguid, description: "Sesame Test Key", roots: [ca.root])
        let blob = try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 9, nextUpdate: "2027-02-15", entries: [entry]), pki: pki, alg: alg)
        let store = InMemoryStore()
        let report = try Self.service(store).importBLOB(blob, rootPEM: pki.rootPEM)
        #expect(report.serial == 9 && report.entries == 1)
        #expect(
            try store.read { try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(Self.aaguid)) }?
                .description == "Sesame Test Key")
    }

    @Test(
        "an ECDSA alg over another curve's key is refused",
        arguments: [("ES384", KeyType.ec(.p256)), ("ES256", .ec(.p384)), ("ES512", .ec(.p384))])
    func algorithmAndCurveDisagree(alg: String, keyType: KeyType) throws {
        let pki = try TestPKI.make(now: Self.now, keyType: keyType)
        let blob = try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 9, nextUpdate: "2027-02-15", entries: []), pki: pki, alg: alg)
        let store = InMemoryStore()
        do {
            _ = try Self.service(store).importBLOB(blob, rootPEM: pki.rootPEM)
            Issue.record("\(alg) over a \(keyType) key was imported")
        } catch {
            guard case .signature(let message) = error, message.contains("needs a") else {
                Issue.record("expected a signature error about the curve, got \(error)"); return
            }
        }
        #expect(try store.read { try $0.authenticatorMetadata.blob() } == nil)
    }

    @Test("a BLOB whose alg MDS does not allow is refused, naming the alg", arguments: ["HS256", "none", "EdDSA"])
    func refusedAlgorithm(alg: String) throws {
        let world = try Self.world()
        let entry = TestMetadataBLOB.entry(aaguid: Self.aaguid, description: "Sesame Test Key", roots: [world.ca.root])
        let blob = try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 9, nextUpdate: "2027-02-15", entries: [entry]), pki: world.pki, alg: alg)
        let store = InMemoryStore()
        #expect(throws: MetadataImportError.malformed("the JWS alg \"\(alg)\" is not one MDS allows")) {
            try Self.service(store).importBLOB(blob, rootPEM: world.pki.rootPEM)
        }
        #expect(try store.read { try $0.authenticatorMetadata.blob() } == nil)
    }

    @Test("a BLOB that chains to another root is refused, and nothing is stored")
    func otherRoot() throws {
        let world = try Self.world()
        let stranger = try TestPKI.make(now: Self.now, name: "Someone Else")
        let store = InMemoryStore()
        do {
            _ = try Self.service(store).importBLOB(try world.blob(), rootPEM: stranger.rootPEM)
            Issue.record("a BLOB of another root was imported")
        } catch {
            guard case .chain? = error as? MetadataImportError else {
                Issue.record("expected a chain error, got \(error)"); return
            }
        }
        #expect(try store.read { try $0.authenticatorMetadata.blob() } == nil)
    }

    @Test("a BLOB whose signer has expired is refused")
    func expiredSigner() throws {
        let pki = try TestPKI.make(now: Self.now, signerNotAfter: Self.now.addingTimeInterval(-3_600))
        let world = World(pki: pki, ca: try TestAttestationCA.make(aaguid: Self.aaguid, now: Self.now))
        do {
            _ = try Self.service(InMemoryStore()).importBLOB(try world.blob(), rootPEM: pki.rootPEM)
            Issue.record("a BLOB with an expired signer was imported")
        } catch {
            guard case .chain(let why)? = error as? MetadataImportError else {
                Issue.record("expected a chain error, got \(error)"); return
            }
            #expect(why.contains("expired"))
        }
    }

    @Test("a rollback is refused unless forced, and the newer BLOB stays", arguments: HarnessStore.allCases)
    func rollback(_ kind: HarnessStore) throws {
        let database = try TestDatabase(kind)
        let world = try Self.world()
        let service = Self.service(database.store)
        _ = try service.importBLOB(try world.blob(serial: 7), rootPEM: world.pki.rootPEM)
        #expect(throws: MetadataImportError.rollback(stored: 7, offered: 6)) {
            try service.importBLOB(try world.blob(serial: 6), rootPEM: world.pki.rootPEM)
        }
        #expect(throws: MetadataImportError.rollback(stored: 7, offered: 7)) {
            try service.importBLOB(try world.blob(serial: 7), rootPEM: world.pki.rootPEM)
        }
        #expect(try database.store.read { try $0.authenticatorMetadata.blob()?.serial } == 7)
        let forced = try service.importBLOB(try world.blob(serial: 6), rootPEM: world.pki.rootPEM, force: true)
        #expect(forced.previousSerial == 7)
        let newer = try service.importBLOB(try world.blob(serial: 8), rootPEM: world.pki.rootPEM)
        #expect(newer.previousSerial == 6)
    }

    @Test("a BLOB over the size limit is refused before it is parsed")
    func oversize() throws {
        let world = try Self.world()
        let blob = try world.blob()
        var limits = MetadataBLOB.Limits()
        limits.maxBytes = blob.count - 1
        #expect(throws: MetadataImportError.tooLarge(bytes: blob.count, limit: blob.count - 1)) {
            try Self.service(InMemoryStore()).importBLOB(blob, rootPEM: world.pki.rootPEM, limits: limits)
        }
        // The standard limit, with bytes that are not even a JWS.
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: MetadataBLOB.Limits.standard.maxBytes + 1)
        #expect(throws: MetadataImportError.self) {
            try Self.service(InMemoryStore()).importBLOB(huge, rootPEM: world.pki.rootPEM)
        }
    }

    /// An entry with `change` applied to its JSON, in a correctly signed BLOB.
    static func signedWith(_ world: World, entry change: (inout [JSONMember]) -> Void) throws -> [UInt8] {
        guard
            case .object(var members) = TestMetadataBLOB.entry(
                aaguid: aaguid, description: "Sesame Test Key", roots: [world.ca.root])
        else { return [] }
        change(&members)
        return try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 1, nextUpdate: "2027-02-15", entries: [.object(members)]), pki: world.pki)
    }

    static func statement(_ members: inout [JSONMember], _ change: (inout [JSONMember]) -> Void) {
        guard let index = members.firstIndex(where: { $0.name == "metadataStatement" }),
            case .object(var statement) = members[index].value
        else { return }
        change(&statement)
        members[index].value = .object(statement)
    }

    @Test("malformed entries are refused with the entry and member named")
    func malformedEntries() throws {
        let world = try Self.world()
        let cases: [(String, (inout [JSONMember]) -> Void)] = [
            ("aaguid", { $0[0].value = .string("not-a-uuid") }),
            ("statusReports", { $0.removeAll { $0.name == "statusReports" } }),
            ("timeOfLastStatusChange", { $0.removeAll { $0.name == "timeOfLastStatusChange" } }),
            ("description", { Self.statement(&$0) { $0.removeAll { $0.name == "description" } } }),
            (
                "description",
                {
                    Self.statement(&$0) { s in
                        s[s.firstIndex { $0.name == "description" }!].value = .string(
                            String(repeating: "x", count: 201))
                    }
                }
            ),
            (
                "attestationRootCertificates",
                {
                    Self.statement(&$0) { s in
                        s[s.firstIndex { $0.name == "attestationRootCertificates" }!].value = .array([.string("AAAA")])
                    }
                }
            ),
            (
                "attestationTypes",
                {
                    Self.statement(&$0) { s in
                        s[s.firstIndex { $0.name == "attestationTypes" }!].value = .array([.string("magic")])
                    }
                }
            ),
            (
                "protocolFamily",
                {
                    Self.statement(&$0) { s in
                        s[s.firstIndex { $0.name == "protocolFamily" }!].value = .string("fido3")
                    }
                }
            ),
        ]
        for (member, change) in cases {
            let blob = try Self.signedWith(world, entry: change)
            do {
                _ = try Self.service(InMemoryStore()).importBLOB(blob, rootPEM: world.pki.rootPEM)
                Issue.record("an entry with a bad \(member) was imported")
            } catch {
                guard case .malformed(let why) = error else { Issue.record("\(member): got \(error)"); continue }
                #expect(why.contains("entries[0]"), "\(why)")
                #expect(why.contains(member), "\(why)")
            }
        }
        // Two entries for one AAGUID.
        let entry = TestMetadataBLOB.entry(aaguid: Self.aaguid, description: "Twice", roots: [world.ca.root])
        let twice = try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 1, nextUpdate: "2027-02-15", entries: [entry, entry]), pki: world.pki)
        #expect(throws: MetadataImportError.self) {
            try Self.service(InMemoryStore()).importBLOB(twice, rootPEM: world.pki.rootPEM)
        }
        // A payload without `no`.
        let noSerial = try TestMetadataBLOB.sign(
            payloadBytes: Array(#"{"legalHeader":"x","nextUpdate":"2027-02-15","entries":[]}"#.utf8),
            key: world.pki.signerKey, chain: [world.pki.signer, world.pki.intermediate])
        #expect(throws: MetadataImportError.malformed("payload.no is missing or not a non-negative integer")) {
            try Self.service(InMemoryStore()).importBLOB(noSerial, rootPEM: world.pki.rootPEM)
        }
    }

    @Test("an unknown status is kept as unrecognized; a bad icon is dropped with a warning; a stale BLOB is reported")
    func extensibility() throws {
        let world = try Self.world()
        let store = InMemoryStore()
        let report = try Self.service(store).importBLOB(
            try world.blob(
                nextUpdate: "2027-01-01",
                statuses: [("FIDO_CERTIFIED_L1", "2026-01-01"), ("FIDO_CERTIFIED_L7", "2026-06-01")],
                icon: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
            rootPEM: world.pki.rootPEM)
        #expect(report.stale)
        #expect(report.warnings.count == 1)
        let entry = try #require(
            try store.read { try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(Self.aaguid)) })
        #expect(entry.icon == nil)
        #expect(entry.latestStatusReport?.status == .unrecognized("FIDO_CERTIFIED_L7"))
    }

    @Test("icons: only bounded base64 data: URLs of raster images whose bytes match")
    func icons() {
        #expect(IconDataURL.check(TestMetadataBLOB.pngIcon, maxLength: 1_000) == .success(TestMetadataBLOB.pngIcon))
        #expect((try? IconDataURL.check(TestMetadataBLOB.pngIcon, maxLength: 20).get()) == nil)
        #expect((try? IconDataURL.check("data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=", maxLength: 1_000).get()) == nil)
        #expect((try? IconDataURL.check("data:image/png;base64,R0lGODlhAQABAAAAACw=", maxLength: 1_000).get()) == nil)
        #expect((try? IconDataURL.check("https://example.com/icon.png", maxLength: 1_000).get()) == nil)
        #expect(AccountPages.authenticatorIcon("javascript:alert(1)") == "")
        #expect(
            AccountPages.authenticatorIcon(TestMetadataBLOB.pngIcon).hasPrefix(
                "<img class=\"authenticator-icon\" src=\"data:image/png;base64,"))
    }

    // MARK: Registration

    /// An authenticator with full packed attestation by `ca`, for the AAGUID.
    static func attested(_ api: APIHarness, by ca: TestAttestationCA) -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration(aaguid: aaguid, attestation: .packed)
        configuration.origin = .web(APIHarness.webOrigin)
        configuration.attestationIdentity = ca.identity
        return SoftwareAuthenticator(configuration: configuration)
    }

    static func requireAttestation(_ api: APIHarness, _ requirement: String) throws {
        let connection = try #require(api.tenant.defaultConnectionID)
        let reply = api.send(
            .patch, "/api/v2/connections/\(connection)",
            json: #"{"options":{"passkey_options":{"attestation_requirement":"\#(requirement)"}}}"#,
            token: try api.managementToken())
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        let options = (reply.json["options"] as? [String: Any])?["passkey_options"] as? [String: Any]
        #expect(options?["attestation_requirement"] as? String == requirement)
    }

    /// A signup's token answer.
    static func signUp(_ api: APIHarness, _ authenticator: SoftwareAuthenticator, email: String) throws -> APIReply {
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": email]]))
        #expect(challenge.status == 200)
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        return api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString,
            scope: "openid")
    }

    @Test(
        "under a certification requirement: accepted when the path chains to the metadata root",
        arguments: HarnessStore.allCases)
    func requirementAccepts(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let world = try Self.world()
        _ = try Self.service(api.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        try Self.requireAttestation(api, "FIDO_CERTIFIED_L1")
        // The challenge asks for direct attestation.
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": "a@example.com"]]))
        #expect((challenge.json["authn_params_public_key"] as? [String: Any])?["attestation"] as? String == "direct")

        let reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "ada@example.com")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        // The passkey is named by the metadata's description.
        let user = try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada@example.com", page: Page()) }
                .first)
        let passkeys = try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user.id) }
        #expect(passkeys.map(\.name) == ["Sesame Test Key"])
        #expect(passkeys.map(\.attestationFormat) == [.packed])
    }

    @Test("under a requirement: refused for another CA, self or no attestation, a level too low, or no metadata")
    func requirementRefuses() throws {
        let api = try APIHarness()
        let world = try Self.world()
        try Self.requireAttestation(api, "FIDO_CERTIFIED_L2")
        // No metadata imported yet: nothing can satisfy the requirement.
        var reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "nometa@example.com")
        #expect(reply.status == 400)
        #expect((reply.json["error_description"] as? String)?.contains("authenticator not accepted") == true)

        _ = try Self.service(api.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        // Certified L1 only: below the L2 the connection asks for.
        reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "l1@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("FIDO_CERTIFIED_L2") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")

        try Self.requireAttestation(api, "FIDO_CERTIFIED_L1")
        // A CA that is not the model's metadata root.
        let stranger = try TestAttestationCA.make(aaguid: Self.aaguid, now: Self.now, name: "Impostor")
        reply = try Self.signUp(api, Self.attested(api, by: stranger), email: "impostor@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("metadata roots") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")
        // Self attestation and none: no path to check.
        var selfAttested = AuthenticatorConfiguration(aaguid: Self.aaguid, attestation: .packed)
        selfAttested.origin = .web(APIHarness.webOrigin)
        reply = try Self.signUp(api, SoftwareAuthenticator(configuration: selfAttested), email: "self@example.com")
        #expect(reply.status == 400)
        reply = try Self.signUp(api, api.authenticator(), email: "none@example.com")
        #expect(reply.status == 400)
        #expect(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page()) }.count == 0)
    }

    @Test("a revoked or compromised model is refused, with or without a requirement", arguments: HarnessStore.allCases)
    func revoked(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let world = try Self.world()
        let service = Self.service(api.store)
        _ = try service.importBLOB(
            try world.blob(serial: 1, statuses: [("FIDO_CERTIFIED_L1", "2025-01-01"), ("REVOKED", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        var reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "revoked@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("REVOKED") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")
        try Self.requireAttestation(api, "metadata")
        reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "revoked2@example.com")
        #expect(reply.status == 400)

        _ = try service.importBLOB(
            try world.blob(
                serial: 2,
                statuses: [("FIDO_CERTIFIED_L1", "2025-01-01"), ("ATTESTATION_KEY_COMPROMISE", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "compromised@example.com")
        #expect((reply.json["error_description"] as? String)?.contains("ATTESTATION_KEY_COMPROMISE") == true)

        // A later certification after the compromise: trusted again.
        _ = try service.importBLOB(
            try world.blob(
                serial: 3,
                statuses: [("ATTESTATION_KEY_COMPROMISE", "2025-01-01"), ("FIDO_CERTIFIED_L1", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "fixed@example.com")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")

        // REVOKED is final: a later certification does not undo it.
        _ = try service.importBLOB(
            try world.blob(serial: 4, statuses: [("REVOKED", "2025-01-01"), ("FIDO_CERTIFIED_L1", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        reply = try Self.signUp(api, Self.attested(api, by: world.ca), email: "rerevoked@example.com")
        #expect(reply.status == 400)
        #expect((reply.json["error_description"] as? String)?.contains("REVOKED") == true)
    }

    @Test("without a requirement: an attested path must still chain to the model's metadata roots")
    func trustWithoutRequirement() throws {
        let api = try APIHarness()
        let world = try Self.world()
        _ = try Self.service(api.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        #expect(try Self.signUp(api, Self.attested(api, by: world.ca), email: "good@example.com").status == 200)
        let stranger = try TestAttestationCA.make(aaguid: Self.aaguid, now: Self.now, name: "Impostor")
        #expect(try Self.signUp(api, Self.attested(api, by: stranger), email: "bad@example.com").status == 400)
        // An unattested registration of a model in the metadata is accepted and named by it.
        var plain = AuthenticatorConfiguration(aaguid: Self.aaguid)
        plain.origin = .web(APIHarness.webOrigin)
        #expect(
            try Self.signUp(api, SoftwareAuthenticator(configuration: plain), email: "plain@example.com").status == 200)
    }

    // MARK: U2F: models named by the attestation certificate's key identifier

    /// A BLOB whose one entry is the U2F model of `attestation`, listed by its key identifier.
    static func u2fBLOB(
        _ world: World, _ attestation: TestU2FAttestation, serial: Int = 5,
        statuses: [(String, String)] = [("FIDO_CERTIFIED_L1", "2026-01-01")]
    ) throws -> [UInt8] {
        let entry = TestMetadataBLOB.u2fEntry(
            keyIdentifiers: [attestation.keyIdentifier], description: "Sesame Test U2F Key", roots: [attestation.root],
            statuses: statuses)
        return try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: serial, nextUpdate: "2027-02-15", entries: [entry]), pki: world.pki)
    }

    /// A signup whose registration is a `fido-u2f` attestation by `attestation` (an all-zero AAGUID,
    /// a security key's transports).
    static func signUpU2F(_ api: APIHarness, _ attestation: TestU2FAttestation, email: String) throws -> APIReply {
        var configuration = AuthenticatorConfiguration(
            aaguid: Array(repeating: 0, count: 16), backupEligible: false, backupState: false,
            transports: ["usb"], authenticatorAttachment: "cross-platform")
        configuration.origin = .web(APIHarness.webOrigin)
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": email]]))
        #expect(challenge.status == 200)
        let registration = try SoftwareAuthenticator(configuration: configuration).makeCredential(
            optionsJSON: challenge.body)
        return api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "",
            response: try attestation.attest(registration),
            scope: "openid")
    }

    static func passkeys(_ api: APIHarness, _ email: String) throws -> [PasskeyRecord] {
        guard
            let user = try api.store.read({
                try $0.users.search(tenantID: api.tenant.id, query: email, page: Page())
            }).first
        else { return [] }
        return try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user.id) }
    }

    @Test(
        "fido-u2f: found by its key identifier, trusted by its chain to the entry's roots, named by the entry",
        arguments: HarnessStore.allCases)
    func u2fTrustedAndNamed(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let world = try Self.world()
        let u2f = try TestU2FAttestation.make(now: Self.now)
        _ = try Self.service(api.store).importBLOB(try Self.u2fBLOB(world, u2f), rootPEM: world.pki.rootPEM)
        // The entry is stored under the key identifier, not under an AAGUID.
        #expect(
            try api.store.read { try $0.authenticatorMetadata.get(attestationKeyIdentifier: u2f.keyIdentifier) }?
                .description == "Sesame Test U2F Key")

        var reply = try Self.signUpU2F(api, u2f, email: "u2f@example.com")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        let passkeys = try Self.passkeys(api, "u2f@example.com")
        #expect(passkeys.map(\.name) == ["Sesame Test U2F Key"])
        #expect(passkeys.map(\.attestationFormat) == [.fidoU2F])
        #expect(passkeys.map(\.aaguid) == [Array(repeating: 0, count: 16)])

        // The same attestation key certified by another root: the key identifier matches the
        // entry, the path does not reach its roots.
        let impostor = try TestU2FAttestation.make(now: Self.now, name: "Impostor", key: u2f.key)
        #expect(impostor.keyIdentifier == u2f.keyIdentifier)
        reply = try Self.signUpU2F(api, impostor, email: "impostor@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("metadata roots") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(try Self.passkeys(api, "impostor@example.com").isEmpty)

        // Under a requirement the verified key identifier is the model: accepted at its level.
        try Self.requireAttestation(api, "FIDO_CERTIFIED_L1")
        reply = try Self.signUpU2F(api, u2f, email: "u2f-l1@example.com")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(try Self.passkeys(api, "u2f-l1@example.com").map(\.name) == ["Sesame Test U2F Key"])
        try Self.requireAttestation(api, "FIDO_CERTIFIED_L2")
        reply = try Self.signUpU2F(api, u2f, email: "u2f-l2@example.com")
        #expect(reply.status == 400)
        #expect((reply.json["error_description"] as? String)?.contains("FIDO_CERTIFIED_L2") == true)
        // A U2F key the metadata does not list cannot meet a requirement.
        try Self.requireAttestation(api, "metadata")
        reply = try Self.signUpU2F(api, try TestU2FAttestation.make(now: Self.now), email: "unlisted@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("chains to FIDO metadata") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")
    }

    @Test(
        "fido-u2f: a revoked or compromised model is refused, with or without a requirement",
        arguments: HarnessStore.allCases)
    func u2fRevoked(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let world = try Self.world()
        let u2f = try TestU2FAttestation.make(now: Self.now)
        let service = Self.service(api.store)
        _ = try service.importBLOB(
            try Self.u2fBLOB(
                world, u2f, serial: 1, statuses: [("FIDO_CERTIFIED_L1", "2025-01-01"), ("REVOKED", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        var reply = try Self.signUpU2F(api, u2f, email: "revoked@example.com")
        #expect(reply.status == 400)
        #expect(
            (reply.json["error_description"] as? String)?.contains("REVOKED") == true,
            "\(String(decoding: reply.body, as: UTF8.self))")
        try Self.requireAttestation(api, "metadata")
        reply = try Self.signUpU2F(api, u2f, email: "revoked2@example.com")
        #expect((reply.json["error_description"] as? String)?.contains("REVOKED") == true)
        try Self.requireAttestation(api, "none")

        _ = try service.importBLOB(
            try Self.u2fBLOB(
                world, u2f, serial: 2,
                statuses: [("FIDO_CERTIFIED_L1", "2025-01-01"), ("ATTESTATION_KEY_COMPROMISE", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        reply = try Self.signUpU2F(api, u2f, email: "compromised@example.com")
        #expect(reply.status == 400)
        #expect((reply.json["error_description"] as? String)?.contains("ATTESTATION_KEY_COMPROMISE") == true)

        // Certified again after the compromise: accepted.
        _ = try service.importBLOB(
            try Self.u2fBLOB(
                world, u2f, serial: 3,
                statuses: [("ATTESTATION_KEY_COMPROMISE", "2025-01-01"), ("FIDO_CERTIFIED_L1", "2026-01-01")]),
            rootPEM: world.pki.rootPEM)
        reply = try Self.signUpU2F(api, u2f, email: "fixed@example.com")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page()) }.count == 1)
    }

    @Test("the connection option is validated and documented values round-trip")
    func connectionOption() throws {
        let api = try APIHarness()
        let connection = try #require(api.tenant.defaultConnectionID)
        let token = try api.managementToken()
        let bad = api.send(
            .patch, "/api/v2/connections/\(connection)",
            json: #"{"options":{"passkey_options":{"attestation_requirement":"FIDO_CERTIFIED_L9"}}}"#, token: token)
        #expect(bad.status == 400)
        #expect((String(decoding: bad.body, as: UTF8.self)).contains("attestation_requirement"))
        let read = api.send(.get, "/api/v2/connections/\(connection)", token: token)
        let options = (read.json["options"] as? [String: Any])?["passkey_options"] as? [String: Any]
        #expect(options?["attestation_requirement"] as? String == "none")
        try Self.requireAttestation(api, "FIDO_CERTIFIED_L3plus")
        try Self.requireAttestation(api, "none")
    }

    // MARK: Names and icons

    @Test("the account page names the passkey and shows the icon from the metadata", arguments: HarnessStore.allCases)
    func accountPage(_ kind: HarnessStore) throws {
        let (api, _, _) = try AuthorizeFlowTests.world(kind)
        let world = try Self.world()
        _ = try Self.service(api.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        let browser = try HostedAccountTests.signedIn(api)
        browser.send(.get, "/account/passkeys/enroll")
        let credential = try Self.attested(api, by: world.ca).makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/account/passkeys/enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        browser.follow()
        #expect(browser.html.contains("Sesame Test Key"))
        #expect(browser.html.contains("<img class=\"authenticator-icon\" src=\"\(TestMetadataBLOB.pngIcon)\""))
        let csp = browser.last.headers["Content-Security-Policy"] ?? ""
        #expect(csp.contains("img-src 'self' data:"), "\(csp)")
    }

    @Test("the adoption statistics name providers by the metadata first")
    func adoptionNames() throws {
        let cell = AuthDailyCount(
            day: "2027-01-15", clientID: "c", connectionID: "k", method: .passkey, passkeyKind: .synced,
            aaguid: AAGUIDRegistry.format(Self.aaguid).replacingOccurrences(of: "-", with: ""), platform: .ios,
            count: 3)
        let hex = cell.aaguid
        let named = AdoptionReport.make(
            cells: [cell], days: ["2027-01-15"], users: UserAdoption(total: 0, withPasskey: 0, withDeviceKeyOnly: 0),
            metadataNames: [hex: "Sesame Test Key"])
        #expect(named.days.first?.providers == ["Sesame Test Key": 3])
        let fallback = AdoptionReport.make(
            cells: [cell], days: ["2027-01-15"], users: UserAdoption(total: 0, withPasskey: 0, withDeviceKeyOnly: 0))
        #expect(fallback.days.first?.providers == [AAGUIDRegistry.format(Self.aaguid): 3])
    }
}
