import Foundation
import Yams

/// `docs/openapi.yaml`, parsed with Yams, and the few questions the tests ask of it.
struct OpenAPIDocument {
    /// The HTTP methods an OpenAPI path item may hold, lowercase as the document writes them.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// One operation: a path template (`/v1/admin/orders/{orderId}`) and a lowercase method.
    struct Operation: Hashable, Sendable, CustomStringConvertible {
        var path: String
        var method: String

        var description: String { "\(method.uppercased()) \(path)" }
    }

    /// The whole document.
    let root: Node

    /// The package root: this file is `<root>/Tests/PurchaseServerTests/OpenAPIDocument.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `docs/openapi.yaml` of this package.
    static let fileURL = packageRoot.appendingPathComponent("docs").appendingPathComponent("openapi.yaml")

    /// Reads and parses the document.
    static func load() throws -> OpenAPIDocument {
        let text = try String(contentsOf: fileURL, encoding: .utf8)
        guard let root = try Yams.compose(yaml: text) else { throw OpenAPIDocumentError("the document is empty") }
        return OpenAPIDocument(root: root)
    }

    /// The value at `keys`, one mapping key after the other.
    func node(_ keys: String...) -> Node? {
        keys.reduce(Optional(root)) { node, key in node?[key: key] }
    }

    /// Every operation under `paths`, in document order.
    var operations: [Operation] {
        operations(under: "paths")
    }

    /// Every operation under `section` (`paths` or `webhooks`), in document order.
    func operations(under section: String) -> [Operation] {
        guard let items = root[key: section]?.mapping else { return [] }
        return items.flatMap { path, item -> [Operation] in
            guard let path = path.string, let item = item.mapping else { return [] }
            return item.compactMap { key, _ in
                guard let method = key.string, Self.methods.contains(method) else { return nil }
                return Operation(path: path, method: method)
            }
        }
    }

    /// The operation object of `operation` in `section`.
    func object(of operation: Operation, in section: String = "paths") -> Node? {
        node(section, operation.path, operation.method)
    }

    /// Every `$ref` value anywhere in the document.
    var references: [String] {
        var found: [String] = []
        func visit(_ node: Node) {
            if let mapping = node.mapping {
                for (key, value) in mapping {
                    if key.string == "$ref", let reference = value.string { found.append(reference) }
                    visit(value)
                }
            } else if let sequence = node.sequence {
                sequence.forEach(visit)
            }
        }
        visit(root)
        return found
    }

    /// The node a local reference (`#/components/schemas/Error`) points at, or `nil`.
    func resolve(_ reference: String) -> Node? {
        guard reference.hasPrefix("#/") else { return nil }
        let tokens = reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        var node: Node? = root
        for token in tokens {
            if let sequence = node?.sequence {
                guard let index = Int(token), sequence.indices.contains(index) else { return nil }
                node = sequence[index]
            } else {
                node = node?[key: token]
            }
        }
        return node
    }

    /// The names between braces in a path template: `/a/{x}/b/{y}` → `["x", "y"]`.
    static func templateParameters(in path: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in path {
            switch character {
            case "{": current = ""
            case "}":
                if let name = current { names.append(name) }
                current = nil
            default: current?.append(character)
            }
        }
        return names
    }

    /// The parameters declared for `operation` (its path item's and its own), `$ref`s resolved.
    func parameters(of operation: Operation) -> [Node] {
        let lists = [node("paths", operation.path, "parameters"), object(of: operation)?[key: "parameters"]]
        return lists.compactMap { $0?.sequence }.flatMap { $0 }.compactMap { parameter in
            if let reference = parameter[key: "$ref"]?.string { return resolve(reference) }
            return parameter
        }
    }

    /// The names of the path parameters declared for `operation`.
    func declaredPathParameters(of operation: Operation) -> Set<String> {
        Set(parameters(of: operation).filter { $0[key: "in"]?.string == "path" }.compactMap { $0[key: "name"]?.string })
    }

    /// `operation`'s path with every `{parameter}` replaced by `value`.
    static func concretePath(_ path: String, parameterValue value: String) -> String {
        var result = path
        for name in templateParameters(in: path) {
            result = result.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return result
    }
}

extension Node {
    /// The value of a mapping's `key`, compared as text: Yams' own `node["200"]` misses a
    /// quoted `"200"` key, whose tag differs from the plain scalar's.
    subscript(key key: String) -> Node? {
        mapping?.first { $0.key.string == key }?.value
    }
}

/// The document cannot be used.
struct OpenAPIDocumentError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
