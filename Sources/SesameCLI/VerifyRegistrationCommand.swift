import Foundation
import WebAuthn

/// `sesame verify registration`: runs the relying party's registration ceremony (§7.1) on a
/// response file with the core's default policy and prints a JSON summary or the failed check.
enum VerifyRegistrationCommand {
    static let name = "verify registration"

    static let spec = VerifyCeremony.spec([OptionSpec("at", .single, placeholder: "ISO8601")])

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        VerifyCeremony.run(
            name, arguments, spec: spec, usage: Usage.verifyRegistration, environment: environment,
            options: { (parsed) throws(UsageError) in try options(parsed, environment: environment) },
            verify: verify)
    }

    /// The ceremony, and the time the attestation is checked at (`--at`, else now).
    static func options(_ parsed: ParsedArguments, environment: CommandEnvironment) throws(UsageError)
        -> (VerifyCeremony, Date)
    {
        let ceremony = try VerifyCeremony(parsed)
        let at = try parsed.value("at").map { (text) throws(UsageError) -> Date in
            try ArgumentValues.date(text, option: "at")
        }
        return (ceremony, at ?? environment.now())
    }

    /// Parses and verifies the response; every failure is the core's `WebAuthnError`.
    static func verify(_ input: [UInt8], _ ceremony: VerifyCeremony, _ at: Date) throws(WebAuthnError) -> JSONOutput {
        let credential = try RegistrationCredential(json: input)
        let state = RegistrationState(
            challenge: ceremony.challenge, userHandle: [], userVerification: ceremony.userVerification,
            algorithms: ceremony.algorithms)
        let verified = try ceremony.relyingParty.finishRegistration(credential, state: state, now: at)
        return .object([
            ("credential_id", .string(Base64URL.encode(verified.credentialID))),
            ("public_key", .string(Base64URL.encode(verified.publicKey.encoded))),
            ("sign_count", .integer(Int64(verified.signCount))),
            ("fmt", .string(verified.attestation.format)),
            ("attestation_type", .string(verified.attestation.type.rawValue)),
            ("aaguid", .string(AAGUIDRegistry.format(verified.aaguid))),
            ("backup_eligible", .bool(verified.backupEligible)),
            ("backup_state", .bool(verified.backupState)),
        ])
    }
}
