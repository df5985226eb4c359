import Foundation
import WebAuthn

/// `sesame verify authentication`: runs the relying party's authentication ceremony (§7.2) on a
/// response file against a stored public key and counter, with the core's default policy.
enum VerifyAuthenticationCommand {
    static let name = "verify authentication"

    static let spec = CommandSpec(
        options: [
            OptionSpec("rp-id", .single, required: true, placeholder: "ID"),
            OptionSpec("origin", .repeated, required: true, placeholder: "ORIGIN"),
            OptionSpec("challenge", .single, required: true, placeholder: "B64URL"),
            OptionSpec("public-key", .single, required: true, placeholder: "COSE_B64URL"),
            OptionSpec("sign-count", .single, required: true, placeholder: "N"),
            OptionSpec("require-uv", .flag),
            OptionSpec("alg", .repeated, placeholder: "NAME"),
        ],
        positionals: ["FILE"], requiredPositionals: 1)

    /// The checked arguments.
    struct Options {
        var rpID: String
        var origins: [String]
        var challenge: [UInt8]
        var publicKey: COSEKey
        var signCount: UInt32
        var requireUserVerification: Bool
        var algorithms: [COSEAlgorithm]
        var file: String
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let options: Options
        let input: [UInt8]
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(arguments, spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.verifyAuthentication)
                return SesameCommandLine.success
            }
            options = try self.options(parsed)
            input = try ArgumentValues.input(options.file, environment: environment)
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        return VerificationOutput.emit(environment) { () throws(WebAuthnError) -> JSONOutput in
            try verify(input, options)
        }
    }

    static func options(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        let challenge = try ArgumentValues.base64URL(parsed.value("challenge") ?? "", option: "challenge")
        let keyBytes = try ArgumentValues.base64URL(parsed.value("public-key") ?? "", option: "public-key")
        let publicKey: COSEKey
        do {
            publicKey = try COSEKey(bytes: keyBytes)
        } catch {
            throw UsageError("--public-key is not a usable COSE key (\(error.message))")
        }
        let signCount = try ArgumentValues.signCount(parsed.value("sign-count") ?? "", option: "sign-count")
        let algorithms = try ArgumentValues.algorithms(parsed.all("alg"), option: "alg")
        return Options(
            rpID: parsed.value("rp-id") ?? "", origins: parsed.all("origin"), challenge: challenge,
            publicKey: publicKey,
            signCount: signCount, requireUserVerification: parsed.flag("require-uv"),
            algorithms: algorithms ?? RelyingPartyPolicy.defaultAlgorithms, file: parsed.positional(0) ?? "-")
    }

    /// Parses and verifies the assertion; every failure is the core's `WebAuthnError`.
    static func verify(_ input: [UInt8], _ options: Options) throws(WebAuthnError) -> JSONOutput {
        let credential = try AuthenticationCredential(json: input)
        guard options.algorithms.contains(options.publicKey.algorithm) else {
            throw WebAuthnError(
                .algorithm, "the stored key's algorithm \(options.publicKey.algorithm.name) is not allowed by --alg")
        }
        let userVerification: UserVerificationRequirement = options.requireUserVerification ? .required : .preferred
        let relyingParty = RelyingParty(
            policy: RelyingPartyPolicy(
                rpID: options.rpID, allowedOrigins: Set(options.origins), userVerification: userVerification,
                allowedAlgorithms: options.algorithms))
        let state = AuthenticationState(challenge: options.challenge, userVerification: userVerification)
        // The CLI has no credential store: the stored record is the key and counter given on the
        // command line, for the credential the response names. BE at registration is unknown.
        let stored = StoredCredential(
            id: credential.id, publicKey: options.publicKey, signCount: options.signCount, backupEligible: nil)
        let verified = try relyingParty.finishAuthentication(credential, state: state, stored: stored)
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
