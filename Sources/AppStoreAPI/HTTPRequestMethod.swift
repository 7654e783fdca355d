/// The method of an ``HTTPRequestData``.
///
/// A struct around the method's name, so that any method can be expressed.
public struct HTTPRequestMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method's name, e.g. `GET`.
    public var rawValue: String

    /// Creates a method from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal holding its name.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get: HTTPRequestMethod = "GET"
    /// `POST`.
    public static let post: HTTPRequestMethod = "POST"
    /// `PUT`.
    public static let put: HTTPRequestMethod = "PUT"
    /// `DELETE`.
    public static let delete: HTTPRequestMethod = "DELETE"

    /// The method's name.
    public var description: String { rawValue }
}
