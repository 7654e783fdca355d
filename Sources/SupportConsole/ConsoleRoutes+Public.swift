import Foundation
import Hummingbird

extension ConsoleRoutes {
    /// `GET /console/static/{file}` (the files of the resources' `static` folder, by name
    /// only) and `GET /console/language?to=…&back=…`.
    func addPublicRoutes() {
        let core = core
        group.get("static/:file") { request, context -> Response in
            guard let name = context.parameters.get("file"), let data = core.staticFiles[name] else {
                return core.publicError(.notFound(), request: request)
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: ConsoleStaticTypes.contentType(of: name), .cacheControl: "public, max-age=3600",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        group.get("language") { request, _ -> Response in
            let back = ConsoleURL.localPath(request.uri.queryParameters["back"].map(String.init))
            var response = core.redirect(to: back)
            if let language = request.uri.queryParameters["to"].flatMap({ ConsoleLanguage(rawValue: String($0)) }) {
                response.setCookie(core.cookie(ConsoleLanguage.cookieName, language.rawValue, maxAge: 31_536_000))
            }
            return response
        }
    }
}

/// The content types of the console's static files.
enum ConsoleStaticTypes {
    /// The `Content-Type` of a file named `name`.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
