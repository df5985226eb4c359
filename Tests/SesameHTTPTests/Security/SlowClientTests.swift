import Foundation
import Synchronization
import Testing

@testable import SesameHTTP

/// Audit item 4 (slowloris): 1,088 connections from 17 addresses, each sending a header byte every
/// ~9 s, held every slot past the 30 s idle timeout. Now a whole request must arrive within the
/// request deadline, and the last free slots are kept for addresses that hold few connections.
@Suite("Audit 4: slow clients cannot hold the server")
struct SlowClientTests {
    /// A clock the table reads, moved by hand.
    final class FakeClock: Sendable {
        let seconds = Mutex(0.0)
        func now() -> Double { seconds.withLock { $0 } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    final class Shutdowns: Sendable {
        let sockets = Mutex<[Int32]>([])
        func record(_ socket: Int32) { sockets.withLock { $0.append(socket) } }
        var all: [Int32] { sockets.withLock { $0 } }
    }

    static func table(
        timeout: Double = 15, max: Int = 16, reserved: Int = 8, underPressure: Int = 2,
        proxies: [String] = [], keepFree: Int = 0, clock: FakeClock = FakeClock(), shutdowns: Shutdowns = Shutdowns()
    ) throws -> ConnectionTable {
        ConnectionTable(
            policy: ConnectionTable.Policy(
                requestTimeout: timeout, maxConnections: max, reserved: reserved,
                perAddressUnderPressure: underPressure, exempt: try TrustedProxies(proxies), keepFree: keepFree),
            clock: { clock.now() }, shutdownSocket: { shutdowns.record($0) })
    }

    // MARK: The table

    @Test func aRequestThatTakesTooLongIsShutDown() throws {
        let clock = FakeClock()
        let shutdowns = Shutdowns()
        let table = try Self.table(timeout: 15, clock: clock, shutdowns: shutdowns)
        let slow = table.opened(socket: 7, address: "198.51.100.1")
        let handled = table.opened(socket: 8, address: "198.51.100.2")
        clock.advance(10)
        table.requestReceived(handled)  // its request arrived in time; it is being handled
        clock.advance(5.5)
        var logged: [String] = []
        #expect(table.reapOverdue { logged.append($0) } == ["198.51.100.1"])
        #expect(logged == ["198.51.100.1"])
        #expect(shutdowns.all == [7])
        #expect(table.reapOverdue().isEmpty)  // once
        // The handled connection's deadline starts again when its response is done.
        table.requestCompleted(handled)
        clock.advance(15.5)
        #expect(table.reapOverdue() == ["198.51.100.2"])
        table.closed(slow)
        table.closed(handled)
        #expect(table.count == 0)
    }

    @Test func theLastSlotsAreKeptForAddressesHoldingFew() throws {
        let table = try Self.table(max: 16, reserved: 8, underPressure: 2)
        for socket in 0..<8 {
            #expect(table.admit(address: "203.0.113.5"))
            _ = table.opened(socket: Int32(socket), address: "203.0.113.5")
        }
        // 8 of 16 slots used: only addresses with fewer than 2 connections get the rest.
        #expect(!table.admit(address: "203.0.113.5"))
        #expect(table.admit(address: "203.0.113.6"))
        let first = table.opened(socket: 20, address: "203.0.113.6")
        #expect(table.admit(address: "203.0.113.6"))
        _ = table.opened(socket: 21, address: "203.0.113.6")
        #expect(!table.admit(address: "203.0.113.6"))
        table.closed(first)
        #expect(table.admit(address: "203.0.113.6"))
    }

    @Test func ipv6AddressesAreCountedByTheirSlash64AndProxiesAreExempt() throws {
        let table = try Self.table(max: 4, reserved: 4, underPressure: 1, proxies: ["10.0.0.1"])
        _ = table.opened(socket: 1, address: "2001:db8:1:2::1")
        #expect(!table.admit(address: "2001:db8:1:2::99"))
        #expect(table.admit(address: "2001:db8:1:3::1"))
        for socket in 2..<6 { _ = table.opened(socket: Int32(socket), address: "10.0.0.1") }
        #expect(table.admit(address: "10.0.0.1"))
    }

    @Test func aFullTableShutsDownTheLongestWaitingIdleConnection() throws {
        let clock = FakeClock()
        let shutdowns = Shutdowns()
        let table = try Self.table(
            max: 8, reserved: 0, proxies: ["10.0.0.1"], keepFree: 2, clock: clock, shutdowns: shutdowns)
        let proxy = table.opened(socket: 100, address: "10.0.0.1")  // oldest, but a trusted proxy's
        clock.advance(1)
        let busy = table.opened(socket: 101, address: "198.51.100.9")
        table.requestReceived(busy)  // being handled: never chosen
        var ids: [UInt] = []
        for socket in 0..<3 {
            clock.advance(1)
            ids.append(table.opened(socket: Int32(socket), address: "203.0.113.\(socket)"))
        }
        #expect(shutdowns.all.isEmpty)  // 5 of 8 held: 3 free
        clock.advance(1)
        ids.append(table.opened(socket: 3, address: "203.0.113.3"))  // 2 free left: the oldest idle goes
        #expect(shutdowns.all == [0])
        #expect(table.evictions == 1)
        // Until libmicrohttpd closes it, the shut-down one counts as free: no second eviction yet.
        #expect(table.count == 6)
        table.requestCompleted(ids[0])  // a late completion does not make it a candidate again
        clock.advance(1)
        ids.append(table.opened(socket: 4, address: "203.0.113.4"))
        #expect(shutdowns.all == [0, 1])
        table.closed(ids[0])
        table.closed(ids[1])
        #expect(table.count == 5)
        // The proxy and the busy connection are still there; with eviction off nothing is shut down.
        let off = try Self.table(max: 4, reserved: 0, keepFree: 0, shutdowns: Shutdowns())
        for socket in 0..<4 { _ = off.opened(socket: Int32(socket), address: "203.0.113.\(socket)") }
        #expect(off.evictions == 0)
        table.closed(proxy)
        table.closed(busy)
    }

    // MARK: Live

    @Test func idleConnectionsFromManyAddressesCannotLockOutANewClient() throws {
        let server = try HTTPServerLiveTests.start {
            $0.threads = 1
            $0.limits.maxConnections = 16
            $0.limits.connectionsPerIP = 0
            $0.limits.requestTimeoutSeconds = 0  // no deadline: only eviction can free a slot
            $0.limits.connectionTimeoutSeconds = 0
        }
        defer { server.stop(gracePeriod: 1) }
        // 24 connections from 24 addresses (one each, so the headroom rule admits them all) that
        // never send a byte: more than every slot.
        var idle: [RawHTTPClient] = []
        for index in 0..<24 { idle.append(try RawHTTPClient(port: server.port, sourceAddress: "127.0.9.\(index + 1)")) }
        #expect(HTTPServerLiveTests.eventually { server.evictedConnections >= 10 })
        let client = try RawHTTPClient(port: server.port, sourceAddress: "127.0.0.200")
        #expect(try client.get("/hello/me").status == 200)
        #expect(server.openConnections <= 16)
        withExtendedLifetime(idle) {}
    }

    // MARK: Live

    @Test func aSlowSenderIsCutOffAndOthersAreServed() throws {
        var limits = ServerLimits()
        limits.requestTimeoutSeconds = 1
        let live = try LiveSesame(limits: limits)
        let slow = try RawHTTPClient(port: live.port)
        try slow.send("GET /healthz HTTP/1.1\r\nHost: localhost:\(live.port)\r\nX-Slow: ")
        // One header byte every 100 ms would take 30 s for 300 bytes; the server ends it long before.
        var sent = 0
        while sent < 300, !slow.isClosedByPeer() {
            do {
                try slow.send("a")
            } catch {
                break
            }
            sent += 1
            usleep(100_000)
            // Meanwhile the server answers everyone else.
            if sent == 5 { #expect(try live.send("GET", "/healthz").status == 200) }
        }
        #expect(sent < 300, "the slow request was not cut off")
        #expect(slow.waitForClose())
        #expect(live.log.lines.contains { $0.contains("request deadline passed") })
    }

    @Test func aKeepAliveConnectionGetsTheDeadlineForEachRequest() throws {
        var limits = ServerLimits()
        limits.requestTimeoutSeconds = 2
        let live = try LiveSesame(limits: limits)
        let client = try RawHTTPClient(port: live.port)
        // Three requests on one connection, each answered at once: none is near its deadline.
        for _ in 0..<3 {
            try client.send("GET /healthz HTTP/1.1\r\nHost: localhost:\(live.port)\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func underPressureANewAddressIsStillServed() throws {
        var limits = ServerLimits()
        limits.maxConnections = 64
        limits.reservedConnections = 56
        limits.connectionsPerIPUnderPressure = 2
        let live = try LiveSesame(limits: limits)
        // Eight keep-alive connections from 127.0.0.1 use up the unreserved slots (each answered
        // once, so the server has accepted every one).
        var held: [RawHTTPClient] = []
        for _ in 0..<8 {
            let client = try RawHTTPClient(port: live.port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: localhost:\(live.port)\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            held.append(client)
        }
        #expect(live.server.openConnections == 8)

        // A ninth from the same address is refused; another address is served.
        let refused = try RawHTTPClient(port: live.port, receiveTimeoutSeconds: 5)
        try? refused.send("GET /healthz HTTP/1.1\r\nHost: localhost:\(live.port)\r\n\r\n")
        #expect(refused.waitForClose())
        let other = try RawHTTPClient(port: live.port, sourceAddress: "127.0.0.2")
        try other.send("GET /healthz HTTP/1.1\r\nHost: localhost:\(live.port)\r\n\r\n")
        #expect(try other.readResponse().status == 200)
        withExtendedLifetime(held) {}
    }
}
