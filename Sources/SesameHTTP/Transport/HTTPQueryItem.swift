/// One `name=value` pair of a URL query string, percent-decoded (`+` read as a space).
public struct HTTPQueryItem: Sendable, Equatable {
    /// The decoded name.
    public let name: String
    /// The decoded value; empty when the pair had no `=`.
    public let value: String

    /// Creates a query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses a raw query string (without the leading `?`). Pairs that do not decode to valid UTF-8
    /// or hold a broken percent escape are skipped.
    public static func parse(_ rawQuery: String) -> [HTTPQueryItem] {
        var items: [HTTPQueryItem] = []
        for pair in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = parts.first,
                let name = PercentDecoding.decode(rawName, plusAsSpace: true)
            else { continue }
            var value = ""
            if parts.count > 1, let rawValue = parts.last {
                guard let decoded = PercentDecoding.decode(rawValue, plusAsSpace: true) else { continue }
                value = decoded
            }
            items.append(HTTPQueryItem(name: name, value: value))
        }
        return items
    }
}
