/// The `none` format (§8.7): no statement, nothing proved.
public enum NoneAttestation: AttestationFormatVerifier {
    public static let format = "none"

    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.7: attStmt is an empty map.
        guard let entries = input.statement.mapValue, entries.isEmpty else {
            throw WebAuthnError(.attestationStatement, "none: attStmt must be an empty map")
        }
        return AttestationResult(format: format, type: .none, certificates: [], chainVerified: false, chainNote: nil)
    }
}
