import Foundation
import WebAuthn

/// `sesame verify authentication`: runs the relying party's authentication ceremony (§7.2) on a
/// response file against a stored public key and counter, with the core's default policy.
enum VerifyAuthenticationCommand {
    static let name = "verify authentication"

    static let spec = VerifyCeremony.spec([
        OptionSpec("public-key", .single, required: true, placeholder: "COSE_B64URL"),
        OptionSpec("sign-count", .single, required: true, placeholder: "N"),
    ])

    /// The stored credential the assertion is checked against.
    struct Stored {
        var publicKey: COSEKey
        var signCount: UInt32
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        VerifyCeremony.run(
            name, arguments, spec: spec, usage: Usage.verifyAuthentication, environment: environment,
            options: options, verify: verify)
    }

    static func options(_ parsed: ParsedArguments) throws(UsageError) -> (VerifyCeremony, Stored) {
        let ceremony = try VerifyCeremony(parsed)
        let keyBytes = try ArgumentValues.base64URL(parsed.value("public-key") ?? "", option: "public-key")
        let publicKey: COSEKey
        do {
            publicKey = try COSEKey(bytes: keyBytes)
        } catch {
            throw UsageError("--public-key is not a usable COSE key (\(error.message))")
        }
        let signCount = try ArgumentValues.signCount(parsed.value("sign-count") ?? "", option: "sign-count")
        return (ceremony, Stored(publicKey: publicKey, signCount: signCount))
    }

    /// Parses and verifies the assertion; every failure is the core's `WebAuthnError`.
    static func verify(_ input: [UInt8], _ ceremony: VerifyCeremony, _ options: Stored) throws(WebAuthnError)
        -> JSONOutput
    {
        let credential = try AuthenticationCredential(json: input)
        guard ceremony.algorithms.contains(options.publicKey.algorithm) else {
            throw WebAuthnError(
                .algorithm, "the stored key's algorithm \(options.publicKey.algorithm.name) is not allowed by --alg")
        }
        let state = AuthenticationState(challenge: ceremony.challenge, userVerification: ceremony.userVerification)
        // The CLI has no credential store: the stored record is the key and counter given on the
        // command line, for the credential the response names. BE at registration is unknown.
        let stored = StoredCredential(
            id: credential.id, publicKey: options.publicKey, signCount: options.signCount, backupEligible: nil)
        let verified = try ceremony.relyingParty.finishAuthentication(credential, state: state, stored: stored)
        return .object([
            ("credential_id", .string(Base64URL.encode(verified.credentialID))),
            ("sign_count", .integer(Int64(verified.signCount))),
            ("user_present", .bool(verified.authenticatorData.flags.contains(.userPresent))),
            ("user_verified", .bool(verified.userVerified)),
            ("backup_eligible", .bool(verified.backupEligible)),
            ("backup_state", .bool(verified.backupState)),
        ])
    }
}
