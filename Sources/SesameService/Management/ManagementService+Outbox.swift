import Foundation
import SesameStore

/// A kept message as `GET /api/v2/outbox` lists it.
public struct ManagedMessage: Encodable, Sendable {
    public var id: String
    public var createdAt: String
    public var channel: MessageChannel
    public var template: MessageTemplate
    public var to: String
    /// The text; nil when it cannot be opened (a message sealed under another master key).
    public var text: String?
    enum CodingKeys: String, CodingKey {
        case id, channel, template, to, text
        case createdAt = "created_at"
    }
}

/// `/api/v2/outbox`: what the outbox sender kept (development and tests).
extension ManagementService {
    /// `GET /outbox[?to=…]`: newest first.
    public func outbox(
        _ caller: ManagementCaller, to recipient: String?, _ list: ListRequest
    ) throws(ServiceError) -> ManagedList<ManagedMessage> {
        try caller.require(.readOutbox)
        let list = try list.validated()
        let tenantID = caller.tenant.id
        let (items, total): ([OutboxMessageRecord], Int?)
        if let recipient {
            // A week of messages at most: filtered whole, then paged.
            guard recipient.utf8.count <= 254 else { throw .invalidRequest("to is longer than 254 bytes") }
            let wanted = TextRules.email(recipient)
            let all = try access.read { transaction in
                try Page.all { try transaction.outbox.list(tenantID: tenantID, page: $0) }
            }.filter { TextRules.email($0.recipient) == wanted }
            items = Array(all.dropFirst(list.page * list.perPage).prefix(list.perPage))
            total = list.includeTotals ? all.count : nil
        } else {
            (items, total) = try access.read { transaction in
                try Self.page(list) { try transaction.outbox.list(tenantID: tenantID, page: $0) }
            }
        }
        let messages = items.map { message in
            ManagedMessage(
                id: message.id, createdAt: APITimestamp.string(message.createdAt), channel: message.channel,
                template: message.template, to: message.recipient, text: sealer.open(message))
        }
        return ManagedList(
            name: "messages", items: messages, start: list.page * list.perPage, limit: list.perPage, total: total)
    }
}
