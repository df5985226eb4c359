import Foundation
import SesameCrypto
import SesameStore

/// A message to a user: a reset link by email, a code by SMS.
public struct OutgoingMessage: Sendable, Hashable {
    public var tenantID: String
    public var channel: MessageChannel
    public var template: MessageTemplate
    /// An email address or an E.164 phone number.
    public var recipient: String
    public var text: String
    public init(tenantID: String, channel: MessageChannel, template: MessageTemplate, recipient: String, text: String) {
        self.tenantID = tenantID
        self.channel = channel
        self.template = template
        self.recipient = recipient
        self.text = text
    }
}

/// Where emails and SMS go. Sesame has two: `OutboxSender` (the default: kept in the store and
/// listed at `GET /api/v2/outbox`) and a webhook (SesameHTTP's `WebhookSender`). A sender that
/// cannot deliver throws `unavailable`, within its own time limit, so the caller answers 503.
public protocol MessageSender: Sendable {
    func send(_ message: OutgoingMessage) throws(ServiceError)
}

/// Seals and opens outbox texts (AES-256-GCM under a key derived from the master key, bound to the
/// tenant and the message id).
public struct MessageSealer: Sendable {
    let key: [UInt8]

    public init(masterKey: MasterKey) { key = masterKey.derivedKey(purpose: "outbox") }

    static func associatedData(tenantID: String, id: String) -> [UInt8] { Array("\(tenantID)\u{0}\(id)".utf8) }

    func seal(_ text: String, tenantID: String, id: String, random: any RandomSource) throws -> [UInt8] {
        try AES256GCM.seal(
            Array(text.utf8), key: key, associatedData: Self.associatedData(tenantID: tenantID, id: id), random: random)
    }

    /// The text of `message`; nil when it does not open (another master key, or damage).
    public func open(_ message: OutboxMessageRecord) -> String? {
        guard
            let bytes = try? AES256GCM.open(
                message.sealedText, key: key,
                associatedData: Self.associatedData(tenantID: message.tenantID, id: message.id))
        else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// The default sender: every message is kept in the store, sealed, for a week.
public final class OutboxSender: MessageSender {
    /// How long a message is kept.
    public static let retention: TimeInterval = 7 * 86_400
    let access: StoreAccess
    let sealer: MessageSealer
    let clock: any ServiceClock
    let random: any RandomSource

    public init(store: any SesameStore, sealer: MessageSealer, clock: any ServiceClock, random: any RandomSource) {
        self.access = StoreAccess(store: store)
        self.sealer = sealer
        self.clock = clock
        self.random = random
    }

    public func send(_ message: OutgoingMessage) throws(ServiceError) {
        let now = clock.now()
        let id = Identifiers.timeOrdered("msg_", at: now, suffix: try random.serviceBytes(8))
        let sealed: [UInt8]
        do {
            sealed = try sealer.seal(message.text, tenantID: message.tenantID, id: id, random: random)
        } catch {
            throw .unavailable("the message could not be sealed")
        }
        let record = OutboxMessageRecord(
            tenantID: message.tenantID, id: id, createdAt: now, channel: message.channel, template: message.template,
            recipient: message.recipient, sealedText: sealed)
        try access.write(.durable) { transaction in
            try transaction.outbox.insert(record)
            _ = try transaction.outbox.deleteOlder(than: now - Self.retention, limit: 16)
        }
    }
}
