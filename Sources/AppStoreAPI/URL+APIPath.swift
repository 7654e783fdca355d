import Foundation

extension URL {
    /// The characters left as they are in a path segment or query value: RFC 3986's
    /// unreserved set. Everything else is percent-encoded, so an id or token can never
    /// change the path or the query.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// This URL with path segments appended (each percent-encoded) and the query replaced
    /// by `query`; `nil` if the result is not a URL.
    ///
    /// A base whose path ends in `/` gets no doubled slash: `http://h:1/sandbox/` and
    /// `http://h:1/sandbox` both become `http://h:1/sandbox/inApps/...`.
    public func appendingAPIPath(_ segments: [String], query: [(name: String, value: String)] = []) -> URL? {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") {
            path.removeLast()
        }
        for segment in segments {
            guard let encoded = segment.addingPercentEncoding(withAllowedCharacters: Self.unreserved) else {
                return nil
            }
            path += "/" + encoded
        }
        components.percentEncodedPath = path
        if query.isEmpty {
            components.percentEncodedQuery = nil
        } else {
            var items: [String] = []
            for item in query {
                guard let name = item.name.addingPercentEncoding(withAllowedCharacters: Self.unreserved),
                    let value = item.value.addingPercentEncoding(withAllowedCharacters: Self.unreserved)
                else { return nil }
                items.append(name + "=" + value)
            }
            components.percentEncodedQuery = items.joined(separator: "&")
        }
        components.fragment = nil
        return components.url
    }
}
