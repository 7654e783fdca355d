import SwiftASN1

extension ASN1Node {
    /// The children of a constructed node with the given identifier.
    ///
    /// - Throws: ``VerificationError`` `malformed_container` naming `what` when the node
    ///   is primitive or has another identifier.
    func children(_ identifier: ASN1Identifier, what: String) throws(VerificationError) -> [ASN1Node] {
        guard self.identifier == identifier, case .constructed(let nodes) = content else {
            throw VerificationError(.malformedContainer, "\(what): expected \(identifier), found \(self.identifier)")
        }
        return Array(nodes)
    }

    /// The children of a constructed node that must number at least `count`.
    func children(
        _ identifier: ASN1Identifier,
        atLeast count: Int,
        what: String
    ) throws(VerificationError) -> [ASN1Node] {
        let nodes = try children(identifier, what: what)
        guard nodes.count >= count else {
            throw VerificationError(.malformedContainer, "\(what): expected \(count) fields, found \(nodes.count)")
        }
        return nodes
    }

    /// The object identifier this node encodes.
    func objectIdentifier(what: String) throws(VerificationError) -> ASN1ObjectIdentifier {
        do {
            return try ASN1ObjectIdentifier(berEncoded: self)
        } catch {
            throw VerificationError(.malformedContainer, "\(what) is not an object identifier")
        }
    }

    /// Whether the node is a context-specific tag `[number]`.
    func isContextSpecific(_ number: UInt) -> Bool {
        identifier == ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}
