// `make bench`: assertion verifications per second through the WebAuthn core, next to the raw
// libcrypto verify rate for the same keys measured in the same process, and their ratios.
// Machines are noisy, so only the ratios are compared with targets.
import COpenSSL
import Foundation
import SesameCrypto
import WebAuthn

/// Runs `body` repeatedly for about `seconds` and returns operations per second (best of `rounds`).
func rate(seconds: Double = 0.6, rounds: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = 0.0
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        var count = 0
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            for _ in 0..<50 { try body() }
            count += 50
        }
        let elapsed = clock.now - start
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = max(best, Double(count) / secondsElapsed)
    }
    return best
}

/// The raw libcrypto baseline: EVP_DigestVerify with a key imported once.
final class RawVerifier {
    let key: OpaquePointer
    let md: OpaquePointer?
    init?(spki: [UInt8], md: OpaquePointer?) {
        var cursor: UnsafePointer<UInt8>? = nil
        let key: OpaquePointer? = spki.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { return nil }
        self.key = key
        self.md = md
    }
    deinit { EVP_PKEY_free(key) }
    func verify(_ signature: [UInt8], _ message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, md, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

struct Scenario {
    let name: String
    let keyType: KeyType
    let algorithm: COSEAlgorithm
    let md: OpaquePointer?
}

let rpID = "example.com"
let origin = "https://example.com"
let challenge = [UInt8](repeating: 7, count: 32)

func clientDataJSON() -> [UInt8] {
    Array(
        #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#
            .utf8)
}

/// Inputs handed to py_webauthn so it verifies exactly what the core verified.
nonisolated(unsafe) var pythonInputs: [[String: String]] = []

func run(_ scenario: Scenario) throws -> (raw: Double, json: Double, parsed: Double) {
    let privateKey = try PrivateKey.generate(scenario.keyType)
    let coseKey = try COSEKey(publicKey: privateKey.publicKey, algorithm: scenario.algorithm)
    let credentialID = [UInt8](repeating: 0xA5, count: 16)
    let authenticatorData = AuthenticatorData(
        rpIDHash: Digest.sha256(Array(rpID.utf8)), flags: [.userPresent, .userVerified, .backupEligible, .backupState],
        signCount: 0, attestedCredentialData: nil, extensions: nil)
    let clientData = clientDataJSON()
    let signedData = authenticatorData.raw + Digest.sha256(clientData)
    let signature = try privateKey.signature(for: signedData, algorithm: scenario.algorithm.signatureAlgorithm)

    let credentialJSON = Array(
        """
        {"id":"\(Base64URL.encode(credentialID))","rawId":"\(Base64URL.encode(credentialID))","type":"public-key",\
        "authenticatorAttachment":"platform","clientExtensionResults":{},\
        "response":{"clientDataJSON":"\(Base64URL.encode(clientData))",\
        "authenticatorData":"\(Base64URL.encode(authenticatorData.raw))",\
        "signature":"\(Base64URL.encode(signature))","userHandle":"\(Base64URL.encode([1, 2, 3, 4]))"}}
        """.utf8)
    let storedKeyBytes = coseKey.encoded

    let relyingParty = RelyingParty(policy: RelyingPartyPolicy(rpID: rpID, allowedOrigins: [origin]))
    let state = relyingParty.beginAuthentication(challenge: challenge)

    guard let raw = RawVerifier(spki: privateKey.publicKey.spkiDER, md: scenario.md) else {
        throw CryptoError.library("baseline key import failed")
    }
    guard raw.verify(signature, signedData) else { throw CryptoError.library("baseline verify failed") }

    // (a) From the credential JSON as a client sends it and the stored COSE key bytes.
    func fromJSON() throws {
        let credential = try AuthenticationCredential(json: credentialJSON)
        let stored = StoredCredential(
            id: credential.id, publicKey: try COSEKey(bytes: storedKeyBytes), signCount: 0, backupEligible: true)
        _ = try relyingParty.finishAuthentication(credential, state: state, stored: stored)
    }
    // (b) From already-parsed inputs with an imported key.
    let parsedCredential = try AuthenticationCredential(json: credentialJSON)
    let importedStored = StoredCredential(
        id: credentialID, publicKey: coseKey, importedKey: try coseKey.publicKey(), signCount: 0, backupEligible: true)
    func fromParsed() throws {
        _ = try relyingParty.finishAuthentication(parsedCredential, state: state, stored: importedStored)
    }
    try fromJSON()
    try fromParsed()
    pythonInputs.append([
        "alg": scenario.name, "credential": String(decoding: credentialJSON, as: UTF8.self),
        "public_key": Base64URL.encode(storedKeyBytes), "challenge": Base64URL.encode(challenge), "rp_id": rpID,
        "origin": origin,
    ])

    if CommandLine.arguments.contains("--breakdown") {
        let parts: [(String, () throws -> Void)] = [
            ("credential JSON parse", { _ = try AuthenticationCredential(json: credentialJSON) }),
            ("  of which JSON reading", { _ = try JSONReader.parse(credentialJSON) }),
            ("clientDataJSON parse", { _ = try CollectedClientData(json: clientData) }),
            ("authenticatorData parse", { _ = try AuthenticatorData(bytes: authenticatorData.raw) }),
            ("COSE key decode", { _ = try COSEKey(bytes: storedKeyBytes) }),
            ("COSE key import", { _ = try coseKey.publicKey() }),
            ("SHA-256 of clientData", { _ = Digest.sha256(clientData) }),
        ]
        for (label, body) in parts {
            let perSecond = try rate(seconds: 0.3, rounds: 2, body)
            print(
                "    \(scenario.name) \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", 1e6 / perSecond)) µs"
            )
        }
    }
    let rawRate = rate { _ = raw.verify(signature, signedData) }
    let jsonRate = try rate(fromJSON)
    let parsedRate = try rate(fromParsed)
    return (rawRate, jsonRate, parsedRate)
}

