import Foundation
import SesameCrypto
import Testing
import WebAuthn

/// A registration vector from Tests/Data/conformance, reduced to what a format verifier needs:
/// the attestation object, the client data hash, the clock and the trust anchors.
struct FormatVector: CustomTestStringConvertible, Sendable {
    let name: String
    let attestationObject: [UInt8]
    let clientDataJSON: [UInt8]
    let verifyAt: String?
    let validity: (notBefore: String, notAfter: String)?
    let rootsPEM: [String: [String]]?
    let expectOK: Bool
    let expectCode: String?

    var testDescription: String { name }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance/registration")

    /// The vectors whose file name starts with one of `prefixes`, sorted by name.
    static func named(_ prefixes: [String]) -> [FormatVector] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in name.hasSuffix(".json") && prefixes.contains { name.hasPrefix($0) } }
            .sorted().compactMap { load($0) }
    }

    /// One vector by file name.
    static func load(_ fileName: String) -> FormatVector? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let credential = json["response"] as? [String: Any],
            let response = credential["response"] as? [String: Any],
            let attestationObject = response["attestationObject"] as? String,
            let clientDataJSON = response["clientDataJSON"] as? String,
            let expect = json["expect"] as? [String: Any]
        else { return nil }
        var validity: (String, String)?
        if let window = json["x5c_validity"] as? [String: Any], let notBefore = window["not_before"] as? String,
            let notAfter = window["not_after"] as? String
        {
            validity = (notBefore, notAfter)
        }
        return FormatVector(
            name: fileName,
            attestationObject: Array(attestationObject.utf8), clientDataJSON: Array(clientDataJSON.utf8),
            verifyAt: json["verify_at"] as? String, validity: validity,
            rootsPEM: json["attestation_roots_pem"] as? [String: [String]],
            expectOK: (expect["ok"] as? Bool) ?? false, expectCode: expect["code"] as? String)
    }

    /// The conformance README's clock: `verify_at`; else, for a vector that should verify, the
    /// middle of `x5c_validity`; else the real time.
    var now: Date {
        if let verifyAt, let date = Self.date(verifyAt) { return date }
        if expectOK, let validity, let notBefore = Self.date(validity.notBefore),
            let notAfter = Self.date(validity.notAfter)
        {
            return notBefore.addingTimeInterval(notAfter.timeIntervalSince(notBefore) / 2)
        }
        return Date()
    }

    /// The parsed attestation object.
    func decodedAttestation() throws -> AttestationObject {
        try AttestationObject(bytes: try Self.decode(attestationObject))
    }

    /// The vectors keep their sources' encodings: base64url, sometimes padded, and standard
    /// base64 in the py_webauthn TPM samples. Normalised here to unpadded base64url.
    static func decode(_ text: [UInt8]) throws -> [UInt8] {
        let normalised = String(decoding: text, as: UTF8.self)
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return try Base64URL.decode(normalised)
    }

    /// The policy with this vector's trust anchors (none configured when the field is absent).
    func policy() throws -> AttestationPolicy {
        var anchors: [String: [X509Certificate]] = [:]
        for (format, pems) in rootsPEM ?? [:] {
            anchors[format] = try pems.flatMap { try X509Certificate.certificates(pem: $0) }
        }
        return AttestationPolicy(trustAnchors: anchors)
    }

    /// The verifier input exactly as the registration ceremony would build it.
    func input() throws -> AttestationInput {
        let attestation = try decodedAttestation()
        let clientDataHash = Digest.sha256(try Self.decode(clientDataJSON))
        return AttestationInput(
            statement: attestation.statement, authenticatorData: attestation.authenticatorData,
            clientDataHash: clientDataHash, now: now, policy: try policy())
    }

    static func date(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFraction.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}

/// Small helpers the format tests use to break exactly one thing in a valid fixture.
enum FormatTestSupport {
    /// `map` with the text key `key` set to `value` (replaced in place, or appended).
    static func setting(_ map: CBORValue, _ key: String, to value: CBORValue) -> CBORValue {
        var entries = map.mapValue ?? []
        if let index = entries.firstIndex(where: { $0.key == .text(key) }) {
            entries[index].value = value
        } else {
            entries.append(CBORMapEntry(key: .text(key), value: value))
        }
        return .map(entries)
    }

    /// `map` without the text key `key`.
    static func removing(_ map: CBORValue, _ key: String) -> CBORValue {
        .map((map.mapValue ?? []).filter { $0.key != .text(key) })
    }

    /// `bytes` with the byte at `index` (counted from the end when negative) XOR-ed with 0x01.
    static func flipping(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var copy = bytes
        let position = index >= 0 ? index : copy.count + index
        copy[position] ^= 0x01
        return copy
    }

    /// Runs `body` and returns the WebAuthnError it threw; nil when it did not throw (any other
    /// error is recorded as a test failure).
    static func error(_ body: () throws -> Void) -> WebAuthnError? {
        do {
            try body()
            return nil
        } catch let error as WebAuthnError {
            return error
        } catch {
            Issue.record("expected a WebAuthnError, got \(error)")
            return nil
        }
    }
}
