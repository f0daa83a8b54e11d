import Foundation

/// AssetsLibrary's URLs of assets and groups: `assets-library://asset/asset.JPG?id=ID&ext=JPG` and
/// `assets-library://group/?id=ID`.
package enum AssetURL {
    /// The URL of the asset `identifier` whose file is named `filename`.
    package static func asset(_ identifier: String, filename: String) -> URL {
        let ext = (filename as NSString).pathExtension.uppercased()
        return url(host: "asset", path: "/asset.\(ext.isEmpty ? "JPG" : ext)",
                   query: [URLQueryItem(name: "id", value: identifier), URLQueryItem(name: "ext", value: ext.isEmpty ? "JPG" : ext)])
    }

    /// The URL of the group (collection) `identifier`.
    package static func group(_ identifier: String) -> URL {
        url(host: "group", path: "/", query: [URLQueryItem(name: "id", value: identifier)])
    }

    /// The identifier an `assets-library` URL names; nil for any other URL.
    package static func identifier(in url: URL) -> String? {
        guard url.scheme == "assets-library",
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        return components.queryItems?.first { $0.name == "id" }?.value
    }

    private static func url(host: String, path: String, query: [URLQueryItem]) -> URL {
        var components = URLComponents()
        components.scheme = "assets-library"
        components.host = host
        components.path = path
        components.queryItems = query
        return components.url!
    }
}
