import AppStoreVerification
import Foundation
import Testing
import X509

/// Real Apple-signed data bundled with the tests (see Resources/).
enum TestVectors {
    static func data(_ path: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: path, withExtension: nil, subdirectory: "Resources"),
            "missing test resource \(path)"
        )
        return try Data(contentsOf: url)
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }

    static func root(_ path: String) throws -> TrustRoots {
        TrustRoots([try Certificate(derEncoded: Array(try data(path)))])
    }

    static var storeKitTestRoot: TrustRoots {
        get throws { try root("roots/StoreKitTestCertificate.cer") }
    }

    static var appleLibraryTestRoot: TrustRoots {
        get throws { try root("apple-library-mock/testCA.der") }
    }
}
