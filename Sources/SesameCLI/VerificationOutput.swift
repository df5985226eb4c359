import WebAuthn

/// How both `verify` commands report: the summary JSON and status 0, or
/// `{"error": MESSAGE, "check": CODE}` and status 1, both on standard output.
enum VerificationOutput {
    static func emit(
        _ environment: CommandEnvironment, _ body: () throws(WebAuthnError) -> JSONOutput
    ) -> Int32 {
        do {
            let summary = try body()
            environment.writeOutput(summary.rendered() + "\n")
            return SesameCommandLine.success
        } catch {
            environment.writeOutput(failure(error).rendered() + "\n")
            return SesameCommandLine.failure
        }
    }

    /// The failure object; `check` is the core's stable error code.
    static func failure(_ error: WebAuthnError) -> JSONOutput {
        .object([("error", .string(error.message)), ("check", .string(error.code.rawValue))])
    }
}
