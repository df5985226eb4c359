/// A certificate's basicConstraints extension: whether it may issue certificates, and how deep.
public struct BasicConstraints: Sendable, Hashable {
    /// The cA flag.
    public var isCA: Bool
    /// pathLenConstraint, when present.
    public var pathLength: Int?

    /// Basic constraints from their parts.
    public init(isCA: Bool, pathLength: Int?) {
        self.isCA = isCA
        self.pathLength = pathLength
    }
}
