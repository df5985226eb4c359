import Foundation

/// A client command that could not finish: the server refused, the network failed, or local
/// state could not be read or written. The command line prints the message on one line after the
/// command's name and exits with status 1.
struct ClientFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, without the "sesame: <command>:" prefix.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// A short reason for a file error (the POSIX message when there is one).
    static func describe(_ error: any Error) -> String {
        if let failure = error as? ClientFailure { return failure.message }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        return String(describing: error)
    }
}
