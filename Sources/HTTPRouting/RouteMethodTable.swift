import Hummingbird

/// The HTTP methods a router serves on each of its path patterns: what the `Allow` header
/// of a 405 answer lists.
///
/// Self-contained (Hummingbird only), so any Hummingbird 2 application can use it with
/// ``UnmatchedRequestMiddleware``. Patterns are Hummingbird's (`/devices/:deviceId`,
/// `{id}`, `*`, `**`); a request path matches a pattern the way the router matches it,
/// case-sensitively.
public struct RouteMethodTable: Sendable {
    private var entries: [(pattern: RouterPath, methods: Set<HTTPRequest.Method>)] = []

    /// An empty table.
    public init() {}

    /// A table of the routes a router lists (`router.routes`).
    ///
    /// - Parameter routes: the routes, e.g. `router.routes` after every route was added.
    public init<Context>(routes: [Router<Context>.RouteDescription]) {
        for route in routes { add(route.method, at: route.path) }
    }

    /// Records that `pattern` is served with `method`.
    ///
    /// - Parameters:
    ///   - method: the method served.
    ///   - pattern: the route's path pattern.
    public mutating func add(_ method: HTTPRequest.Method, at pattern: RouterPath) {
        if let index = entries.firstIndex(where: { $0.pattern == pattern }) {
            entries[index].methods.insert(method)
        } else {
            entries.append((pattern, [method]))
        }
    }

    /// Whether the table holds no route.
    public var isEmpty: Bool { entries.isEmpty }

    /// The methods served on `path` (a request's path, without its query), sorted: the
    /// union over every pattern that matches it; empty when none does.
    ///
    /// - Parameter path: the request's path, e.g. `/emulator/v1/devices/phone`.
    public func methods(forPath path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var methods: Set<HTTPRequest.Method> = []
        for entry in entries where Self.matches(entry.pattern.components[...], segments[...]) {
            methods.formUnion(entry.methods)
        }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }

    private static func matches(_ pattern: ArraySlice<RouterPath.Element>, _ segments: ArraySlice<Substring>) -> Bool {
        guard let element = pattern.first else { return segments.isEmpty }
        if element == RouterPath.Element.recursiveWildcard {
            // `**` takes one or more segments, then the rest of the pattern must match.
            guard !segments.isEmpty else { return false }
            return (segments.startIndex..<segments.endIndex).contains { start in
                matches(pattern.dropFirst(), segments[(start + 1)...])
            }
        }
        guard let segment = segments.first, element ~= segment else { return false }
        return matches(pattern.dropFirst(), segments.dropFirst())
    }
}
