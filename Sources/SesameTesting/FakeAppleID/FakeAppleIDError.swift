/// Why the fake Apple ID service could not do what it was asked (a state file it cannot read, a
/// key of the wrong kind, a file that already exists). The message names the file or value at fault.
public struct FakeAppleIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
