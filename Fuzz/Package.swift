// swift-tools-version:6.0
// libFuzzer harnesses for the WebAuthn parsers. Build and run them with scripts/fuzz.sh; each target
// links only with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`. FuzzDriver hands
// control to libFuzzer from the `<Target>_main` entry point SwiftPM expects.
import PackageDescription

let targets = [
    "FuzzCBOR", "FuzzAttestationObject", "FuzzAuthenticatorData", "FuzzClientData", "FuzzBase64URL", "FuzzCredentialJSON",
]

let package = Package(
    name: "SesameFuzz",
    dependencies: [.package(name: "Sesame", path: "..")],
    targets: [.target(name: "FuzzDriver")]
        + targets.map { name in
            .executableTarget(
                name: name, dependencies: ["FuzzDriver", .product(name: "WebAuthn", package: "Sesame")])
        },
    swiftLanguageModes: [.v6]
)
