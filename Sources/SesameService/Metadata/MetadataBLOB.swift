import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// Why a FIDO metadata BLOB was refused (docs/mds.md lists them with the CLI's exit codes).
public enum MetadataImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is larger than `MetadataBLOB.Limits.maxBytes`.
    case tooLarge(bytes: Int, limit: Int)
    /// Not a JWS, a header or payload member missing or ill-typed, an entry out of bounds.
    case malformed(String)
    /// The JWS signature does not verify with the leaf of `x5c`.
    case signature(String)
    /// `x5c` does not chain to the given root at the import time (or a certificate has expired).
    case chain(String)
    /// The root certificate file holds no usable certificate.
    case root(String)
    /// The BLOB's `no` is not greater than the stored BLOB's (a rollback); `--force` overrides.
    case rollback(stored: Int, offered: Int)
    /// The store refused or failed; nothing was written.
    case store(String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): return "the BLOB is \(bytes) bytes, more than the limit of \(limit)"
        case .malformed(let why): return "the BLOB is malformed: \(why)"
        case .signature(let why): return "the BLOB's signature does not verify: \(why)"
        case .chain(let why): return "the BLOB's certificate chain does not verify to the root: \(why)"
        case .root(let why): return "the root certificate is not usable: \(why)"
        case .rollback(let stored, let offered):
            return
                "the BLOB's serial number \(offered) is not greater than the stored BLOB's \(stored) (a rollback); --force imports it anyway"
        case .store(let why): return "the store failed, nothing was imported: \(why)"
        }
    }
}

/// A verified FIDO Metadata Service v3 BLOB (a JWS in compact form), parsed into store records.
/// Pure: the roots and the time are parameters.
public struct MetadataBLOB: Sendable {
    /// Bounds on what a BLOB may hold. The BLOB FIDO publishes is about 5 MB with a few hundred
    /// entries; these leave room to grow and bound the work a hostile file can cause.
    public struct Limits: Sendable, Hashable {
        public var maxBytes: Int
        public var maxEntries: Int
        public var maxDescriptionLength: Int
        /// The longest `icon` data URL kept (an icon over it is dropped, with a warning).
        public var maxIconLength: Int
        public var maxRootCertificates: Int
        public var maxCertificateBytes: Int
        public var maxStatusReports: Int
        public var maxKeyIdentifiers: Int
        public var maxChainLength: Int

        public init(
            maxBytes: Int = 20 * 1024 * 1024, maxEntries: Int = 20_000, maxDescriptionLength: Int = 200,
            maxIconLength: Int = 256 * 1024, maxRootCertificates: Int = 16, maxCertificateBytes: Int = 16 * 1024,
            maxStatusReports: Int = 64, maxKeyIdentifiers: Int = 1_024, maxChainLength: Int = 5
        ) {
            self.maxBytes = maxBytes
            self.maxEntries = maxEntries
            self.maxDescriptionLength = maxDescriptionLength
            self.maxIconLength = maxIconLength
            self.maxRootCertificates = maxRootCertificates
            self.maxCertificateBytes = maxCertificateBytes
            self.maxStatusReports = maxStatusReports
            self.maxKeyIdentifiers = maxKeyIdentifiers
            self.maxChainLength = maxChainLength
        }

        public static let standard = Limits()
    }

    /// `no`.
    public var serial: Int
    /// `nextUpdate`, "YYYY-MM-DD".
    public var nextUpdate: String
    public var legalHeader: String
    /// The FIDO2 and U2F entries.
    public var entries: [AuthenticatorMetadataRecord]
    /// UAF entries, which Sesame does not use.
    public var skippedEntries: Int
    /// What was dropped without refusing the BLOB (an icon that is not a bounded image).
    public var warnings: [String]
    /// SHA-256 of the file.
    public var sha256: [UInt8]

