import Foundation

/// A value bound to a statement parameter.
enum SQLValue {
    case text(String)
    case blob([UInt8])
    case data(Data)
    case integer(Int64)
    case real(Double)
    case null

    /// `.text` for a string, `.null` for nil.
    static func optionalText(_ value: String?) -> SQLValue {
        value.map { .text($0) } ?? .null
    }
}
