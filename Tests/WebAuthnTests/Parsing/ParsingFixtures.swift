import Foundation
import WebAuthn

/// Test helpers for the parsing suites: hex, captured errors, and the conformance vectors'
/// base64url fields (loaded relative to this file).
enum ParsingFixtures {
    static let conformanceDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance")

    /// Bytes from a hex string (whitespace ignored). Test-only input, so bad hex yields [].
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") })
        guard digits.count % 2 == 0 else { return [] }
        var out = [UInt8]()
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return []
            }
            out.append(byte)
            index += 2
        }
        return out
    }

    static func hexString(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The error a parsing call throws, or nil when it succeeds. (The parsers throw only
    /// WebAuthnError; anything else is reported as a distinct, never-expected error.)
    static func error<T>(_ body: () throws -> T) -> WebAuthnError? {
        do {
            _ = try body()
            return nil
        } catch let error as WebAuthnError {
            return error
        } catch {
            return WebAuthnError(.revocation, "unexpected error type: \(error)")
        }
    }

    /// One conformance vector as a JSON dictionary.
    struct Vector: CustomStringConvertible, Sendable {
        let name: String
        let kind: String
        let ok: Bool
        let response: [String: String]
        let expect: [String: String]
        let credentialPublicKey: String?
        let expectedChallenge: String?

        var description: String { "\(kind)/\(name)" }
    }

    /// Every vector of one kind, sorted by file name; unreadable files are skipped.
    static func vectors(_ kind: String) -> [Vector] {
        let folder = conformanceDirectory.appendingPathComponent(kind)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }
        return names.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let outer = object["response"] as? [String: Any],
                let inner = outer["response"] as? [String: Any],
                let expect = object["expect"] as? [String: Any]
            else { return nil }
            var response: [String: String] = [:]
            for (key, value) in inner {
                if let text = value as? String { response[key] = text }
            }
            var expectations: [String: String] = [:]
            for (key, value) in expect {
                if let text = value as? String {
                    expectations[key] = text
                } else if let number = value as? NSNumber, key == "sign_count" {
                    expectations[key] = number.stringValue
                }
            }
            return Vector(
                name: String(name.dropLast(5)), kind: kind, ok: (expect["ok"] as? Bool) ?? false,
                response: response, expect: expectations,
                credentialPublicKey: object["credential_public_key"] as? String,
                expectedChallenge: object["expected_challenge"] as? String)
        }
    }

    static func vector(_ kind: String, _ name: String) -> Vector? {
        vectors(kind).first { $0.name == name }
    }

    /// A base64url field of a vector's response, decoded. A few sources kept standard base64
    /// ('+', '/', padding) as recorded, so the fixture maps it to the url-safe alphabet first.
    static func field(_ vector: Vector, _ key: String) throws -> [UInt8] {
        guard let text = vector.response[key] else { throw FixtureError.missing("\(vector): \(key)") }
        let urlSafe = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return try Base64URL.decode(urlSafe)
    }

    /// The authenticator data inside a registration vector's attestation object.
    static func registrationAuthData(_ name: String) throws -> [UInt8] {
        guard let vector = vector("registration", name) else { throw FixtureError.missing(name) }
        return try AttestationObject(bytes: field(vector, "attestationObject")).authenticatorData.raw
    }

    enum FixtureError: Error { case missing(String) }
}