    /// Verifies `bytes` (the BLOB file) against `roots` at `now` and parses it: size, JWS form,
    /// `alg`, the `x5c` chain to a root at `now`, the signature by the `x5c` leaf, then the
    /// payload and every entry. CRLs are not consulted (docs/mds.md).
    public static func verify(
        _ bytes: [UInt8], roots: [X509Certificate], now: Date, limits: Limits = .standard
    ) throws(MetadataImportError) -> MetadataBLOB {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
        guard !roots.isEmpty else { throw .root("no root certificate given") }
        // The file may end with a newline.
        var compact = bytes
        while let last = compact.last, last == 0x0A || last == 0x0D || last == 0x20 { compact.removeLast() }
        let jws: WebAuthn.CompactJWS
        do {
            jws = try WebAuthn.CompactJWS(compact: compact)
        } catch {
            throw .malformed(error.message)
        }
        let header = try parseJSON(jws.header, what: "JWS header")
        let (algorithm, encoding) = try signatureAlgorithm(header)
        if header["crit"] != nil { throw .malformed("the JWS header has crit members") }
        if header["x5u"] != nil, header["x5c"] == nil {
            throw .malformed("the JWS header names its certificates by x5u; Sesame never fetches, x5c is needed")
        }
        let chain = try headerCertificates(header, limits: limits)
        do {
            _ = try X509ChainVerifier.verify(chain: chain, roots: roots, at: now)
        } catch {
            throw .chain("\(error)")
        }
        do {
            let key = try chain[0].publicKey()
            // RFC 7518 §3.4: ES256, ES384 and ES512 each name one curve, not only a hash.
            if let curve = Self.curve(of: algorithm), key.type != .ec(curve) {
                throw MetadataImportError.signature(
                    "the JWS alg \(header["alg"]?.stringValue ?? "") needs a \(curve.rawValue) key, and the x5c leaf's is not one"
                )
            }
            guard try key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm, format: encoding)
            else { throw MetadataImportError.signature("the signature is not the x5c leaf's over the JWS") }
        } catch let error as MetadataImportError {
            throw error
        } catch {
            throw .signature("\(error)")
        }

