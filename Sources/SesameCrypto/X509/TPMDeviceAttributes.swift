/// TPM device attributes from a TPM AIK certificate's subjectAlternativeName directoryName
/// (TCG EK Credential Profile: 2.23.133.2.1 manufacturer, .2 model, .3 version).
public struct TPMDeviceAttributes: Sendable, Hashable {
    /// tcg-at-tpmManufacturer, e.g. "id:494E5443".
    public var manufacturer: String
    /// tcg-at-tpmModel, e.g. "ICL".
    public var model: String
    /// tcg-at-tpmVersion, e.g. "id:00020000".
    public var version: String

    /// Attributes from their parts.
    public init(manufacturer: String, model: String, version: String) {
        self.manufacturer = manufacturer
        self.model = model
        self.version = version
    }

    /// OID of tcg-at-tpmManufacturer.
    static let manufacturerOID = "2.23.133.2.1"
    /// OID of tcg-at-tpmModel.
    static let modelOID = "2.23.133.2.2"
    /// OID of tcg-at-tpmVersion.
    static let versionOID = "2.23.133.2.3"
}
