import WebAuthn

/// Why the software authenticator refused an operation: a stable `code` and a human explanation
/// naming the field or check.
public typealias AuthenticatorError = CodedError<AuthenticatorErrorCode>

/// Stable error codes of `AuthenticatorError`. The first three carry the DOMException names a
/// browser would report.
public enum AuthenticatorErrorCode: String, Sendable, Hashable, CaseIterable {
    /// An excluded credential for this RP is already in the store (WebAuthn `InvalidStateError`).
    case invalidState = "InvalidStateError"
    /// None of the offered algorithms is supported (WebAuthn `NotSupportedError`).
    case notSupported = "NotSupportedError"
    /// No stored credential fits the request, or the selection was declined (`NotAllowedError`).
    case notAllowed = "NotAllowedError"
    /// The creation or request options are malformed (missing member, bad base64url, bad length).
    case invalidOptions = "invalid_options"
    /// The authenticator's configuration cannot work (for example an AAGUID that is not 16 bytes).
    case configuration
    /// The credential store file exists but cannot be read as a store: nothing is assumed empty.
    case corruptStore = "corrupt_store"
    /// Reading or writing the credential store failed.
    case storeIO = "store_io"
    /// Generating, importing or signing with a credential key failed.
    case key
}
