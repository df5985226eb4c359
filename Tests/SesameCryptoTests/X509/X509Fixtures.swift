import Foundation
import SesameCrypto
import Testing

/// Loads the certificates in Fixtures/ (extracted from the conformance vectors in
/// Tests/Data/conformance, plus synthetic ones made by Fixtures/make-synthetic.sh). Package.swift
/// excludes that folder from the test target.
enum X509Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    /// The first (for DER: the only) certificate in a fixture file.
    static func certificate(_ name: String) throws -> X509Certificate {
        if name.hasSuffix(".pem") {
            return try #require(try X509Certificate.certificates(pem: text(name)).first)
        }
        return try X509Certificate(der: bytes(name))
    }

    /// An instant written in ISO 8601 UTC, e.g. "2024-06-01T00:00:00Z".
    static func date(_ iso: String) throws -> Date {
        try Date(iso, strategy: .iso8601)
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            default: continue
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