let scenarios = [
    Scenario(name: "ES256", keyType: .ec(.p256), algorithm: .es256, md: EVP_sha256()),
    Scenario(name: "EdDSA", keyType: .ed25519, algorithm: .edDSA, md: nil),
    Scenario(name: "RS256", keyType: .rsa(bits: 2048), algorithm: .rs256, md: EVP_sha256()),
]

func format(_ value: Double) -> String { String(format: "%9.0f/s", value) }
func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

print("Assertion verification through the WebAuthn core vs raw libcrypto (same keys, same process)")
print("alg     raw libcrypto   (a) from JSON   ratio   (b) parsed+key   ratio")
var failed = false
var fromJSONRates: [String: Double] = [:]
for scenario in scenarios {
    do {
        let result = try run(scenario)
        let a = result.json / result.raw
        let b = result.parsed / result.raw
        fromJSONRates[scenario.name] = result.json
        print(
            "\(scenario.name.padding(toLength: 6, withPad: " ", startingAt: 0))  \(format(result.raw))     \(format(result.json))   \(ratio(a))    \(format(result.parsed))    \(ratio(b))"
        )
        if scenario.name == "ES256" {
            print(
                "        ES256 targets: (a) >= 0.70 \(a >= 0.70 ? "met" : "MISSED"), (b) >= 0.90 \(b >= 0.90 ? "met" : "MISSED")"
            )
        }
    } catch {
        print("\(scenario.name): failed: \(error)")
        failed = true
    }
}

// py_webauthn on the same inputs, when `make bench` provides a Python with it installed.
if let python = ProcessInfo.processInfo.environment["SESAME_BENCH_PYTHON"],
    let script = ProcessInfo.processInfo.environment["SESAME_BENCH_PY_SCRIPT"]
{
    let inputs = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-bench-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: inputs) }
    do {
        try JSONSerialization.data(withJSONObject: pythonInputs).write(to: inputs)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, inputs.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("")
        print("The same verification, from the credential JSON, vs py_webauthn (same inputs, same run)")
        print("alg     Sesame (a)      py_webauthn     Sesame / py_webauthn")
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let python = Double(fields[1]), let ours = fromJSONRates[String(fields[0])] else {
                continue
            }
            print(
                "\(String(fields[0]).padding(toLength: 6, withPad: " ", startingAt: 0))  \(format(ours))     \(format(python))    \(ratio(ours / python))x"
            )
            if fields[0] == "ES256" {
                print("        ES256 target: >= 1.6x py_webauthn \(ours / python >= 1.6 ? "met" : "MISSED")")
            }
        }
        if process.terminationStatus != 0 {
            print("py_webauthn run failed (exit \(process.terminationStatus))")
            failed = true
        }
    } catch {
        print("py_webauthn run failed: \(error)")
        failed = true
    }
} else {
    print("(py_webauthn comparison skipped: run through `make bench`)")
}
if failed { exit(1) }
