import Foundation
import Testing
import WebAuthn

@testable import SesameCLI

@Suite("sesame verify")
struct VerifyCommandTests {
    /// One vector of each attestation format and credential algorithm the CLI passes through.
    static let registrations = [
        "registration/packed-x5c-es256-yubikey-firefox.json",
        "registration/packed-self-es256-macos-touchid-localhost.json",
        "registration/spec-packed-eddsa-with-mds.json",
        "registration/none-rs256-windows-hello.json",
        "registration/fido-u2f-yubikey-firefox.json",
        "registration/apple-iphone-passkey.json",
        "registration/android-key-fido-conformance-a.json",
        "registration/tpm-es256-ecc-pubarea-webauthn-io.json",
    ]

    @Test(arguments: registrations)
    func registrationSucceeds(_ name: String) throws {
        let vector = try Vector(name)
        let run = try vector.withResponseFile { CLI.run(vector.registrationArguments($0)) }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stderr.isEmpty)
        let json = try run.json()
        #expect(
            Set(json.keys) == [
                "credential_id", "public_key", "sign_count", "fmt", "attestation_type", "aaguid", "backup_eligible",
                "backup_state",
            ])
        #expect(json["credential_id"] as? String == vector.expect["credential_id"] as? String)
        #expect(json["public_key"] as? String == vector.expect["credential_public_key"] as? String)
        #expect(json["sign_count"] as? Int == vector.expect["sign_count"] as? Int)
        #expect(json["fmt"] as? String == vector.expect["fmt"] as? String)
        #expect(json["aaguid"] as? String == vector.expect["aaguid"] as? String)
    }

    @Test func registrationReportsAttestationTypeAndBackupFlags() throws {
        let vector = try Vector("registration/packed-x5c-es256-yubikey-firefox.json")
        let json = try vector.withResponseFile { try CLI.run(vector.registrationArguments($0)).json() }
        #expect(json["attestation_type"] as? String == "basic")
        #expect(json["backup_eligible"] as? Bool == false)
        #expect(json["backup_state"] as? Bool == false)
        let selfAttested = try Vector("registration/packed-self-es256-macos-touchid-localhost.json")
        let selfJSON = try selfAttested.withResponseFile { try CLI.run(selfAttested.registrationArguments($0)).json() }
        #expect(selfJSON["attestation_type"] as? String == "self")
    }

    @Test func registrationWithSeveralOriginsAcceptsAnyOfThem() throws {
        let vector = try Vector("registration/none-es256-security-key-localhost.json")
        let run = try vector.withResponseFile {
            CLI.run(vector.registrationArguments($0, extra: ["--origin", "https://other.example"]))
        }
        #expect(run.status == 0, "\(run.stdout)")
    }

    static let authentications = [
        "authentication/es256-security-key-localhost.json",
        "authentication/eddsa-security-key-localhost.json",
        "authentication/rs256-windows-hello-localhost.json",
        "authentication/es256-counter-zero.json",
        "authentication/spec-packed-es256-full.json",
    ]

    @Test(arguments: authentications)
    func authenticationSucceeds(_ name: String) throws {
        let vector = try Vector(name)
        let run = try vector.withResponseFile { CLI.run(vector.authenticationArguments($0)) }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stderr.isEmpty)
        let json = try run.json()
        #expect(
            Set(json.keys) == [
                "credential_id", "sign_count", "user_present", "user_verified", "backup_eligible", "backup_state",
            ])
        #expect(json["credential_id"] as? String == vector.expect["credential_id"] as? String)
        #expect(json["sign_count"] as? Int == vector.expect["sign_count"] as? Int)
        #expect(json["user_verified"] as? Bool == vector.expect["user_verified"] as? Bool)
        #expect(json["user_present"] as? Bool == true)
    }

    /// Recorded responses the core must reject, and the check it names.
    @Test(arguments: [
        ("registration/bad-origin-mismatch.json", "origin"),
        ("registration/bad-rp-id-mismatch.json", "rp_id"),
        ("registration/bad-unsupported-fmt.json", "unsupported_fmt"),
        ("registration/bad-empty-attestation-object.json", "malformed"),
        ("registration/bad-packed-aaguid-ext-mismatch.json", "aaguid_extension"),
    ])
    func registrationFailureNamesTheCheck(_ name: String, _ check: String) throws {
        let vector = try Vector(name)
        let run = try vector.withResponseFile { CLI.run(vector.registrationArguments($0)) }
        try expectFailure(run, check: check)
    }

    @Test(arguments: [
        ("authentication/bad-sign-count-not-increased.json", "sign_count"),
        ("authentication/bad-signature-wrong-public-key.json", "signature"),
        ("authentication/bad-uv-required-but-not-set.json", "user_verification"),
        ("authentication/bad-rp-id-mismatch.json", "rp_id"),
    ])
    func authenticationFailureNamesTheCheck(_ name: String, _ check: String) throws {
        let vector = try Vector(name)
        let run = try vector.withResponseFile { CLI.run(vector.authenticationArguments($0)) }
        try expectFailure(run, check: check)
    }

    // Negative cases from a valid vector, changing exactly one argument.

    @Test func wrongChallengeFails() throws {
        let vector = try Vector("registration/none-es256-security-key-localhost.json")
        let run = try vector.withResponseFile { path in
            CLI.run(vector.registrationArguments(path).map { $0 == vector.challenge ? "AAAAAAAAAAAAAAAAAAAAAA" : $0 })
        }
        try expectFailure(run, check: "challenge")
    }

    @Test func wrongOriginFails() throws {
        let vector = try Vector("registration/none-es256-security-key-localhost.json")
        let run = try vector.withResponseFile { path in
            CLI.run(vector.registrationArguments(path).map { $0 == vector.origin ? "https://evil.example" : $0 })
        }
        try expectFailure(run, check: "origin")
    }

    @Test func algorithmOutsideAlgIsRejected() throws {
        let vector = try Vector("registration/packed-x5c-es256-yubikey-firefox.json")
        let restricted = try vector.withResponseFile {
            CLI.run(vector.registrationArguments($0, extra: ["--alg", "EdDSA"]))
        }
        try expectFailure(restricted, check: "algorithm")
        let allowed = try vector.withResponseFile {
            CLI.run(vector.registrationArguments($0, extra: ["--alg", "EdDSA", "--alg", "es256"]))
        }
        #expect(allowed.status == 0, "\(allowed.stdout)")
    }

    @Test func storedKeyOutsideAlgIsRejected() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let run = try vector.withResponseFile {
            CLI.run(vector.authenticationArguments($0, extra: ["--alg", "RS256"]))
        }
        try expectFailure(run, check: "algorithm")
    }

    @Test func requireUVRejectsAResponseWithoutUV() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        #expect(!vector.requireUV)
        let run = try vector.withResponseFile { CLI.run(vector.authenticationArguments($0, extra: ["--require-uv"])) }
        try expectFailure(run, check: "user_verification")
    }

    @Test func certificatesAreCheckedAtTheGivenTime() throws {
        let vector = try Vector("registration/apple-iphone-passkey.json")
        let run = try vector.withResponseFile { path in
            CLI.run([
                "verify", "registration", "--rp-id", vector.rpID, "--origin", vector.origin, "--challenge",
                vector.challenge, "--at", "2030-01-01T00:00:00Z", path,
            ])
        }
        try expectFailure(run, check: "trust_chain")
    }

    @Test func atDefaultsToTheEnvironmentClock() throws {
        let vector = try Vector("registration/apple-iphone-passkey.json")
        func run(now: Date) throws -> CLIRun {
            try vector.withResponseFile { path in
                CLI.run(
                    [
                        "verify", "registration", "--rp-id", vector.rpID, "--origin", vector.origin, "--challenge",
                        vector.challenge, path,
                    ], now: now)
            }
        }
        let inside = try #require(ArgumentValues.parseDate("2021-09-01T00:00:00Z"))
        #expect(try run(now: inside).status == 0)
        try expectFailure(try run(now: inside.addingTimeInterval(365 * 86_400)), check: "trust_chain")
    }

    @Test func unparseableFileIsAVerificationFailure() throws {
        let run = try Vector.withTemporaryFile(Data("not json".utf8)) { path in
            CLI.run(["verify", "registration", "--rp-id", "x", "--origin", "https://x", "--challenge", "AAAA", path])
        }
        try expectFailure(run, check: "malformed")
        let authentication = try Vector.withTemporaryFile(Data("{}".utf8)) { path in
            CLI.run([
                "verify", "authentication", "--rp-id", "x", "--origin", "https://x", "--challenge", "AAAA",
                "--public-key",
                "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI",
                "--sign-count", "0", path,
            ])
        }
        try expectFailure(authentication, check: "malformed")
    }

    @Test func readsTheResponseFromStandardInput() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let run = CLI.run(vector.authenticationArguments("-"), stdin: Array(try vector.responseJSON()))
        #expect(run.status == 0, "\(run.stdout)")
    }

    /// Status 1, nothing on stderr, and exactly {"error", "check"} on stdout.
    func expectFailure(_ run: CLIRun, check: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.isEmpty, sourceLocation: sourceLocation)
        let json = try run.json()
        #expect(Set(json.keys) == ["error", "check"], sourceLocation: sourceLocation)
        #expect(json["check"] as? String == check, "\(json["error"] ?? "")", sourceLocation: sourceLocation)
        #expect((json["error"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    }
}
