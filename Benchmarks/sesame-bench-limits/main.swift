// `make bench` (second part): what hostile input costs the server, next to a benign baseline
// measured in the same run. Machines are noisy, so only the ratios mean anything.
//
// 1. Request bodies: a 64 KiB body built to be expensive (thousands of distinct fields, long names
//    under the member cap, escapes, deep arrays) against a benign 64 KiB body of the same media
//    type, each answered in-process by the real router and handlers.
// 2. Pending ceremonies: the memory 100,000 pending auth sessions hold (PendingSessions.swift).
import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore

/// Runs `body` repeatedly for about `seconds` and returns its cost in microseconds (best of `rounds`).
func microseconds(seconds: Double = 0.5, rounds: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        var count = 0
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            body()
            count += 1
        }
        let elapsed = clock.now - start
        let total = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        best = min(best, total / Double(count))
    }
    return best
}

/// A 64 KiB body: `prefix`, then `piece(i)` joined by `separator` until the size is reached, then `suffix`.
func body(_ size: Int, prefix: String, suffix: String, separator: String, _ piece: (Int) -> String) -> String {
    var parts: [String] = []
    var length = prefix.utf8.count + suffix.utf8.count
    var index = 0
    while true {
        let next = piece(index)
        if length + next.utf8.count + separator.utf8.count > size { break }
        parts.append(next)
        length += next.utf8.count + separator.utf8.count
        index += 1
    }
    return prefix + parts.joined(separator: separator) + suffix
}

if let flag = CommandLine.arguments.firstIndex(of: "--pending"), flag + 1 < CommandLine.arguments.count,
    let kind = PendingSessions.Kind(rawValue: CommandLine.arguments[flag + 1])
{
    try PendingSessions.child(kind)
    exit(0)
}

let size = 64 * 1024
let store = InMemoryStore()
let application = SesameApplication(
    store: store, masterKey: try MasterKey.generate(), rateLimitPerMinute: 0)
let (bootstrap, _) = try Bootstrap.initialize(
    store: store, publicURL: "https://login.example.test", random: SystemRandom(), now: Date())
let responder = HTTPResponder(router: application.router(), log: RequestLog(level: .error, sink: { _ in }))

struct BodyCase {
    let name: String
    let mediaType: String
    let text: String
}

let client = bootstrap.clientID
let json = "application/json"
let form = "application/x-www-form-urlencoded"
let benignJSON = BodyCase(
    name: "benign: one 64 KiB value", mediaType: json,
    text: #"{"grant_type":"refresh_token","client_id":"\#(client)","refresh_token":""#
        + String(repeating: "a", count: size - 100) + #""}"#)
let benignForm = BodyCase(
    name: "benign: one 64 KiB value", mediaType: form,
    text: "grant_type=refresh_token&client_id=\(client)&refresh_token=" + String(repeating: "a", count: size - 100))
let hostileJSON = [
    BodyCase(
        name: "distinct members (the audit's body)", mediaType: json,
        text: body(size, prefix: "{", suffix: "}", separator: ",") { "\"m\($0)\":0" }),
    BodyCase(
        name: "255 members with 250-byte names", mediaType: json,
        text: "{"
            + (0..<255).map { "\"" + String(repeating: "n", count: 246) + String(format: "%04d", $0) + "\":0" }
            .joined(separator: ",") + "}"),
    BodyCase(
        name: "one value of \\u escapes", mediaType: json,
        text: #"{"grant_type":"refresh_token","refresh_token":""#
            + String(repeating: #"\u00e9"#, count: (size - 60) / 6) + #""}"#),
    BodyCase(
        name: "a value of 32k array elements", mediaType: json,
        text: #"{"grant_type":"refresh_token","scope":["# + String(repeating: "0,", count: (size - 60) / 2) + "0]}"),
    BodyCase(
        name: "32-deep nesting, repeated", mediaType: json,
        text: body(size, prefix: #"{"grant_type":"x","a":["#, suffix: "]}", separator: ",") { _ in
            String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        }),
]
let hostileForm = [
    BodyCase(
        name: "distinct fields (the audit's body)", mediaType: form,
        text: body(size, prefix: "", suffix: "", separator: "&") { "f\($0)=x" }),
    BodyCase(
        name: "one value of %-escapes", mediaType: form,
        text: "grant_type=refresh_token&refresh_token=" + String(repeating: "%C3%A9", count: (size - 60) / 6)),
]

func cost(_ bodyCase: BodyCase) -> (Double, Int) {
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: "login.example.test")
    headers.add(name: "Content-Type", value: bodyCase.mediaType)
    let request = HTTPRequest(method: .post, target: "/oauth/token", headers: headers, body: Array(bodyCase.text.utf8))
    let status = responder.respond(to: request).status
    return (microseconds { _ = responder.respond(to: request) }, status)
}

print("POST /oauth/token with a 64 KiB body: server CPU per request, hostile vs benign (same run)")
print("body                                      bytes    status      µs   vs benign")
var failed = false
for (benign, hostile) in [(benignJSON, hostileJSON), (benignForm, hostileForm)] {
    let (baseline, baselineStatus) = cost(benign)
    let kind = benign.mediaType == json ? "JSON" : "form"
    func row(_ bodyCase: BodyCase, _ micros: Double, _ status: Int, _ versus: String) {
        let label = "\(kind) \(bodyCase.name)".padding(toLength: 40, withPad: " ", startingAt: 0)
        print(
            "\(label) \(String(format: "%6d", bodyCase.text.utf8.count))    \(status)    \(String(format: "%7.1f", micros))   \(versus)"
        )
    }
    row(benign, baseline, baselineStatus, "1.00 (baseline)")
    for bodyCase in hostile {
        let (micros, status) = cost(bodyCase)
        row(bodyCase, micros, status, String(format: "%.2f", micros / baseline))
        if status >= 500 { failed = true }
    }
}
print("(target: every hostile body within a small factor of the benign one; before the fix the audit's")
print(" bodies cost 700-870x a normal request)")

print("")
failed = !PendingSessions.measure() || failed
if failed { exit(1) }
