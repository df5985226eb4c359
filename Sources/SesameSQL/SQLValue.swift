import Foundation

/// A value bound to a statement parameter.
public enum SQLValue: Sendable {
    case text(String)
    case blob([UInt8])
    case data(Data)
    case integer(Int64)
    case real(Double)
    case null

    /// `.text` for a string, `.null` for nil.
    public static func optionalText(_ value: String?) -> SQLValue {
        value.map { .text($0) } ?? .null
    }
}
