import Foundation
import WebAuthn

/// Converts option values to what the commands need; each failure is a `UsageError` naming the option.
enum ArgumentValues {
    /// Strict base64url (padding allowed only where it belongs).
    static func base64URL(_ text: String, option: String) throws(UsageError) -> [UInt8] {
        do {
            return try Base64URL.decode(text)
        } catch {
            throw UsageError("--\(option) is not valid base64url (\(error.message))")
        }
    }

    /// An ISO 8601 date and time with a zone, e.g. 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.5+02:00.
    static func date(_ text: String, option: String) throws(UsageError) -> Date {
        guard let date = parseDate(text) else {
            throw UsageError("--\(option) '\(text)' is not an ISO 8601 date and time (e.g. 2024-05-01T12:00:00Z)")
        }
        return date
    }

    /// Parses an ISO 8601 internet date-time, with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// COSE algorithm names (ES256, EdDSA, RS256, …; case does not matter); nil when none were given.
    static func algorithms(_ names: [String], option: String) throws(UsageError) -> [COSEAlgorithm]? {
        guard !names.isEmpty else { return nil }
        var algorithms: [COSEAlgorithm] = []
        for name in names {
            guard let algorithm = COSEAlgorithm.allCases.first(where: { $0.name.lowercased() == name.lowercased() })
            else {
                let known = COSEAlgorithm.allCases.map(\.name).joined(separator: ", ")
                throw UsageError("--\(option) '\(name)' is not a known algorithm (known: \(known))")
            }
            if !algorithms.contains(algorithm) {
                algorithms.append(algorithm)
            }
        }
        return algorithms
    }

    /// A signature counter: decimal digits only, 0 through 4294967295.
    static func signCount(_ text: String, option: String) throws(UsageError) -> UInt32 {
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = UInt32(text)
        else {
            throw UsageError("--\(option) '\(text)' is not a number from 0 to 4294967295")
        }
        return value
    }

    /// The bytes of FILE, or of standard input when FILE is `-` or nil.
    static func input(_ path: String?, environment: CommandEnvironment) throws(UsageError) -> [UInt8] {
        guard let path, path != "-" else {
            do {
                return try environment.readStandardInput()
            } catch {
                throw UsageError("cannot read standard input: \(describe(error))")
            }
        }
        do {
            return try environment.readFile(path)
        } catch {
            throw UsageError("cannot read '\(path)': \(describe(error))")
        }
    }

    /// A short reason for a file error (the POSIX message when there is one).
    private static func describe(_ error: any Error) -> String {
        if let tooLarge = error as? InputTooLarge { return tooLarge.description }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return nsError.localizedDescription
    }
}
