import Foundation
import WebAuthn

/// `sesame verify registration`: runs the relying party's registration ceremony (§7.1) on a
/// response file with the core's default policy and prints a JSON summary or the failed check.
enum VerifyRegistrationCommand {
    static let name = "verify registration"

    static let spec = CommandSpec(
        options: [
            OptionSpec("rp-id", .single, required: true, placeholder: "ID"),
            OptionSpec("origin", .repeated, required: true, placeholder: "ORIGIN"),
            OptionSpec("challenge", .single, required: true, placeholder: "B64URL"),
            OptionSpec("require-uv", .flag),
            OptionSpec("at", .single, placeholder: "ISO8601"),
            OptionSpec("alg", .repeated, placeholder: "NAME"),
        ],
        positionals: ["FILE"], requiredPositionals: 1)

    /// The checked arguments.
    struct Options {
        var rpID: String
        var origins: [String]
        var challenge: [UInt8]
        var requireUserVerification: Bool
        var at: Date
        var algorithms: [COSEAlgorithm]
        var file: String
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let options: Options
        let input: [UInt8]
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(arguments, spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.verifyRegistration)
                return SesameCommandLine.success
            }
            options = try self.options(parsed, environment: environment)
            input = try ArgumentValues.input(options.file, environment: environment)
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        return VerificationOutput.emit(environment) { () throws(WebAuthnError) -> JSONOutput in
            try verify(input, options)
        }
    }

    static func options(_ parsed: ParsedArguments, environment: CommandEnvironment) throws(UsageError) -> Options {
        let challenge = try ArgumentValues.base64URL(parsed.value("challenge") ?? "", option: "challenge")
        let at = try parsed.value("at").map { (text) throws(UsageError) -> Date in
            try ArgumentValues.date(text, option: "at")
        }
        let algorithms = try ArgumentValues.algorithms(parsed.all("alg"), option: "alg")
        return Options(
            rpID: parsed.value("rp-id") ?? "", origins: parsed.all("origin"), challenge: challenge,
            requireUserVerification: parsed.flag("require-uv"), at: at ?? environment.now(),
            algorithms: algorithms ?? RelyingPartyPolicy.defaultAlgorithms, file: parsed.positional(0) ?? "-")
    }

    /// Parses and verifies the response; every failure is the core's `WebAuthnError`.
    static func verify(_ input: [UInt8], _ options: Options) throws(WebAuthnError) -> JSONOutput {
        let credential = try RegistrationCredential(json: input)
        let userVerification: UserVerificationRequirement = options.requireUserVerification ? .required : .preferred
        let relyingParty = RelyingParty(
            policy: RelyingPartyPolicy(
                rpID: options.rpID, allowedOrigins: Set(options.origins), userVerification: userVerification,
                allowedAlgorithms: options.algorithms))
        let state = RegistrationState(
            challenge: options.challenge, userHandle: [], userVerification: userVerification,
            algorithms: options.algorithms)
        let verified = try relyingParty.finishRegistration(credential, state: state, now: options.at)
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
