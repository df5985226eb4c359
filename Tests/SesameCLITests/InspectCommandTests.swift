import Foundation
import Testing
import WebAuthn

@testable import SesameCLI

@Suite("sesame inspect")
struct InspectCommandTests {
    static let yubikey = "registration/packed-x5c-es256-yubikey-firefox.json"

    func inspectJSON(_ vector: Vector, extra: [String] = []) throws -> [String: Any] {
        let run = try vector.withResponseFile { CLI.run(["inspect", "--json"] + extra + [$0]) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        return try run.json()
    }

    @Test func registrationBreakdownAsJSON() throws {
        let vector = try Vector(Self.yubikey)
        let json = try inspectJSON(vector, extra: ["--at", try #require(vector.at)])
        #expect(Set(json.keys) == ["kind", "credential", "client_data", "authenticator_data", "attestation"])
        #expect(json["kind"] as? String == "registration")
        let credential = try #require(json["credential"] as? [String: Any])
        #expect(credential["id"] as? String == vector.expect["credential_id"] as? String)
        #expect(credential["transports"] as? [String] == ["nfc", "usb"])

        let clientData = try #require(json["client_data"] as? [String: Any])
        #expect(clientData["type"] as? String == "webauthn.create")
        #expect(clientData["challenge"] as? String == vector.challenge)
        #expect(clientData["origin"] as? String == vector.origin)
        #expect(clientData["cross_origin"] as? Bool == false)
        #expect(clientData["top_origin"] is NSNull)

        let data = try #require(json["authenticator_data"] as? [String: Any])
        #expect(data["sign_count"] as? Int == vector.expect["sign_count"] as? Int)
        let flags = try #require(data["flags"] as? [String: Any])
        #expect(flags["user_present"] as? Bool == true)
        #expect(flags["user_verified"] as? Bool == true)
        #expect(flags["backup_eligible"] as? Bool == false)
        #expect(flags["backup_state"] as? Bool == false)
        #expect(flags["attested_credential_data"] as? Bool == true)
        #expect(flags["extension_data"] as? Bool == false)
        let attested = try #require(data["attested_credential_data"] as? [String: Any])
        let aaguid = try #require(vector.expect["aaguid"] as? String)
        #expect(attested["aaguid"] as? String == aaguid)
        let aaguidBytes = hexBytes(aaguid)
        let provider = try #require(AAGUIDRegistry.name(for: aaguidBytes), "the registry should know this YubiKey")
        #expect(attested["aaguid_name"] as? String == provider)
        #expect(attested["credential_id"] as? String == vector.expect["credential_id"] as? String)
        let key = try #require(attested["public_key"] as? [String: Any])
        #expect(key["kty"] as? String == "EC2")
        #expect(key["alg"] as? String == vector.expect["alg"] as? String)
        #expect(key["alg_id"] as? Int == -7)
        #expect(key["curve"] as? String == "P-256")
        #expect(key["cose"] as? String == vector.expect["credential_public_key"] as? String)

        let attestation = try #require(json["attestation"] as? [String: Any])
        #expect(attestation["fmt"] as? String == "packed")
        #expect(attestation["alg"] as? String == "ES256")
        #expect(attestation["verified"] as? Bool == true)
        #expect(attestation["type"] as? String == "basic")
        #expect(attestation["chain_verified"] as? Bool == false)
        #expect(attestation["error"] is NSNull)
        let certificates = try #require(attestation["certificates"] as? [[String: Any]])
        #expect(certificates.count == 1)
        #expect((certificates.first?["subject"] as? String)?.contains("O=Yubico AB") == true)
        #expect((certificates.first?["issuer"] as? String)?.contains("Yubico U2F Root CA") == true)
        #expect(certificates.first?["not_before"] as? String == "2014-08-01T00:00:00Z")
        #expect(certificates.first?["not_after"] as? String == "2050-09-04T00:00:00Z")
    }

    @Test func registrationBreakdownAsText() throws {
        let vector = try Vector(Self.yubikey)
        let run = try vector.withResponseFile { CLI.run(["inspect", "--at", "2020-01-01T00:00:00Z", $0]) }
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Input: registration response")
        #expect(lines.contains("  flags         0x45  UP+ UV+ BE- BS- AT+ ED-"))
        #expect(lines.contains("  sign count    52"))
        #expect(lines.contains { $0.hasPrefix("  aaguid        6d44ba9b-f6ec-2e49-b930-0c8fe920cb73 (") })
        #expect(lines.contains("  public key    EC2 ES256 (-7) P-256"))
        #expect(lines.contains("  fmt           packed"))
        #expect(lines.contains("  type          basic"))
        #expect(lines.contains("  origin        http://localhost:5000"))
        #expect(lines.contains("    valid       2014-08-01T00:00:00Z to 2050-09-04T00:00:00Z"))
    }

    @Test func extensionsAndRSAKeys() throws {
        let extensions = try inspectJSON(try Vector("registration/none-es256-android-app-devicepubkey-ext.json"))
        let data = try #require(extensions["authenticator_data"] as? [String: Any])
        #expect((data["flags"] as? [String: Any])?["extension_data"] as? Bool == true)
        #expect((data["extensions"] as? String)?.hasPrefix("{\"devicePubKey\": {\"dpk\": h'a501") == true)

        let rsa = try inspectJSON(try Vector("registration/none-rs256-windows-hello.json"))
        let attested = try #require(
            (rsa["authenticator_data"] as? [String: Any])?["attested_credential_data"] as? [String: Any])
        let key = try #require(attested["public_key"] as? [String: Any])
        #expect(key["kty"] as? String == "RSA")
        #expect(key["alg"] as? String == "RS256")
        #expect(key["rsa_bits"] as? Int == 2048)
        #expect(key["curve"] is NSNull)
    }

    @Test func attestationVerifierFailureIsReportedNotFatal() throws {
        // Same response, but inspected at a time outside the certificate's validity.
        let vector = try Vector("registration/apple-iphone-passkey.json")
        let json = try inspectJSON(vector, extra: ["--at", "2030-01-01T00:00:00Z"])
        let attestation = try #require(json["attestation"] as? [String: Any])
        #expect(attestation["verified"] as? Bool == false)
        let error = try #require(attestation["error"] as? [String: Any])
        #expect(error["check"] as? String == "trust_chain")
        #expect((attestation["certificates"] as? [Any])?.count == 2)
        let inside = try inspectJSON(vector, extra: ["--at", try #require(vector.at)])
        let verified = try #require(inside["attestation"] as? [String: Any])
        #expect(verified["type"] as? String == "anonca")
    }

    @Test func authenticationBreakdown() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let json = try inspectJSON(vector)
        #expect(json["kind"] as? String == "authentication")
        #expect(json["attestation"] is NSNull)
        let data = try #require(json["authenticator_data"] as? [String: Any])
        #expect(data["sign_count"] as? Int == 78)
        #expect(data["attested_credential_data"] is NSNull)
        let credential = try #require(json["credential"] as? [String: Any])
        #expect(credential["signature"] as? String != nil)
        let clientData = try #require(json["client_data"] as? [String: Any])
        #expect(clientData["type"] as? String == "webauthn.get")
        #expect(clientData["cross_origin"] is NSNull)
    }

    /// The response members as bare base64url input, one part at a time.
    func part(_ vector: Vector, _ member: String) throws -> [UInt8] {
        let response = try #require(vector.object["response"] as? [String: Any])
        let inner = try #require(response["response"] as? [String: Any])
        return Array(try #require(inner[member] as? String).utf8)
    }

    @Test func bareAttestationObject() throws {
        let vector = try Vector(Self.yubikey)
        let run = CLI.run(["inspect", "--json", "-"], stdin: try part(vector, "attestationObject") + [0x0A])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["kind"] as? String == "attestation_object")
        #expect(json["client_data"] is NSNull)
        let attestation = try #require(json["attestation"] as? [String: Any])
        #expect(attestation["fmt"] as? String == "packed")
        #expect(attestation["alg"] as? String == "ES256")
        #expect(attestation["verified"] is NSNull)
        #expect(attestation["note"] as? String != nil)
        #expect((attestation["certificates"] as? [Any])?.count == 1)
    }

    @Test func bareAuthenticatorData() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let run = CLI.run(["inspect", "--json"], stdin: try part(vector, "authenticatorData"))
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["kind"] as? String == "authenticator_data")
        let data = try #require(json["authenticator_data"] as? [String: Any])
        #expect(data["sign_count"] as? Int == 78)
        #expect(data["rp_id_hash"] as? String == "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d9763")
    }

    @Test func bareClientDataJSON() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let run = CLI.run(["inspect", "--json"], stdin: try part(vector, "clientDataJSON"))
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["kind"] as? String == "client_data")
        let clientData = try #require(json["client_data"] as? [String: Any])
        #expect(clientData["challenge"] as? String == vector.challenge)
        #expect(clientData["origin"] as? String == "http://localhost:5000")
    }

    @Test func wholeVectorFileIsUnwrapped() throws {
        let url = Vector.directory.appendingPathComponent("authentication/es256-security-key-localhost.json")
        let run = CLI.run(["inspect", "--json", url.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.json()["kind"] as? String == "authentication")
    }

    @Test(arguments: [
        ("%%% not base64 %%%", "sesame: inspect: input is neither credential JSON nor base64url"),
        ("{\"hello\": 1}", "sesame: inspect: JSON input has no response object"),
        ("{not json", "sesame: inspect: input starts with '{' but is not valid JSON"),
        ("", "sesame: inspect: input is empty"),
        ("AAAA", "sesame: inspect: authenticator data: is 3 bytes"),
    ])
    func unparseableInputIsOneLineAndStatusOne(_ input: String, _ prefix: String) {
        let run = CLI.run(["inspect"], stdin: Array(input.utf8))
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)")
    }

    @Test func brokenPartOfACredentialFails() throws {
        let vector = try Vector("registration/bad-empty-attestation-object.json")
        let run = try vector.withResponseFile { CLI.run(["inspect", $0]) }
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("sesame: inspect: "))
    }

    func hexBytes(_ uuid: String) -> [UInt8] {
        let digits = Array(uuid.replacingOccurrences(of: "-", with: "").utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }
}