        let payload = try parseJSON(jws.payload, what: "payload")
        guard case .object = payload else { throw .malformed("the payload is not a JSON object") }
        let legalHeader = try requiredString(payload, "legalHeader", in: "payload", maxLength: 64 * 1024)
        let serial = try requiredInteger(payload, "no", in: "payload")
        let nextUpdate = try date(payload, "nextUpdate", in: "payload")
        guard let entryValues = payload["entries"]?.arrayValue else {
            throw .malformed("payload.entries is missing or not an array")
        }
        guard entryValues.count <= limits.maxEntries else {
            throw .malformed("payload.entries has \(entryValues.count) entries, more than \(limits.maxEntries)")
        }
        var entries: [AuthenticatorMetadataRecord] = []
        var skipped = 0
        var warnings: [String] = []
        var seen: Set<String> = []
        for (index, value) in entryValues.enumerated() {
            guard
                let entry = try parseEntry(
                    value, at: "entries[\(index)]", limits: limits, warnings: &warnings)
            else {
                skipped += 1
                continue
            }
            for key in (entry.aaguid.map { ["aaguid " + $0] } ?? [])
                + entry.attestationKeyIdentifiers.map({ "key " + $0 })
            {
                guard seen.insert(key).inserted else {
                    throw .malformed("entries[\(index)]: a second entry for \(key)")
                }
            }
            entries.append(entry)
        }
        return MetadataBLOB(
            serial: serial, nextUpdate: nextUpdate, legalHeader: legalHeader, entries: entries,
            skippedEntries: skipped, warnings: warnings, sha256: Digest.sha256(bytes))
    }

    // MARK: Header

    /// JWS `alg` values the MDS specification allows for the BLOB (RFC 7518 names).
    static func signatureAlgorithm(_ header: JSONValue) throws(MetadataImportError)
        -> (SignatureAlgorithm, ECDSASignatureFormat)
    {
        guard let alg = header["alg"]?.stringValue else { throw .malformed("the JWS header has no alg") }
        switch alg {
        case "ES256": return (.ecdsa(.sha256), .raw)
        case "ES384": return (.ecdsa(.sha384), .raw)
        case "ES512": return (.ecdsa(.sha512), .raw)
        case "RS256": return (.rsaPKCS1v15(.sha256), .der)
        case "RS384": return (.rsaPKCS1v15(.sha384), .der)
        case "RS512": return (.rsaPKCS1v15(.sha512), .der)
        case "PS256": return (.rsaPSS(.sha256), .der)
        case "PS384": return (.rsaPSS(.sha384), .der)
        case "PS512": return (.rsaPSS(.sha512), .der)
        default: throw .malformed("the JWS alg \(String(reflecting: String(alg.prefix(16)))) is not one MDS allows")
        }
    }

    /// The curve an ECDSA JWS alg fixes (ES256: P-256, ES384: P-384, ES512: P-521); nil for RSA.
    static func curve(of algorithm: SignatureAlgorithm) -> Curve? {
        switch algorithm {
        case .ecdsa(.sha256): return .p256
        case .ecdsa(.sha384): return .p384
        case .ecdsa(.sha512): return .p521
        default: return nil
        }
    }

    static func headerCertificates(_ header: JSONValue, limits: Limits) throws(MetadataImportError)
        -> [X509Certificate]
    {
        guard let items = header["x5c"]?.arrayValue, !items.isEmpty else {
            throw .malformed("the JWS header has no x5c certificate chain")
        }
        guard items.count <= limits.maxChainLength else {
            throw .malformed("x5c has \(items.count) certificates, more than \(limits.maxChainLength)")
        }
        var chain: [X509Certificate] = []
        for (index, item) in items.enumerated() {
            chain.append(try certificate(item, at: "x5c[\(index)]", limits: limits))
        }
        return chain
    }

    /// A standard-base64 DER certificate (x5c and attestationRootCertificates).
    static func certificate(_ value: JSONValue, at path: String, limits: Limits) throws(MetadataImportError)
        -> X509Certificate
    {
        guard let text = value.stringValue else { throw .malformed("\(path) is not a string") }
        guard text.utf8.count <= limits.maxCertificateBytes * 4 / 3 + 4,
            let der = Base64.decodeStandard(text), der.count <= limits.maxCertificateBytes
        else { throw .malformed("\(path) is not base64 of at most \(limits.maxCertificateBytes) bytes") }
        do {
            return try X509Certificate(der: der)
        } catch {
            throw .malformed("\(path) is not a DER certificate: \(error)")
        }
    }

    // MARK: Entries

    /// One entry as a record, nil for a UAF entry.
    static func parseEntry(
        _ value: JSONValue, at path: String, limits: Limits, warnings: inout [String]
    ) throws(MetadataImportError) -> AuthenticatorMetadataRecord? {
        guard case .object = value else { throw .malformed("\(path) is not an object") }
        if value["aaid"] != nil { return nil }
        guard let statement = value["metadataStatement"], case .object = statement else {
            throw .malformed("\(path).metadataStatement is missing or not an object")
        }
        let family = try requiredString(statement, "protocolFamily", in: "\(path).metadataStatement", maxLength: 16)
        guard let protocolFamily = MetadataProtocolFamily(rawValue: family) else {
            throw .malformed(
                "\(path).metadataStatement.protocolFamily \(String(reflecting: family)) is not uaf, u2f or fido2")
        }
        if protocolFamily == .uaf { return nil }

        var aaguid: String?
        if let raw = value["aaguid"] {
            guard let text = raw.stringValue, let formatted = canonicalAAGUID(text) else {
                throw .malformed("\(path).aaguid is not a UUID")
            }
            aaguid = formatted
            if let inner = statement["aaguid"], inner.stringValue.flatMap(canonicalAAGUID) != formatted {
                throw .malformed("\(path).metadataStatement.aaguid differs from the entry's")
            }
        }
        var keyIdentifiers: [String] = []
        if let raw = value["attestationCertificateKeyIdentifiers"] {
            guard let items = raw.arrayValue, items.count <= limits.maxKeyIdentifiers else {
                throw .malformed(
                    "\(path).attestationCertificateKeyIdentifiers is not an array of at most \(limits.maxKeyIdentifiers)"
                )
            }
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue, isHex(text, length: 40) else {
                    throw .malformed("\(path).attestationCertificateKeyIdentifiers[\(index)] is not 40 hex digits")
                }
                keyIdentifiers.append(text.lowercased())
            }
        }
        switch protocolFamily {
        case .fido2 where aaguid == nil: throw .malformed("\(path) is a fido2 entry without an aaguid")
        case .u2f where keyIdentifiers.isEmpty:
            throw .malformed("\(path) is a u2f entry without attestationCertificateKeyIdentifiers")
        default: break
        }

        let statementPath = "\(path).metadataStatement"
        let description = try requiredString(
            statement, "description", in: statementPath, maxLength: limits.maxDescriptionLength)
        guard !description.isEmpty,
            !description.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .malformed("\(statementPath).description is empty or holds control characters") }
        let authenticatorVersion = try requiredInteger(statement, "authenticatorVersion", in: statementPath)
        guard let typeValues = statement["attestationTypes"]?.arrayValue, typeValues.count <= 16 else {
            throw .malformed("\(statementPath).attestationTypes is missing or not a short array")
        }
        var attestationTypes: [MetadataAttestationType] = []
        for (index, item) in typeValues.enumerated() {
            guard let text = item.stringValue, let type = MetadataAttestationType(rawValue: text) else {
                throw .malformed(
                    "\(statementPath).attestationTypes[\(index)] is not an attestation type of the FIDO registry")
            }
            attestationTypes.append(type)
        }
        guard let rootValues = statement["attestationRootCertificates"]?.arrayValue,
            rootValues.count <= limits.maxRootCertificates
        else {
            throw .malformed(
                "\(statementPath).attestationRootCertificates is missing or has more than \(limits.maxRootCertificates)"
            )
        }
        var roots: [[UInt8]] = []
        for (index, item) in rootValues.enumerated() {
            roots.append(
                try certificate(item, at: "\(statementPath).attestationRootCertificates[\(index)]", limits: limits).der)
        }
        var icon: String?
        if let raw = statement["icon"] {
            switch IconDataURL.check(raw.stringValue ?? "", maxLength: limits.maxIconLength) {
            case .success(let checked): icon = checked
            case .failure(let why): warnings.append("\(statementPath).icon dropped: \(why.reason)")
            }
        }

        guard let reportValues = value["statusReports"]?.arrayValue, reportValues.count <= limits.maxStatusReports
        else { throw .malformed("\(path).statusReports is missing or has more than \(limits.maxStatusReports)") }
        var reports: [MetadataStatusReport] = []
        for (index, item) in reportValues.enumerated() {
            let reportPath = "\(path).statusReports[\(index)]"
            guard case .object = item else { throw .malformed("\(reportPath) is not an object") }
            let status = try requiredString(item, "status", in: reportPath, maxLength: 64)
            guard !status.isEmpty, status.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                throw .malformed("\(reportPath).status is not a status name")
            }
            var effectiveDate: String?
            if item["effectiveDate"] != nil { effectiveDate = try date(item, "effectiveDate", in: reportPath) }
            var certificateNumber: String?
            if item["certificateNumber"] != nil {
                certificateNumber = try requiredString(item, "certificateNumber", in: reportPath, maxLength: 128)
            }
            reports.append(
                MetadataStatusReport(
                    status: MetadataStatus(text: status), effectiveDate: effectiveDate,
                    certificateNumber: certificateNumber))
        }
        let lastChange = try date(value, "timeOfLastStatusChange", in: path)
        return AuthenticatorMetadataRecord(
            aaguid: aaguid, attestationKeyIdentifiers: keyIdentifiers, description: description, icon: icon,
            authenticatorVersion: authenticatorVersion, protocolFamily: protocolFamily,
            attestationTypes: attestationTypes, attestationRootCertificates: roots, statusReports: reports,
            timeOfLastStatusChange: lastChange)
    }

    // MARK: Values

    static func parseJSON(_ bytes: [UInt8], what: String) throws(MetadataImportError) -> JSONValue {
        do {
            return try JSONReader.parse(
                bytes, limits: JSONReader.Limits(maxDepth: 32, maxMembers: 512, maxValues: 4_000_000))
        } catch {
            throw .malformed("the \(what) is not JSON: \(error.message)")
        }
    }

    static func requiredString(_ object: JSONValue, _ name: String, in path: String, maxLength: Int)
        throws(MetadataImportError) -> String
    {
        guard let text = object[name]?.stringValue else {
            throw .malformed("\(path).\(name) is missing or not a string")
        }
        guard text.count <= maxLength else {
            throw .malformed("\(path).\(name) is longer than \(maxLength) characters")
        }
        return text
    }

    static func requiredInteger(_ object: JSONValue, _ name: String, in path: String) throws(MetadataImportError)
        -> Int
    {
        guard case .number(let text)? = object[name], let value = Int(text), value >= 0, value < 1 << 53 else {
            throw .malformed("\(path).\(name) is missing or not a non-negative integer")
        }
        return value
    }

    /// A "YYYY-MM-DD" member.
    static func date(_ object: JSONValue, _ name: String, in path: String) throws(MetadataImportError) -> String {
        let text = try requiredString(object, name, in: path, maxLength: 10)
        let bytes = Array(text.utf8)
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }),
            let month = Int(text.dropFirst(5).prefix(2)), (1...12).contains(month),
            let day = Int(text.suffix(2)), (1...31).contains(day)
        else { throw .malformed("\(path).\(name) is not a YYYY-MM-DD date") }
        return text
    }

    static func isHex(_ text: String, length: Int) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { isHexDigit($0) }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default: return false
        }
    }

    /// Lowercase 8-4-4-4-12, nil when `text` is not a UUID in that form.
    public static func canonicalAAGUID(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else if !isHexDigit(byte) {
                return nil
            }
        }
        return text.lowercased()
    }
}

