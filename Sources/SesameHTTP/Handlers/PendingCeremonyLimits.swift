/// How many passkey ceremonies (challenges not yet redeemed) the server holds.
public struct PendingCeremonyLimits: Sendable, Hashable {
    /// In all; beyond it new ceremonies get 503 until some expire (default 100,000).
    public var total: Int
    /// From one client address (an IPv4 address or an IPv6 /64); beyond it 429 (default 200).
    public var perAddress: Int

    /// The defaults, or the limits given.
    public init(total: Int = 100_000, perAddress: Int = 200) {
        self.total = total
        self.perAddress = perAddress
    }
}
