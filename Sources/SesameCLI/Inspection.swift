import Foundation
import SesameCrypto
import WebAuthn

/// What `sesame inspect` found in its input: the parts it could parse, ready to print.
struct Inspection {
    /// What the input was.
    enum Kind: String {
        case registration
        case authentication
        case attestationObject = "attestation_object"
        case authenticatorData = "authenticator_data"
        case clientData = "client_data"
    }

    /// The members of a PublicKeyCredential that are not in client or authenticator data.
    struct Credential {
        var id: [UInt8]
        var transports: [String]
        var authenticatorAttachment: String?
        var userHandle: [UInt8]?
        var signature: [UInt8]?
    }

    /// The attestation statement: its format, claimed algorithm, certificates, and what the
    /// format verifier said about it (when it could run).
    struct Attestation {
        var format: String
        /// `attStmt.alg`, when present.
        var algorithm: Int64?
        /// The verifier's result; nil when it did not run (see `note`).
        var result: AttestationResult?
        /// The verifier's error, when it ran and rejected the statement.
        var error: WebAuthnError?
        /// Why the statement was not verified, when it was not.
        var note: String?
        /// The certificates, leaf first: from the result, else parsed from `x5c`.
        var certificates: [X509Certificate]
    }

    var kind: Kind
    var credential: Credential?
    var clientData: CollectedClientData?
    var authenticatorData: AuthenticatorData?
    var attestation: Attestation?

    /// A lenient policy for looking, not deciding: no trust anchors (chains are reported as
    /// unchecked), no SafetyNet CTS or freshness rule, any TPM vendor, any fido-u2f AAGUID.
    static let permissivePolicy = AttestationPolicy(
        trustAnchors: [:], requireSafetyNetCTSProfileMatch: false, safetyNetMaxAge: 100 * 365 * 24 * 3600,
        acceptUnregisteredTPMVendors: true, requireZeroAAGUIDForFIDOU2F: false, allowedFormats: nil)

    /// Detects what `input` is and parses it: credential JSON first; otherwise base64url whose
    /// bytes are clientDataJSON (starts with `{`), an attestation object (a CBOR map with `fmt`)
    /// or authenticator data. Certificates are checked at `now`.
    static func parse(_ input: [UInt8], now: Date) throws(WebAuthnError) -> Inspection {
        let text = trimmed(input)
        guard !text.isEmpty else { throw WebAuthnError(.malformed, "input is empty") }
        if text.first == UInt8(ascii: "{") {
            return try parseJSON(text, now: now)
        }
        let bytes: [UInt8]
        do {
            bytes = try Base64URL.decode(text)
        } catch {
            throw WebAuthnError(
                .malformed, "input is neither credential JSON nor base64url (\(error.message))")
        }
        guard !bytes.isEmpty else { throw WebAuthnError(.malformed, "input decodes to no bytes") }
        if bytes.first == UInt8(ascii: "{") {
            return Inspection(kind: .clientData, clientData: try CollectedClientData(json: bytes))
        }
        if let value = try? CBORDecoder().decode(bytes), value[textKey: "fmt"] != nil {
            let object = try AttestationObject(bytes: bytes)
            return Inspection(
                kind: .attestationObject, authenticatorData: object.authenticatorData,
                attestation: attestation(object, clientDataJSON: nil, now: now))
        }
        return Inspection(kind: .authenticatorData, authenticatorData: try AuthenticatorData(bytes: bytes))
    }

    /// JSON input: a credential, a wrapper whose `response` is a credential (a conformance
    /// vector), or clientDataJSON as plain text.
    private static func parseJSON(_ text: [UInt8], now: Date) throws(WebAuthnError) -> Inspection {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any] else {
                throw WebAuthnError(.malformed, "input is not a JSON object")
            }
            object = parsed
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.malformed, "input starts with '{' but is not valid JSON")
        }
        guard let response = object["response"] as? [String: Any] else {
            if object["challenge"] != nil, object["origin"] != nil {
                return Inspection(kind: .clientData, clientData: try CollectedClientData(json: text))
            }
            throw WebAuthnError(
                .malformed, "JSON input has no response object (expected a PublicKeyCredential in WebAuthn JSON form)")
        }
        if response["clientDataJSON"] == nil, let inner = response["response"] as? [String: Any] {
            return try parseCredential(object: response, response: inner, now: now)
        }
        return try parseCredential(object: object, response: response, now: now)
    }

    private static func parseCredential(
        object: [String: Any], response: [String: Any], now: Date
    ) throws(WebAuthnError) -> Inspection {
        let json: [UInt8]
        do {
            json = Array(try JSONSerialization.data(withJSONObject: object))
        } catch {
            throw WebAuthnError(.malformed, "credential JSON cannot be re-encoded")
        }
        if response["attestationObject"] != nil {
            let credential = try RegistrationCredential(json: json)
            let clientData = try CollectedClientData(json: credential.clientDataJSON)
            let attestationObject = try AttestationObject(bytes: credential.attestationObject)
            return Inspection(
                kind: .registration,
                credential: Credential(
                    id: credential.id,
                    transports: credential.transports.isEmpty ? legacyTransports(object) : credential.transports,
                    authenticatorAttachment: credential.authenticatorAttachment),
                clientData: clientData, authenticatorData: attestationObject.authenticatorData,
                attestation: attestation(attestationObject, clientDataJSON: credential.clientDataJSON, now: now))
        }
        if response["authenticatorData"] != nil {
            let credential = try AuthenticationCredential(json: json)
            return Inspection(
                kind: .authentication,
                credential: Credential(
                    id: credential.id, transports: [], authenticatorAttachment: credential.authenticatorAttachment,
                    userHandle: credential.userHandle, signature: credential.signature),
                clientData: try CollectedClientData(json: credential.clientDataJSON),
                authenticatorData: try AuthenticatorData(bytes: credential.authenticatorData))
        }
        throw WebAuthnError(.malformed, "credential.response has neither attestationObject nor authenticatorData")
    }

    /// `transports` where some clients put it: on the credential rather than in `response`.
    private static func legacyTransports(_ object: [String: Any]) -> [String] {
        (object["transports"] as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// Runs the format verifier when the client data hash is known; otherwise only lists what
    /// the statement carries.
    private static func attestation(
        _ object: AttestationObject, clientDataJSON: [UInt8]?, now: Date
    ) -> Attestation {
        var attestation = Attestation(
            format: object.format, algorithm: object.statement[textKey: "alg"]?.intValue, result: nil, error: nil,
            note: nil, certificates: [])
        if let clientDataJSON {
            do {
                let result = try AttestationFormats.verify(
                    format: object.format,
                    AttestationInput(
                        statement: object.statement, authenticatorData: object.authenticatorData,
                        clientDataHash: Digest.sha256(clientDataJSON), now: now, policy: permissivePolicy))
                attestation.result = result
                attestation.certificates = result.certificates
                return attestation
            } catch {
                attestation.error = error
            }
        } else {
            attestation.note =
                "not verified: the statement signs the clientDataJSON hash, and no clientDataJSON was given"
        }
        if object.statement[textKey: "x5c"] != nil {
            attestation.certificates =
                (try? AttestationChain.certificates(from: object.statement, format: object.format)) ?? []
        }
        return attestation
    }

    /// The input without leading and trailing ASCII whitespace.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
            let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(bytes[start...end])
    }
}