/// The checks an icon passes before Sesame keeps it and puts it in an `<img src>`: a `data:` URL
/// of a raster image type, in base64, bounded in length, whose bytes start as that type does.
public enum IconDataURL {
    public struct Refusal: Error, Equatable, Sendable {
        public var reason: String
    }

    /// The image types kept, with the first bytes each file of the type begins with.
    static let types: [(String, [UInt8])] = [
        ("image/png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        ("image/jpeg", [0xFF, 0xD8, 0xFF]),
        ("image/gif", Array("GIF8".utf8)),
        ("image/webp", Array("RIFF".utf8)),
    ]

    /// `text` when it is a kept icon, else why not.
    public static func check(_ text: String, maxLength: Int) -> Result<String, Refusal> {
        guard text.utf8.count <= maxLength else {
            return .failure(Refusal(reason: "longer than \(maxLength) bytes"))
        }
        for (type, magic) in types {
            let prefix = "data:\(type);base64,"
            guard text.hasPrefix(prefix) else { continue }
            guard let data = Base64.decodeStandard(text.dropFirst(prefix.count)), !data.isEmpty else {
                return .failure(Refusal(reason: "not base64"))
            }
            guard data.starts(with: magic) else { return .failure(Refusal(reason: "its bytes are not \(type)")) }
            return .success(text)
        }
        return .failure(Refusal(reason: "not a base64 data: URL of a PNG, JPEG, GIF or WebP image"))
    }
}
