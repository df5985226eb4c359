import Foundation
import WebAuthn

/// What both `sesame verify` ceremonies take (the relying party, the challenge and the response
/// file) and how each runs: read the arguments and the file, verify with the core's default policy,
/// print the JSON summary or the failed check.
struct VerifyCeremony {
    var rpID: String
    var origins: [String]
    var challenge: [UInt8]
    var requireUserVerification: Bool
    var algorithms: [COSEAlgorithm]
    var file: String

    /// The command's options: the ceremony's own between the relying party's and the policy's.
    static func spec(_ own: [OptionSpec]) -> CommandSpec {
        CommandSpec(
            options: [
                OptionSpec("rp-id", .single, required: true, placeholder: "ID"),
                OptionSpec("origin", .repeated, required: true, placeholder: "ORIGIN"),
                OptionSpec("challenge", .single, required: true, placeholder: "B64URL"),
            ] + own + [
                OptionSpec("require-uv", .flag),
                OptionSpec("alg", .repeated, placeholder: "NAME"),
            ],
            positionals: ["FILE"], requiredPositionals: 1)
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        challenge = try ArgumentValues.base64URL(parsed.value("challenge") ?? "", option: "challenge")
        let algorithms = try ArgumentValues.algorithms(parsed.all("alg"), option: "alg")
        rpID = parsed.value("rp-id") ?? ""
        origins = parsed.all("origin")
        requireUserVerification = parsed.flag("require-uv")
        self.algorithms = algorithms ?? RelyingPartyPolicy.defaultAlgorithms
        file = parsed.positional(0) ?? "-"
    }

    var userVerification: UserVerificationRequirement { requireUserVerification ? .required : .preferred }

    var relyingParty: RelyingParty {
        RelyingParty(
            policy: RelyingPartyPolicy(
                rpID: rpID, allowedOrigins: Set(origins), userVerification: userVerification,
                allowedAlgorithms: algorithms))
    }

    /// Runs a verify command: its options read by `options` (a usage error is status 2), the
    /// response file read, then `verify`'s summary or the failed check.
    static func run<Options>(
        _ command: String, _ arguments: [String], spec: CommandSpec, usage: String, environment: CommandEnvironment,
        options: (ParsedArguments) throws(UsageError) -> (VerifyCeremony, Options),
        verify: ([UInt8], VerifyCeremony, Options) throws(WebAuthnError) -> JSONOutput
    ) -> Int32 {
        let reading = SesameCommandLine.reading(command, arguments, spec: spec, usage: usage, environment) {
            (parsed) throws(UsageError) in
            let (ceremony, own) = try options(parsed)
            return (ceremony, own, try ArgumentValues.input(ceremony.file, environment: environment))
        }
        guard let (ceremony, own, input) = reading.value else { return reading.status }
        return VerificationOutput.emit(environment) { () throws(WebAuthnError) -> JSONOutput in
            try verify(input, ceremony, own)
        }
    }
}
