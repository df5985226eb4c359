import Foundation

/// A certificate chain and private key (PEM) for libmicrohttpd to terminate TLS itself.
public struct TLSConfiguration: Sendable, Equatable {
    /// The certificate chain in PEM, leaf first.
    public var certificatePEM: String
    /// The private key in PEM (unencrypted).
    public var privateKeyPEM: String

    /// Uses PEM text already in memory.
    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads the certificate chain and key from PEM files; throws `HTTPServerError.tlsFile` naming the file.
    public init(certificatePath: String, privateKeyPath: String) throws {
        func read(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else { throw HTTPServerError.tlsFile(path) }
            return text
        }
        self.certificatePEM = try read(certificatePath)
        self.privateKeyPEM = try read(privateKeyPath)
    }
}
