/// The part of an Android Keystore AuthorizationList that WebAuthn checks.
public struct AndroidAuthorizationList: Sendable, Hashable {
    /// [1] purpose (KM_PURPOSE_SIGN = 2), when present.
    public var purpose: [Int]?
    /// [702] origin (KM_ORIGIN_GENERATED = 0), when present.
    public var origin: Int?
    /// [600] allApplications present.
    public var allApplications: Bool

    /// A list from its parts.
    public init(purpose: [Int]?, origin: Int?, allApplications: Bool) {
        self.purpose = purpose
        self.origin = origin
        self.allApplications = allApplications
    }

    static let purposeTag: UInt32 = 1
    static let allApplicationsTag: UInt32 = 600
    static let originTag: UInt32 = 702

    /// Parses the contents of an AuthorizationList SEQUENCE. Every field is an EXPLICIT
    /// context-specific tag; fields other than purpose, allApplications and origin are skipped,
    /// but each must be well-formed DER and no tag may appear twice.
    init(parsing element: DERElement) throws(CryptoError) {
        var reader = try element.contentsReader()
        var seen = Set<UInt32>()
        var purpose: [Int]?
        var origin: Int?
        var allApplications = false
        while !reader.isAtEnd {
            let field = try reader.readElement()
            guard field.tag.tagClass == .contextSpecific, field.tag.isConstructed else {
                throw CryptoError.certificate("AuthorizationList: field \(field.tag.describe) is not an explicit tag")
            }
            guard seen.insert(field.tag.number).inserted else {
                throw CryptoError.certificate("AuthorizationList: field \(field.tag.describe) appears twice")
            }
            var inner = try field.contentsReader()
            switch field.tag.number {
            case Self.purposeTag:
                let set = try inner.readElement(.set)
                var values = try set.contentsReader()
                var list: [Int] = []
                while !values.isAtEnd { list.append(try values.readInteger()) }
                purpose = list
            case Self.originTag:
                origin = try inner.readInteger()
            case Self.allApplicationsTag:
                let null = try inner.readElement(.null)
                guard null.contents.isEmpty else {
                    throw CryptoError.certificate("AuthorizationList: NULL with content")
                }
                allApplications = true
            default:
                // Not needed by WebAuthn; still must be exactly one well-formed element.
                _ = try inner.readElement()
            }
            try inner.expectEnd("AuthorizationList field \(field.tag.describe)")
        }
        self.init(purpose: purpose, origin: origin, allApplications: allApplications)
    }
}
