import Foundation

/// A pending passkey ceremony between its challenge and its token call, as the service encoded it.
/// Kept in the store when several processes serve one database, so a challenge taken at one is
/// redeemed at another.
public struct AuthSessionRecord: Sendable, Hashable {
    /// SHA-256 of the opaque handle the client holds (the handle itself is never stored).
    public var handleHash: [UInt8]
    public var tenantID: String
    /// The client-address key the per-address cap counts against.
    public var requester: String
    public var expiresAt: Date
    /// The ceremony, in the service's own encoding.
    public var payload: [UInt8]

    public init(handleHash: [UInt8], tenantID: String, requester: String, expiresAt: Date, payload: [UInt8]) {
        self.handleHash = handleHash
        self.tenantID = tenantID
        self.requester = requester
        self.expiresAt = expiresAt
        self.payload = payload
    }
}

/// What storing a pending ceremony led to.
public enum AuthSessionInsertion: Sendable, Hashable {
    case inserted
    /// The requester already holds its maximum of unexpired sessions.
    case requesterFull
}
